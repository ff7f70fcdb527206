package io.regheads.bench;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.xval.XValSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * How far predictions of the same model file move with the batch layout and with OpenBLAS's kernel set: the figures
 * behind the determinism contract in the README. Three steps, each its own JVM:
 *
 * <pre>{@code
 * mvn -B -q -pl bench -am package -Pbenchmarks-jar -DskipTests; CP=bench/target/benchmarks.jar
 * java -cp "$CP" io.regheads.bench.DeterminismCheck train DIR          # fits 4 FLOAT models on synthetic data
 * OPENBLAS_CORETYPE=Zen java -cp "$CP" io.regheads.bench.DeterminismCheck predict DIR zen
 * OPENBLAS_CORETYPE=Sandybridge java -cp "$CP" io.regheads.bench.DeterminismCheck predict DIR sandybridge
 * java -cp "$CP" io.regheads.bench.DeterminismCheck compare DIR zen sandybridge
 * }</pre>
 *
 * <p>{@code predict} scores 256 rows as one batch and each row alone, prints the largest differences between the
 * two, and writes the batch's means and log densities; {@code compare} prints the largest differences between two
 * such runs (e.g. two kernel sets). Data: 4 standard normal features, {@code y = sin x0 + x1 x2 + 0.3 e} (y's
 * standard deviation about 1.3); 2000 training rows, 10 epochs, seed 2.
 */
public final class DeterminismCheck {
    private DeterminismCheck() {}

    private static Map<String, HeadSpec> heads() {
        Map<String, HeadSpec> h = new LinkedHashMap<>();
        h.put("pointwise", new PointwiseSpec(false));
        h.put("histogram", new HistogramSpec(64, true));
        h.put("mdn", new MixtureSpec(5));
        h.put("xval", new XValSpec(64, false));
        return h;
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: DeterminismCheck train DIR | predict DIR NAME | compare DIR A B");
        }
        Path dir = Path.of(args[1]);
        Random r = new Random(1);
        int n = 2000;
        double[][] x = new double[n][4];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 4; j++) {
                x[i][j] = r.nextGaussian();
            }
            y[i] = Math.sin(x[i][0]) + x[i][1] * x[i][2] + 0.3 * r.nextGaussian();
        }
        double[][] test = Arrays.copyOf(x, 256);
        double[] testY = Arrays.copyOf(y, 256);
        for (Map.Entry<String, HeadSpec> e : heads().entrySet()) {
            Path file = dir.resolve(e.getKey() + ".rgh");
            switch (args[0]) {
                case "train" -> {
                    Files.createDirectories(dir);
                    RegressionModel m = RegressionModel.create(new ModelConfig(2, 64, e.getValue(), null,
                            TrainerConfig.defaults().withMaxEpochs(10).withSeed(2)), 4);
                    m.fit(Dataset.of(x, y));
                    m.save(file);
                }
                case "predict" -> predict(RegressionModel.load(file), test, testY, e.getKey(),
                        dir.resolve(e.getKey() + "-" + args[2] + ".txt"));
                case "compare" -> compare(dir.resolve(e.getKey() + "-" + args[2] + ".txt"),
                        dir.resolve(e.getKey() + "-" + args[3] + ".txt"), e.getKey());
                default -> throw new IllegalArgumentException("unknown step " + args[0]);
            }
        }
    }

    private static void predict(RegressionModel m, double[][] x, double[] y, String name, Path out) throws IOException {
        PredictiveDistribution d = m.predict(x);
        double[] mean = d.mean();
        double[] logp = d.logDensity(y);
        double dMean = 0;
        double dLogp = 0;
        for (int i = 0; i < x.length; i++) {
            PredictiveDistribution one = m.predict(new double[][] {x[i]});
            dMean = Math.max(dMean, Math.abs(one.mean()[0] - mean[i]));
            dLogp = Math.max(dLogp, Math.abs(one.logDensity(new double[] {y[i]})[0] - logp[i]));
        }
        System.out.printf(Locale.ROOT, "%-9s a row alone vs in a batch of %d: mean %.2g, log density %.2g%n", name,
                x.length, dMean, dLogp);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            lines.add(mean[i] + "," + logp[i]);
        }
        Files.write(out, lines);
    }

    private static void compare(Path a, Path b, String name) throws IOException {
        List<String> la = Files.readAllLines(a);
        List<String> lb = Files.readAllLines(b);
        double dMean = 0;
        double dLogp = 0;
        for (int i = 0; i < la.size(); i++) {
            String[] ca = la.get(i).split(",");
            String[] cb = lb.get(i).split(",");
            dMean = Math.max(dMean, Math.abs(Double.parseDouble(ca[0]) - Double.parseDouble(cb[0])));
            dLogp = Math.max(dLogp, Math.abs(Double.parseDouble(ca[1]) - Double.parseDouble(cb[1])));
        }
        System.out.printf(Locale.ROOT, "%-9s %s vs %s: mean %.2g, log density %.2g%n", name, a.getFileName(),
                b.getFileName(), dMean, dLogp);
    }
}
