package io.regheads.app.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.cli.Regheads;
import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.heads.model.RegressionModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spark-submit entry point in local mode: {@code train} on a CSV file, then the model it saved scored by {@code
 * regheads predict} on a CSV file with the same header (columns in another order: found by name) and by {@code score
 * --partitions}.
 */
@Tag("spark")
class SparkMainTest {
    @TempDir
    static Path tmp;
    static Path trainCsv;
    static Path model;
    static Run trained;

    record Run(int exit, String out, String err) {}

    static Run spark(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SparkMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    static Run regheads(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Regheads.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** {@code rows} rows of price = 3 speed - load + 0.1 sin(i), with the given column order. */
    static Path csv(String name, int rows, String... header) throws IOException {
        StringBuilder sb = new StringBuilder(String.join(",", header)).append('\n');
        for (int i = 0; i < rows; i++) {
            double speed = (double) i / rows;
            double load = ((7 * i) % 11) / 11.0;
            double price = 3 * speed - load + 0.1 * Math.sin(i);
            String[] cells = new String[header.length];
            for (int c = 0; c < header.length; c++) {
                double v = switch (header[c]) {
                    case "speed" -> speed;
                    case "load" -> load;
                    case "price" -> price;
                    default -> i;
                };
                cells[c] = String.format(Locale.ROOT, "%.6f", v);
            }
            sb.append(String.join(",", cells)).append('\n');
        }
        Path p = tmp.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    @BeforeAll
    static void trainOnce() throws IOException {
        LocalSpark.session();
        trainCsv = csv("train.csv", 160, "id", "speed", "load", "price");
        model = tmp.resolve("m.rgh");
        trained = spark("train", "--master", "local[2]", "--input", trainCsv.toString(), "--features", "speed,load",
                "--label", "price", "--head", "mdn", "--epochs", "2", "--batch-size", "64", "--partitions", "2",
                "--model-out", model.toString(), "--quiet");
    }

    @Test
    void aSparkTrainedModelPredictsFromTheCommandLineByColumnName() throws IOException {
        assertEquals(0, trained.exit(), trained.err());
        assertTrue(trained.out().contains("2 partitions x 32 rows per step"), trained.out());
        RegressionModel m = RegressionModel.load(model);
        assertEquals(List.of("speed", "load"), m.featureNames());
        assertEquals(Optional.of("price"), m.targetName());

        // the training header in another order (without the id column the model does not use)
        Path score = csv("score.csv", 30, "load", "price", "speed");
        Path out = tmp.resolve("predictions.csv");
        Run p = regheads("predict", "--model", model.toString(), "--data", score.toString(), "--out", out.toString(),
                "--target", "price", "--quiet");
        assertEquals(0, p.exit(), p.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals(31, lines.size());
        Dataset d = CsvLoader.load(score, "price");
        double[][] x = new double[30][];
        for (int i = 0; i < 30; i++) {
            x[i] = new double[] {d.x(i, d.featureNames().indexOf("speed")), d.x(i, d.featureNames().indexOf("load"))};
        }
        double[] mean = m.predict(x).mean();
        for (int i = 0; i < 30; i++) {
            double printed = Double.parseDouble(lines.get(i + 1).split(",")[0]);
            // predict prints 9 significant digits, and its chunks may round float products differently (1e-7)
            assertEquals(mean[i], printed, 1e-6 * Math.max(1, Math.abs(mean[i])), "row " + i);
        }
    }

    /**
     * {@code score --partitions 3}: the input repartitioned into 3 partitions, the features found by name (no {@code
     * --features}), every row scored as the model scores it.
     */
    @Test
    void scoreRepartitionsItsInput() {
        assertEquals(0, trained.exit(), trained.err());
        Path out = tmp.resolve("scored.parquet");
        Run s = spark("score", "--master", "local[2]", "--model", model.toString(), "--input", trainCsv.toString(),
                "--output", out.toString(), "--quantiles", "0.1,0.9", "--label", "price", "--partitions", "3");
        assertEquals(0, s.exit(), s.err());
        assertTrue(s.out().contains("(3 partitions)"), s.out());
        List<Row> rows = LocalSpark.session().read().parquet(out.toString()).orderBy("id").collectAsList();
        assertEquals(160, rows.size());
        assertEquals(3L, Stream.of(out.toFile().list()).filter(f -> f.startsWith("part-")).count());
        RegressionModel m = RegressionModel.load(model);
        double[][] x = new double[160][];
        for (int i = 0; i < 160; i++) {
            Row r = rows.get(i);
            x[i] = new double[] {r.getDouble(r.fieldIndex("speed")), r.getDouble(r.fieldIndex("load"))};
        }
        double[] mean = m.predict(x).mean();
        double[] scored = rows.stream().mapToDouble(r -> r.getDouble(r.fieldIndex("mean"))).toArray();
        // other batches than one predict of all rows: float rounding of the products, about 1e-7 relative
        assertArrayEquals(mean, scored, 1e-5);
        assertEquals(2, rows.get(0).<Object>getList(rows.get(0).fieldIndex("quantiles")).size());

        Run bad = spark("score", "--master", "local[2]", "--model", model.toString(), "--input", trainCsv.toString(),
                "--output", out.toString(), "--partitions", "0");
        assertEquals(SparkMain.EXIT_BAD_INPUT, bad.exit());
        assertEquals("regheads-spark: --partitions must be >= 1, got 0", bad.err().strip());
    }
}
