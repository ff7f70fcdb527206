package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Data efficiency of the decoding paper (Song and Bahri, "Decoding-based Regression", arXiv:2501.19383, Figs. 7 and
 * 11): relative MSE on held-out rows as the training set grows, for
 * <ul>
 *   <li>{@code decoder}: the normalized decoder (base 10, 3 digits, one block of 32 units), point prediction = mean;</li>
 *   <li>{@code histogram}: the Riemann head with 100 equal bins, mean;</li>
 *   <li>{@code pointwise-sigmoid}: the pointwise head with a sigmoid on its output (the paper needed it: without it,
 *       undertrained small-data runs gave extremely high MSE).</li>
 * </ul>
 * Every head goes through {@code RegressionModel} (x standardised and y min-max scaled on the training rows, AdamW,
 * early stopping with patience 5 on 10% of them). Test rows: fold 0 of the dataset's split (at most {@code
 * testRows} of them, a seeded choice); training rows: for each run a seeded random subset of size n of the other
 * folds, the subsets of one run nested (the first n of one permutation). Relative MSE = {@code mse / var(y_test)}
 * ({@link Metrics#relativeMse}): 1 is the score of predicting the test mean.
 *
 * <p>Stateless; {@link #run} trains fresh models on the calling thread.
 */
public final class DataEfficiencyExperiment {
    private DataEfficiencyExperiment() {}

    /** Head names, in table order. */
    public static final List<String> HEADS = List.of("decoder", "histogram", "pointwise-sigmoid");

    /**
     * Settings.
     *
     * @param datasets     the data
     * @param sizes        training-set sizes (each >= 2), ascending
     * @param heads        a subset of {@link #HEADS}
     * @param testRows     most test rows used
     * @param maxEpochs    epoch limit
     * @param encoderWidth units of each of the 2 encoder layers
     * @param runs         random subsets per size, averaged
     * @param seed         first seed
     */
    public record Config(List<InputData> datasets, List<Integer> sizes, List<String> heads, int testRows, int maxEpochs,
            int encoderWidth, int runs, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(datasets != null && !datasets.isEmpty(), "datasets must not be empty");
            Checks.require(sizes != null && !sizes.isEmpty(), "sizes must not be empty");
            for (int i = 0; i < sizes.size(); i++) {
                Checks.require(sizes.get(i) >= 2 && (i == 0 || sizes.get(i) > sizes.get(i - 1)),
                        "sizes must be >= 2 and ascending, got %s", sizes);
            }
            Checks.require(heads != null && !heads.isEmpty(), "heads must not be empty");
            for (String h : heads) {
                Checks.require(HEADS.contains(h), "heads must be among %s, got '%s'", HEADS, h);
            }
            Checks.atLeast("testRows", testRows, 2);
            Checks.atLeast("maxEpochs", maxEpochs, 1);
            Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
            Checks.atLeast("runs", runs, 1);
            datasets = List.copyOf(datasets);
            sizes = List.copyOf(sizes);
            heads = List.copyOf(heads);
        }
    }

    /**
     * One (dataset, size, head) point.
     *
     * @param dataset     label
     * @param size        training rows n (sizes above the dataset's training rows are left out)
     * @param head        head name
     * @param relativeMse mean over runs
     * @param perRun      per run
     */
    public record Point(String dataset, int size, String head, double relativeMse, double[] perRun) {}

    /** Every point; sizes larger than a dataset's training pool are absent for that dataset. */
    public record Result(Config config, List<Point> points) {}

    static HeadSpec spec(String head) {
        return switch (head) {
            case "decoder" -> DecoderSpec.small(10, 3);
            case "histogram" -> new HistogramSpec(100, false);
            default -> new PointwiseSpec(true);
        };
    }

    /** Trains every head on every subset. */
    public static Result run(Config c, Consumer<String> progress) {
        List<Point> points = new ArrayList<>();
        for (InputData in : c.datasets()) {
            Folds.Split split = in.folds().split(in.data(), 0);
            Dataset pool = split.train();
            Dataset test = split.test();
            if (test.rows() > c.testRows()) {
                int[] order = PermutationSampler.natural(test.rows());
                PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(c.seed() ^ 0xC0FFEEL), order);
                test = test.subset(order, 0, c.testRows());
            }
            double[][] rel = new double[c.sizes().size() * c.heads().size()][c.runs()];
            for (int run = 0; run < c.runs(); run++) {
                long s = c.seed() + run;
                int[] order = PermutationSampler.natural(pool.rows());
                PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(s * 131 + 7), order);
                for (int k = 0; k < c.sizes().size(); k++) {
                    int n = c.sizes().get(k);
                    if (n > pool.rows()) {
                        continue;
                    }
                    Dataset train = pool.subset(order, 0, n);
                    for (int h = 0; h < c.heads().size(); h++) {
                        TrainerConfig t = Experiments.paperTrainer().withSeed(s).withMaxEpochs(c.maxEpochs());
                        RegressionModel m = RegressionModel.create(new ModelConfig(2, c.encoderWidth(),
                                spec(c.heads().get(h)), Experiments.PAPER_LOSS, t), pool.features());
                        long t0 = System.nanoTime();
                        m.fit(train);
                        double[] p = m.predictPoint(test.x());
                        double v = Metrics.relativeMse(p, test.y());
                        rel[k * c.heads().size() + h][run] = v;
                        progress.accept(String.format(Locale.ROOT, "%s n=%d run %d: %s relative MSE %.4f (%.1f s)",
                                in.label(), n, run, c.heads().get(h), v, (System.nanoTime() - t0) * 1e-9));
                    }
                }
            }
            for (int k = 0; k < c.sizes().size() && c.sizes().get(k) <= pool.rows(); k++) {
                for (int h = 0; h < c.heads().size(); h++) {
                    double[] v = rel[k * c.heads().size() + h];
                    points.add(new Point(in.label(), c.sizes().get(k), c.heads().get(h), DensityExperiment.mean(v), v));
                }
            }
        }
        return new Result(c, points);
    }
}
