package io.regheads.app.experiments;

import io.regheads.app.cli.HeadCatalog;
import io.regheads.app.experiments.bbob.BbobFunction;
import io.regheads.app.experiments.bbob.BbobInstance;
import io.regheads.core.data.Dataset;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Curve fitting of BBOB functions (Song and Bahri, "Decoding-based Regression", arXiv:2501.19383, Table 5 and Fig.
 * 12): for each function and input dimension D, x uniform on [-5, 5]^D, y = f(x) ({@link BbobInstance}, one seeded
 * instance per run), each head of the command line's catalog ({@link HeadCatalog}) trained on {@code trainRows}
 * rows through {@link RegressionModel} (x standardised, y min-max scaled on the training rows, early stopping on
 * 10% of them) and scored by Kendall's tau-b between its point prediction and y on {@code testRows} fresh rows.
 *
 * <p>Control: {@code shuffledTau}, the tau of the first head's predictions in a random order, what a model unrelated
 * to x scores (about 0, standard deviation {@code sqrt(2 (2n + 5) / (9 n (n - 1)))}, 0.02 for n = 2000).
 *
 * <p>Stateless; {@link #run} trains fresh models on the calling thread.
 */
public final class BbobExperiment {
    private BbobExperiment() {}

    /**
     * Settings.
     *
     * @param functions    functions
     * @param dimensions   input dimensions, each >= 2
     * @param heads        catalog head names, e.g. "unnormalized-decoder,decoder,pointwise,histogram"
     * @param trainRows    training rows (>= 20)
     * @param testRows     test rows (>= 10)
     * @param maxEpochs    epoch limit (early stopping usually ends sooner)
     * @param encoderWidth units of each of the 2 encoder layers
     * @param runs         instances (seeds) per point, averaged
     * @param seed         first seed
     */
    public record Config(List<BbobFunction> functions, List<Integer> dimensions, String heads, int trainRows, int testRows,
            int maxEpochs, int encoderWidth, int runs, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(functions != null && !functions.isEmpty(), "functions must not be empty");
            Checks.require(dimensions != null && !dimensions.isEmpty(), "dimensions must not be empty");
            for (int d : dimensions) {
                Checks.require(d >= 2 && d <= 100, "dimensions must be in 2..100, got %d", d);
            }
            HeadCatalog.standard().select(heads);
            Checks.atLeast("trainRows", trainRows, 20);
            Checks.atLeast("testRows", testRows, 10);
            Checks.atLeast("maxEpochs", maxEpochs, 1);
            Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
            Checks.atLeast("runs", runs, 1);
            functions = List.copyOf(functions);
            dimensions = List.copyOf(dimensions);
        }
    }

    /**
     * One (function, dimension, head) point.
     *
     * @param function     function label
     * @param dimension    D
     * @param head         catalog name
     * @param tau          mean Kendall tau over the runs
     * @param tauPerRun    per run
     * @param shuffledTau  mean tau of the shuffled control (the same for every head of the point)
     * @param trainSeconds total training wall time over the runs
     */
    public record Point(String function, int dimension, String head, double tau, double[] tauPerRun, double shuffledTau,
            double trainSeconds) {}

    /** All points, function by function, dimension by dimension, head by head. */
    public record Result(Config config, List<String> heads, List<Point> points) {
        /** Mean tau over the functions of one head at one dimension (the paper's Table 5 cell). */
        public double meanTau(String head, int dimension) {
            return points.stream().filter(p -> p.head().equals(head) && p.dimension() == dimension)
                    .mapToDouble(Point::tau).average().orElse(Double.NaN);
        }

        /**
         * Per run, the mean tau over the functions of one head at one dimension: the spread of the Table 5 cell
         * over runs (seeds).
         */
        public double[] meanTauPerRun(String head, int dimension) {
            List<Point> ps = points.stream().filter(p -> p.head().equals(head) && p.dimension() == dimension).toList();
            double[] out = new double[config.runs()];
            for (Point p : ps) {
                for (int run = 0; run < out.length; run++) {
                    out[run] += p.tauPerRun()[run] / ps.size();
                }
            }
            return out;
        }
    }

    /** n rows of x uniform on [-5, 5]^D and y = f(x). */
    public static Dataset sample(BbobInstance f, int n, UniformRandomProvider rng) {
        int d = f.dimension();
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = -5 + 10 * rng.nextDouble();
            }
            y[i] = f.value(x[i]);
        }
        return Dataset.of(x, y);
    }

    /** Trains and scores every head at every point. */
    public static Result run(Config c, Consumer<String> progress) {
        List<HeadCatalog.Preset> presets = HeadCatalog.standard().select(c.heads());
        List<Point> points = new ArrayList<>();
        for (BbobFunction f : c.functions()) {
            for (int d : c.dimensions()) {
                double[][] tau = new double[presets.size()][c.runs()];
                double[] secs = new double[presets.size()];
                double shuffled = 0;
                for (int run = 0; run < c.runs(); run++) {
                    long s = c.seed() + run;
                    BbobInstance inst = BbobInstance.random(f, d, s);
                    Dataset train = sample(inst, c.trainRows(), RandomSource.XO_RO_SHI_RO_128_PP.create(s * 31 + 1));
                    Dataset test = sample(inst, c.testRows(), RandomSource.XO_RO_SHI_RO_128_PP.create(s * 31 + 2));
                    for (int h = 0; h < presets.size(); h++) {
                        HeadSpec spec = presets.get(h).spec().get();
                        TrainerConfig t = Experiments.paperTrainer().withSeed(s).withMaxEpochs(c.maxEpochs());
                        RegressionModel m = RegressionModel.create(new ModelConfig(2, c.encoderWidth(), spec,
                                Experiments.PAPER_LOSS, t),
                                d);
                        long t0 = System.nanoTime();
                        m.fit(train);
                        double sec = (System.nanoTime() - t0) * 1e-9;
                        secs[h] += sec;
                        double[] point = m.predictPoint(test.x());
                        tau[h][run] = tau(point, test.y());
                        if (h == 0) {
                            shuffled += shuffledTau(point, test.y(), s) / c.runs();
                        }
                        progress.accept(String.format(Locale.ROOT, "%s D=%d run %d: %s tau %.3f (%.1f s)", f.label(), d,
                                run, presets.get(h).name(), tau[h][run], sec));
                    }
                }
                for (int h = 0; h < presets.size(); h++) {
                    points.add(new Point(f.label(), d, presets.get(h).name(), DensityExperiment.mean(tau[h]), tau[h],
                            shuffled, secs[h]));
                }
            }
        }
        return new Result(c, presets.stream().map(HeadCatalog.Preset::name).toList(), points);
    }

    /** Kendall's tau-b, or 0 when the predictions are all equal (no ranking at all). */
    static double tau(double[] point, double[] y) {
        for (double v : point) {
            if (v != point[0]) {
                return Metrics.kendallTau(point, y);
            }
        }
        return 0;
    }

    /** Kendall tau of {@code point} in a seeded random order against y. */
    static double shuffledTau(double[] point, double[] y, long seed) {
        int[] order = PermutationSampler.natural(point.length);
        PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(seed ^ 0x9E3779B97F4A7C15L), order);
        double[] p = new double[point.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = point[order[i]];
        }
        return tau(p, y);
    }
}
