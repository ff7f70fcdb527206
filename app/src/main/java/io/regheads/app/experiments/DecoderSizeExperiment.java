package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Decoder-size ablation of the decoding paper (Song and Bahri, "Decoding-based Regression", arXiv:2501.19383, Fig.
 * 9): the normalized decoder over base-10, K = 4 tokens, its transformer varied along one axis at a time from a
 * base size (the paper's: 3 layers, 4 heads, 128 units; MLP width 4 x units, GELU): layers, attention heads, units. Each size is
 * trained through {@code RegressionModel} (2-layer ReLU encoder, x standardised, y min-max scaled on the training
 * rows, AdamW with early stopping) on the training folds and scored by the test NLL of y01 (y min-max scaled with the
 * training rows' min and max, test values clipped into [0, 1 - 1e-7], as the {@code compare} command does) on each
 * chosen test fold, once per seed (runs): a point's figure is the mean over every fold and seed, with the sample
 * standard deviation beside it.
 *
 * <p>Stateless; {@link #run} trains on the calling thread.
 */
public final class DecoderSizeExperiment {
    private DecoderSizeExperiment() {}

    /** The default size (layers, heads, units) the axes vary from. */
    public static final Size DEFAULT = new Size(3, 4, 128);

    /**
     * A decoder size.
     *
     * @param layers transformer blocks (>= 1)
     * @param heads  attention heads (>= 1, dividing units)
     * @param units  model width d (MLP width 4 d)
     */
    public record Size(int layers, int heads, int units) {
        /** @throws IllegalArgumentException when a size is invalid */
        public Size {
            Checks.atLeast("layers", layers, 1);
            Checks.atLeast("heads", heads, 1);
            Checks.atLeast("units", units, 1);
            Checks.require(units % heads == 0, "units must be a multiple of heads, got %d units and %d heads", units, heads);
        }

        /** The head specification: base 10, 4 digits. */
        public DecoderSpec spec() {
            return new DecoderSpec(10, 4, units, heads, 4 * units, layers);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "(%d, %d, %d)", layers, heads, units);
        }
    }

    /**
     * Settings.
     *
     * @param datasets     the data
     * @param folds        test folds per dataset
     * @param base         the size the axes vary from (the paper's: {@link #DEFAULT})
     * @param layers       values of the layers axis
     * @param heads        values of the heads axis
     * @param units        values of the units axis
     * @param maxEpochs    epoch limit (early stopping, patience 5, on 10% of the training rows)
     * @param encoderWidth units of each of the 2 encoder layers
     * @param runs         trainings per size and fold, seeds {@code seed .. seed + runs - 1}
     * @param seed         first seed
     */
    public record Config(List<InputData> datasets, int[] folds, Size base, List<Integer> layers, List<Integer> heads,
            List<Integer> units, int maxEpochs, int encoderWidth, int runs, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(datasets != null && !datasets.isEmpty(), "datasets must not be empty");
            Checks.require(folds != null && folds.length > 0, "folds must not be empty");
            Checks.notNull("base", base);
            Checks.require(layers != null && heads != null && units != null, "axes must not be null");
            Checks.atLeast("maxEpochs", maxEpochs, 1);
            Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
            Checks.inRange("runs", runs, 1, 100);
            datasets = List.copyOf(datasets);
            folds = folds.clone();
            layers = List.copyOf(layers);
            heads = List.copyOf(heads);
            units = List.copyOf(units);
        }

        /** Every distinct size: the base, then each axis's values in order. */
        public List<Size> sizes() {
            List<Size> out = new ArrayList<>();
            out.add(base);
            for (int v : layers) {
                add(out, new Size(v, base.heads(), base.units()));
            }
            for (int v : heads) {
                add(out, new Size(base.layers(), v, base.units()));
            }
            for (int v : units) {
                add(out, new Size(base.layers(), base.heads(), v));
            }
            return out;
        }

        private static void add(List<Size> list, Size s) {
            if (!list.contains(s)) {
                list.add(s);
            }
        }
    }

    /**
     * One size on one dataset.
     *
     * @param dataset      label
     * @param size         the size
     * @param headParams   trainable scalars of the decoder head
     * @param nll          mean test NLL of y01 over the folds and runs
     * @param sd           sample standard deviation over the folds and runs (0 for a single training)
     * @param perRun       every training's NLL, fold by fold, the runs of a fold in seed order
     * @param trainSeconds total training time
     */
    public record Point(String dataset, Size size, long headParams, double nll, double sd, double[] perRun,
            double trainSeconds) {}

    /** Every point. */
    public record Result(Config config, List<Point> points) {}

    /** Trains every size on every dataset and fold. */
    public static Result run(Config c, Consumer<String> progress) {
        List<Point> points = new ArrayList<>();
        for (InputData in : c.datasets()) {
            for (Size size : c.sizes()) {
                double[] nll = new double[c.folds().length * c.runs()];
                double secs = 0;
                long params = 0;
                for (int k = 0; k < c.folds().length; k++) {
                    Folds.Split split = in.folds().split(in.data(), c.folds()[k]);
                    for (int run = 0; run < c.runs(); run++) {
                        long seed = c.seed() + run;
                        TrainerConfig t = Experiments.paperTrainer().withSeed(seed).withMaxEpochs(c.maxEpochs());
                        RegressionModel m = RegressionModel.create(new ModelConfig(2, c.encoderWidth(), size.spec(),
                                Experiments.PAPER_LOSS, t),
                                split.train().features());
                        params = 0;
                        for (Param p : m.head().params()) {
                            params += p.value().length();
                        }
                        long t0 = System.nanoTime();
                        m.fit(split.train());
                        double s = (System.nanoTime() - t0) * 1e-9;
                        secs += s;
                        int at = k * c.runs() + run;
                        nll[at] = nll01(m, split.test());
                        progress.accept(String.format(Locale.ROOT, "%s fold %d seed %d: decoder %s NLL %.4f (%.1f s)",
                                in.label(), c.folds()[k], seed, size, nll[at], s));
                    }
                }
                double[] ms = Experiments.meanStd(nll);
                points.add(new Point(in.label(), size, params, ms[0], ms[1], nll, secs));
            }
        }
        return new Result(c, points);
    }

    /** Mean NLL of y01 = (y - min) / (max - min) (training min and max), clipped into [0, 1 - 1e-7]. */
    static double nll01(RegressionModel m, Dataset test) {
        MinMaxScaler ys = m.yScaler();
        double[] y01 = ys.transform(test.y());
        for (int i = 0; i < y01.length; i++) {
            y01[i] = Math.min(Math.max(y01[i], 0), 1 - 1e-7);
        }
        return Metrics.meanNll(m.predictUnit(test.x()).logDensity(y01));
    }
}
