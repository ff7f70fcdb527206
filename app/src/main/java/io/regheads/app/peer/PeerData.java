package io.regheads.app.peer;

import io.regheads.core.data.Dataset;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The PyTorch peer's exact data (its files {@code heads_ref_data_{train,test}.csv.gz}: 8 features, then y,
 * then the peer's y01 = (y - train min) / (train max - train min) clipped into [0, 1 - 1e-7]).
 *
 * @param data features and raw y
 * @param y01  the peer's y01 column
 */
public record PeerData(Dataset data, double[] y01) {

    /** Reads one of the peer's gzipped CSV files. */
    public static PeerData read(Path gz) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(gz)), StandardCharsets.UTF_8))) {
            String header = r.readLine();
            if (header == null || !header.startsWith("x0,")) {
                throw new IllegalArgumentException("peer file " + gz + " must start with the header x0,...,y,y01");
            }
            List<double[]> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            List<Double> y01 = new ArrayList<>();
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split(",");
                double[] row = new double[f.length - 2];
                for (int j = 0; j < row.length; j++) {
                    row[j] = Double.parseDouble(f[j]);
                }
                x.add(row);
                y.add(Double.parseDouble(f[f.length - 2]));
                y01.add(Double.parseDouble(f[f.length - 1]));
            }
            return new PeerData(Dataset.of(x.toArray(new double[0][]), y.stream().mapToDouble(Double::doubleValue).toArray()),
                    y01.stream().mapToDouble(Double::doubleValue).toArray());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read peer data " + gz + ": " + e.getMessage(), e);
        }
    }
}
