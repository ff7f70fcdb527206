package io.regheads.app.experiments;

import io.regheads.core.data.Dataset;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Curve fitting of the decoding paper (Song and Bahri, "Decoding-based Regression", arXiv:2501.19383, Fig. 4):
 * noise-free 1-D functions on x uniform in [-1, 1], fitted with plenty of fresh samples by
 * <ul>
 *   <li>{@code unnormalized-decoder}: sign/exponent/mantissa tokens (base 10, E = 1, M = 4) of <b>raw</b> y, no
 *       y scaling at all, the exponent range fitted to the training targets, point prediction = the head's default
 *       (the certified mean, else the tree-walk median);</li>
 *   <li>{@code decoder}: normalized base-10 decoder, 4 digits of y min-max scaled on the training rows, point
 *       prediction = mean;</li>
 *   <li>{@code pointwise}: one linear output on the min-max scaled y, MSE.</li>
 * </ul>
 * All through {@link RegressionModel}, as a user trains them ({@link #spec}), with one transformer block of 32 units
 * (decoders) over the same 2-layer ReLU encoder. Scored on 1000 evenly
 * spaced x by the relative MSE ({@code mse / var(y)}) and the median relative error {@code median |yhat - y| /
 * max(|y|, 1e-3 max|y|)}, which sees the small values that a min-max scaled head rounds away.
 *
 * <p>Stateless; {@link #run} trains fresh models on the calling thread.
 */
public final class CurveFitExperiment {
    private CurveFitExperiment() {}

    /** The functions. */
    public enum Function {
        /** y = exp(8x): four decades of y (3.4e-4 to 2981). */
        EXP("exp", "y = exp(8x)", x -> Math.exp(8 * x), true),
        /** y = 1 / (0.01 + x^2): a sharp peak of 100 over a floor near 1. */
        SPIKE("spike", "y = 1/(0.01 + x^2)", x -> 1 / (0.01 + x * x), true),
        /** y = floor(5x): jumps of 1. */
        STEPS("steps", "y = floor(5x)", x -> Math.floor(5 * x), false),
        /** y = sin(15x): a large Lipschitz constant. */
        FAST_SINE("fast-sine", "y = sin(15x)", x -> Math.sin(15 * x), false);

        private final String label;
        private final String formula;
        private final DoubleUnaryOperator f;
        private final boolean logScale;

        Function(String label, String formula, DoubleUnaryOperator f, boolean logScale) {
            this.label = label;
            this.formula = formula;
            this.f = f;
            this.logScale = logScale;
        }

        /** Name on the command line. */
        public String label() {
            return label;
        }

        /** The formula, for titles. */
        public String formula() {
            return formula;
        }

        /** Whether the picture uses a log y axis (positive functions spanning decades). */
        public boolean logScale() {
            return logScale;
        }

        /** f(x). */
        public double value(double x) {
            return f.applyAsDouble(x);
        }

        /** The function with this label. @throws IllegalArgumentException if none */
        public static Function of(String label) {
            for (Function v : values()) {
                if (v.label.equals(label)) {
                    return v;
                }
            }
            throw new IllegalArgumentException("function must be one of exp, spike, steps, fast-sine, got '" + label + "'");
        }
    }

    /** The heads compared, in table order. */
    public static final List<String> HEADS = List.of("unnormalized-decoder", "decoder", "pointwise");

    /**
     * Settings.
     *
     * @param functions    the functions
     * @param heads        a subset of {@link #HEADS}
     * @param trainRows    fresh training samples (>= 20)
     * @param epochs       epochs over them (no validation split)
     * @param learningRate AdamW learning rate
     * @param encoderWidth units of each of the 2 encoder layers
     * @param seed         data and initialisation seed
     */
    public record Config(List<Function> functions, List<String> heads, int trainRows, int epochs, double learningRate,
            int encoderWidth, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(functions != null && !functions.isEmpty(), "functions must not be empty");
            Checks.require(heads != null && !heads.isEmpty(), "heads must not be empty");
            for (String h : heads) {
                Checks.require(HEADS.contains(h), "heads must be among %s, got '%s'", HEADS, h);
            }
            Checks.atLeast("trainRows", trainRows, 20);
            Checks.atLeast("epochs", epochs, 1);
            Checks.positive("learningRate", learningRate);
            Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
            functions = List.copyOf(functions);
            heads = List.copyOf(heads);
        }
    }

    /**
     * One head on one function.
     *
     * @param function     label
     * @param head         head name
     * @param relativeMse  mse / var(y) on the grid
     * @param medianRelErr median relative error on the grid
     * @param trainSeconds wall time of training
     * @param prediction   point prediction on {@link Result#grid()}
     */
    public record Fit(String function, String head, double relativeMse, double medianRelErr, double trainSeconds,
            double[] prediction) {}

    /** The evaluation grid and every fit. */
    public record Result(Config config, double[] grid, List<Fit> fits) {}

    /** n rows, x uniform on [-1, 1], y = f(x). */
    public static Dataset sample(Function f, int n, UniformRandomProvider rng) {
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = -1 + 2 * rng.nextDouble();
            y[i] = f.value(x[i][0]);
        }
        return Dataset.of(x, y, List.of("x"), "y");
    }

    /** Median of {@code |p - y| / max(|y|, 1e-3 max|y|)}. */
    public static double medianRelativeError(double[] p, double[] y) {
        double top = 0;
        for (double v : y) {
            top = Math.max(top, Math.abs(v));
        }
        double[] r = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            r[i] = Math.abs(p[i] - y[i]) / Math.max(Math.abs(y[i]), 1e-3 * top);
        }
        Arrays.sort(r);
        int n = r.length;
        return n % 2 == 1 ? r[n / 2] : 0.5 * (r[n / 2 - 1] + r[n / 2]);
    }

    /**
     * The head as a user gets it: the unnormalized decoder on raw y (base 10, E = 1, M = 4, its exponent range
     * fitted to the training targets, point = the certified mean, else the median), the normalized decoder (base 10,
     * 4 digits, y min-max scaled) or the pointwise head.
     */
    static HeadSpec spec(String head) {
        return switch (head) {
            case "unnormalized-decoder" -> UnnormalizedDecoderSpec.small(10, 1, 4);
            case "decoder" -> DecoderSpec.small(10, 4);
            default -> new PointwiseSpec(false);
        };
    }

    /** Trains every head on every function. */
    public static Result run(Config c, Consumer<String> progress) {
        int points = 1000;
        double[] grid = new double[points];
        double[][] gx = new double[points][1];
        for (int i = 0; i < points; i++) {
            grid[i] = -1 + 2.0 * i / (points - 1);
            gx[i][0] = grid[i];
        }
        TrainerConfig trainer = Experiments.paperTrainer().withSeed(c.seed()).withMaxEpochs(c.epochs())
                .withLearningRate(c.learningRate()).withValidationFraction(0);
        List<Fit> fits = new ArrayList<>();
        for (Function f : c.functions()) {
            Dataset train = sample(f, c.trainRows(), RandomSource.XO_RO_SHI_RO_128_PP.create(c.seed() * 1009 + f.ordinal()));
            double[] truth = Arrays.stream(grid).map(f::value).toArray();
            for (String head : c.heads()) {
                long t0 = System.nanoTime();
                RegressionModel m = RegressionModel.create(new ModelConfig(2, c.encoderWidth(), spec(head), Experiments.PAPER_LOSS,
                        trainer), 1);
                m.fit(train);
                double[] pred = m.predictPoint(gx);
                double secs = (System.nanoTime() - t0) * 1e-9;
                Fit fit = new Fit(f.label(), head, Metrics.relativeMse(pred, truth), medianRelativeError(pred, truth), secs,
                        pred);
                progress.accept(String.format(Locale.ROOT, "%s: %s relative MSE %.4g, median relative error %.4g (%.1f s)",
                        f.label(), head, fit.relativeMse(), fit.medianRelErr(), secs));
                fits.add(fit);
            }
        }
        return new Result(c, grid, fits);
    }
}
