package io.regheads.app.experiments;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderSampling;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Density estimation of the decoding paper (Song and Bahri, "Decoding-based Regression", arXiv:2501.19383, Figs. 8
 * and 14): heads fitted to samples of a known conditional density p(y | x) on x in [-1, 1], then sampled, and their
 * samples compared with fresh samples of the truth.
 *
 * <p>Models, all through {@link RegressionModel} as a user trains them: the unnormalized decoder of the paper's
 * figures ({@link UnnormalizedTokenizer} base 10, E = 1, M = 5; one transformer block of 32 units; cross-entropy on
 * raw y, its exponent range fitted to the training targets), sampled by each {@link Variant} (plain temperature 1,
 * top-k, top-p, low temperature) through its token-level distribution ({@link ModelDecoders}), and the baselines:
 * mixture density
 * (10 components), Riemann histogram (64 bins on the training range) and pointwise (a Gaussian with the held-out
 * residual spread). All share an MLP encoder (2 ReLU layers of {@code encoderWidth}) and see the same training rows.
 *
 * <p>Distance: at {@code slices} fixed x values evenly spaced on [-0.9, 0.9], {@code samplesPerSlice} model samples
 * and as many fresh samples of the truth; per slice the 1-Wasserstein distance and the Kolmogorov-Smirnov statistic
 * ({@link SampleDistances}); reported: their means over the slices. The row {@code truth} compares two independent
 * truth samples of the same size, the floor a perfect model reaches.
 *
 * <p>Stateless; {@link #run} trains fresh models (not thread-safe: ND4J training on the calling thread).
 */
public final class DensityExperiment {
    private DensityExperiment() {}

    /** The conditional densities, x uniform on [-1, 1], e standard normal. */
    public enum Shape {
        /** y = s (0.5 + 0.5 x) + 0.05 e, s = +1 or -1 with equal odds: two branches that meet at x = -1. */
        BRANCHES("branches", "y = +-(0.5 + 0.5x) + 0.05e"),
        /** y = s sqrt(1 - x^2) + 0.05 e, s = +1 or -1: a noisy circle. */
        CIRCLE("circle", "y = +-sqrt(1 - x^2) + 0.05e"),
        /** y uniform on [-w, w], w = 0.2 + 0.6 |x|: a band with sharp edges whose width changes with x. */
        BAND("band", "y ~ U(-w, w), w = 0.2 + 0.6|x|"),
        /** y = 0.5 x + 0.3 g, g ~ Exponential(1): a skewed density with a sharp lower edge. */
        SKEWED("skewed", "y = 0.5x + 0.3 Exp(1)");

        private final String label;
        private final String formula;

        Shape(String label, String formula) {
            this.label = label;
            this.formula = formula;
        }

        /** Name on the command line and in tables. */
        public String label() {
            return label;
        }

        /** The generating formula, for titles. */
        public String formula() {
            return formula;
        }

        /** One draw of y given x. */
        public double sample(double x, UniformRandomProvider rng, ZigguratSampler.NormalizedGaussian normal) {
            return switch (this) {
                case BRANCHES -> (rng.nextBoolean() ? 1 : -1) * (0.5 + 0.5 * x) + 0.05 * normal.sample();
                case CIRCLE -> (rng.nextBoolean() ? 1 : -1) * Math.sqrt(Math.max(0, 1 - x * x)) + 0.05 * normal.sample();
                case BAND -> (0.2 + 0.6 * Math.abs(x)) * (2 * rng.nextDouble() - 1);
                case SKEWED -> 0.5 * x - 0.3 * Math.log(1 - rng.nextDouble());
            };
        }

        /** The shape with this label. @throws IllegalArgumentException if none */
        public static Shape of(String label) {
            for (Shape s : values()) {
                if (s.label.equals(label)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("shape must be one of branches, circle, band, skewed, got '" + label + "'");
        }
    }

    /**
     * How the decoder is sampled.
     *
     * @param name     for tables and legends
     * @param sampling temperature, top-k, top-p
     */
    public record Variant(String name, DecoderSampling.Settings sampling) {
        /** The paper's Fig. 14 set: temperature 1, top-k 3, top-p 0.8, temperature 0.5. */
        public static List<Variant> paper() {
            return List.of(new Variant("decoder T=1", DecoderSampling.Settings.plain()),
                    new Variant("decoder top-k 3", new DecoderSampling.Settings(1, 3, 1)),
                    new Variant("decoder top-p 0.8", new DecoderSampling.Settings(1, 0, 0.8)),
                    new Variant("decoder T=0.5", new DecoderSampling.Settings(0.5, 0, 1)));
        }
    }

    /**
     * Settings.
     *
     * @param shapes          the densities
     * @param trainRows       fresh training samples per shape (>= 20)
     * @param epochs          epochs over them (no validation split: the data are unlimited in kind)
     * @param learningRate    AdamW learning rate
     * @param encoderWidth    units of each of the 2 encoder layers
     * @param variants        decoder sampling variants (may be empty: then no decoder is trained)
     * @param baselines       baseline heads by name: "mdn", "histogram", "pointwise"
     * @param slices          x slices for the distances (>= 1)
     * @param samplesPerSlice samples per slice, model and truth alike (>= 10)
     * @param scatterPoints   random x values in the pictures (>= 1)
     * @param seed            data, initialisation and sampling seed
     */
    public record Config(List<Shape> shapes, int trainRows, int epochs, double learningRate, int encoderWidth,
            List<Variant> variants, List<String> baselines, int slices, int samplesPerSlice, int scatterPoints, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(shapes != null && !shapes.isEmpty(), "shapes must not be empty");
            Checks.atLeast("trainRows", trainRows, 20);
            Checks.atLeast("epochs", epochs, 1);
            Checks.positive("learningRate", learningRate);
            Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
            Checks.notNull("variants", variants);
            Checks.notNull("baselines", baselines);
            for (String b : baselines) {
                Checks.require(List.of("mdn", "histogram", "pointwise").contains(b),
                        "baselines must be mdn, histogram or pointwise, got '%s'", b);
            }
            Checks.atLeast("slices", slices, 1);
            Checks.atLeast("samplesPerSlice", samplesPerSlice, 10);
            Checks.atLeast("scatterPoints", scatterPoints, 1);
            shapes = List.copyOf(shapes);
            variants = List.copyOf(variants);
            baselines = List.copyOf(baselines);
        }
    }

    /**
     * One model on one shape.
     *
     * @param shape        shape label
     * @param model        "truth", a variant name or a baseline name
     * @param w1           mean over slices of the 1-Wasserstein distance to fresh truth samples (units of y)
     * @param ks           mean over slices of the Kolmogorov-Smirnov statistic
     * @param w1PerSlice   per slice
     * @param ksPerSlice   per slice
     * @param trainSeconds wall time of training (0 for the truth and for variants after the first)
     * @param scatterX     x of the picture's points
     * @param scatterY     one model sample per x
     */
    public record Row(String shape, String model, double w1, double ks, double[] w1PerSlice, double[] ksPerSlice,
            double trainSeconds, double[] scatterX, double[] scatterY) {}

    /** All rows, shape by shape, truth first; and the x of the slices. */
    public record Result(Config config, double[] sliceX, List<Row> rows) {}

    /** The x of the slices: evenly spaced on [-0.9, 0.9] (0 for a single slice). */
    static double[] sliceX(int slices) {
        double[] x = new double[slices];
        for (int j = 0; j < slices; j++) {
            x[j] = slices == 1 ? 0 : -0.9 + 1.8 * j / (slices - 1);
        }
        return x;
    }

    /** n rows of a shape, x uniform on [-1, 1]. */
    public static Dataset sample(Shape shape, int n, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = -1 + 2 * rng.nextDouble();
            y[i] = shape.sample(x[i][0], rng, normal);
        }
        return Dataset.of(x, y, List.of("x"), "y");
    }

    /** Truth samples {@code [n][slices]} at the given x. */
    static double[][] truthAt(Shape shape, double[] xs, int n, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] out = new double[n][xs.length];
        for (int k = 0; k < n; k++) {
            for (int j = 0; j < xs.length; j++) {
                out[k][j] = shape.sample(xs[j], rng, normal);
            }
        }
        return out;
    }

    /** Column j of {@code [n][S]}. */
    static double[] column(double[][] draws, int j) {
        double[] c = new double[draws.length];
        for (int k = 0; k < draws.length; k++) {
            c[k] = draws[k][j];
        }
        return c;
    }

    private static double[][] asRows(double[] x) {
        double[][] r = new double[x.length][1];
        for (int i = 0; i < x.length; i++) {
            r[i][0] = x[i];
        }
        return r;
    }

    /**
     * Trains every model on every shape and measures the distances.
     *
     * @param progress receives one line per trained model
     */
    public static Result run(Config c, Consumer<String> progress) {
        double[] xs = sliceX(c.slices());
        List<Row> rows = new ArrayList<>();
        TrainerConfig trainer = Experiments.paperTrainer().withSeed(c.seed()).withMaxEpochs(c.epochs())
                .withLearningRate(c.learningRate()).withValidationFraction(0);
        for (Shape shape : c.shapes()) {
            long s0 = c.seed() * 1_000_003L + shape.ordinal() * 101L;
            Dataset train = sample(shape, c.trainRows(), RandomSource.XO_RO_SHI_RO_128_PP.create(s0));
            double[][] truth = truthAt(shape, xs, c.samplesPerSlice(), RandomSource.XO_RO_SHI_RO_128_PP.create(s0 + 1));
            double[] px = new double[c.scatterPoints()];
            UniformRandomProvider prng = RandomSource.XO_RO_SHI_RO_128_PP.create(s0 + 2);
            for (int i = 0; i < px.length; i++) {
                px[i] = -1 + 2 * prng.nextDouble();
            }
            double[] py = new double[px.length];
            ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(prng);
            for (int i = 0; i < px.length; i++) {
                py[i] = shape.sample(px[i], prng, normal);
            }
            double[][] truth2 = truthAt(shape, xs, c.samplesPerSlice(), RandomSource.XO_RO_SHI_RO_128_PP.create(s0 + 3));
            rows.add(row(shape, "truth", truth2, truth, 0, px, py));
            if (!c.variants().isEmpty()) {
                RegressionModel net = RegressionModel.create(new ModelConfig(2, c.encoderWidth(), decoder(), null,
                        trainer), 1);
                long t0 = System.nanoTime();
                net.fit(train);
                double secs = (System.nanoTime() - t0) * 1e-9;
                progress.accept(String.format(Locale.ROOT, "%s: unnormalized decoder trained in %.1f s (%s)",
                        shape.label(), secs, net.config().head()));
                DecoderDistribution atSlices = ModelDecoders.of(net, asRows(xs));
                DecoderDistribution atPoints = ModelDecoders.of(net, asRows(px));
                for (int v = 0; v < c.variants().size(); v++) {
                    Variant variant = c.variants().get(v);
                    UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(s0 + 10 + v);
                    double[][] draws = atSlices.sampling().sampleValues(rng, c.samplesPerSlice(), variant.sampling());
                    double[] scatter = atPoints.sampling().sampleValues(rng, 1, variant.sampling())[0];
                    rows.add(row(shape, variant.name(), draws, truth, v == 0 ? secs : 0, px, scatter));
                }
            }
            for (int b = 0; b < c.baselines().size(); b++) {
                String name = c.baselines().get(b);
                RegressionModel m = RegressionModel.create(new ModelConfig(2, c.encoderWidth(), baseline(name),
                        Experiments.PAPER_LOSS, trainer), 1);
                long t0 = System.nanoTime();
                m.fit(train);
                double secs = (System.nanoTime() - t0) * 1e-9;
                progress.accept(String.format(Locale.ROOT, "%s: %s trained in %.1f s", shape.label(), name, secs));
                UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(s0 + 20 + b);
                double[][] draws = m.predict(asRows(xs)).sample(rng, c.samplesPerSlice());
                PredictiveDistribution atPoints = m.predict(asRows(px));
                double[] scatter = atPoints.sample(rng, 1)[0];
                rows.add(row(shape, name, draws, truth, secs, px, scatter));
            }
        }
        return new Result(c, xs, rows);
    }

    /**
     * The paper's unnormalized decoder (B = 10, E = 1, M = 5, one block of 32 units) as a user gets it: raw y, the
     * exponent range fitted to the training targets when the model is fitted.
     */
    static UnnormalizedDecoderSpec decoder() {
        return UnnormalizedDecoderSpec.small(10, 1, 5);
    }

    static HeadSpec baseline(String name) {
        return switch (name) {
            case "mdn" -> new MixtureSpec(10);
            case "histogram" -> new HistogramSpec(64, false);
            default -> new PointwiseSpec(false);
        };
    }

    private static Row row(Shape shape, String model, double[][] draws, double[][] truth, double secs, double[] px,
            double[] py) {
        int slices = truth[0].length;
        double[] w1 = new double[slices];
        double[] ks = new double[slices];
        for (int j = 0; j < slices; j++) {
            double[] a = column(draws, j);
            double[] b = column(truth, j);
            w1[j] = SampleDistances.wasserstein1(a, b);
            ks[j] = SampleDistances.kolmogorovSmirnov(a, b);
        }
        return new Row(shape.label(), model, mean(w1), mean(ks), w1, ks, secs, px, py);
    }

    static double mean(double[] v) {
        double s = 0;
        for (double e : v) {
            s += e;
        }
        return s / v.length;
    }
}
