package io.regheads.heads.model;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.internal.Checks;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.heads.decoder.DecoderConfig;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.histogram.HistogramHead;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.pointwise.PointwiseHead;
import io.regheads.tokenizers.NormalizedConfig;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.UnnormalizedConfig;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Which head a {@link RegressionModel} uses, with its own settings; the model supplies the input width, the seed
 * and the data type.
 *
 * <p>Each head also fixes the units it is trained in: histogram heads see {@code y01 = (y - min) / (max - min)}
 * in [0, 1] (train min and max); pointwise and mixture heads see {@code y01 - 0.5} (DESIGN.md section 3).
 *
 * <p>Each head also names its point prediction ({@link #pointEstimate()}): the predictive mean, except for the
 * unnormalized decoder, whose exact mean is slow and dominated by rare huge-exponent sequences, so its point
 * prediction is the median (tree walk).
 */
public sealed interface HeadSpec permits HeadSpec.Pointwise, HeadSpec.Histogram, HeadSpec.Mixture, HeadSpec.Decoder,
        HeadSpec.UnnormalizedDecoder {

    /** Which summary of the predictive distribution serves as the head's point prediction. */
    enum PointEstimate {
        /** {@link PredictiveDistribution#mean()}. */
        MEAN,
        /** {@link PredictiveDistribution#median()}. */
        MEDIAN
    }

    /** The point prediction this head reports (RMSE and Kendall tau in the command line use it): MEAN by default. */
    default PointEstimate pointEstimate() {
        return PointEstimate.MEAN;
    }

    /**
     * The point prediction of {@code d} per row, as {@link #pointEstimate()} says: {@code d.mean()} or
     * {@code d.median()}.
     *
     * @throws IllegalArgumentException if d is null
     */
    default double[] point(PredictiveDistribution d) {
        Checks.notNull("d", d);
        return pointEstimate() == PointEstimate.MEDIAN ? d.median() : d.mean();
    }

    /** Builds a fresh head. */
    RegressionHead build(int inputWidth, long seed, DataType type);

    /** The offset subtracted from y01 before the head sees it: 0 or 0.5. */
    double centre();

    /** The loss this head trains with unless told otherwise. */
    String defaultLoss();

    /** A short name for tables: "pointwise", "histogram", "mdn". */
    String name();

    /** Pointwise head (MSE on y01 - 0.5), optionally with a sigmoid. */
    record Pointwise(boolean sigmoid) implements HeadSpec {
        @Override
        public RegressionHead build(int inputWidth, long seed, DataType type) {
            return new PointwiseHead(new PointwiseHead.Config(inputWidth, sigmoid, seed), type);
        }

        @Override
        public double centre() {
            return sigmoid ? 0 : 0.5;
        }

        @Override
        public String defaultLoss() {
            return "mse";
        }

        @Override
        public String name() {
            return "pointwise";
        }
    }

    /** Histogram head over {@code bins} equal bins on [0, 1] (optionally with half-normal tails). */
    record Histogram(int bins, boolean tails) implements HeadSpec {
        public Histogram {
            Checks.atLeast("bins", bins, tails ? 2 : 1);
        }

        @Override
        public RegressionHead build(int inputWidth, long seed, DataType type) {
            return new HistogramHead(
                    new HistogramHead.Config(inputWidth, HistogramDistribution.equalBorders(bins, 0, 1), tails, seed), type);
        }

        @Override
        public double centre() {
            return 0;
        }

        @Override
        public String defaultLoss() {
            return "ce";
        }

        @Override
        public String name() {
            return "histogram";
        }
    }

    /** Mixture density head with K components (NLL on y01 - 0.5). */
    record Mixture(int components) implements HeadSpec {
        public Mixture {
            Checks.atLeast("components", components, 1);
        }

        @Override
        public RegressionHead build(int inputWidth, long seed, DataType type) {
            return new MixtureHead(new MixtureHead.Config(inputWidth, components, seed), type);
        }

        @Override
        public double centre() {
            return 0.5;
        }

        @Override
        public String defaultLoss() {
            return "ce";
        }

        @Override
        public String name() {
            return "mdn";
        }
    }

    /**
     * Normalized transformer decoder ({@link DecoderHead}) over {@code length} base-{@code base} digits of y01 in
     * [0, 1] (centre 0), with {@code layers} pre-LN blocks of width d, the given attention heads and MLP width.
     * The blocks' MLP activation is GELU unless given; the PyTorch peer's decoder is {@link #peer()}: {@code new
     * Decoder(10, 4, 32, 1, 128, 1, Activation.RELU)}.
     */
    record Decoder(int base, int length, int d, int heads, int ff, int layers, TransformerBlock.Activation activation)
            implements HeadSpec {
        public Decoder {
            new NormalizedConfig(base, length); // validates base and length
            new TransformerBlock.Config(d, heads, ff, activation); // validates the block sizes and the activation
            Checks.atLeast("layers", layers, 1);
        }

        /** GELU blocks. */
        public Decoder(int base, int length, int d, int heads, int ff, int layers) {
            this(base, length, d, heads, ff, layers, TransformerBlock.Activation.GELU);
        }

        /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128, GELU). */
        public static Decoder small(int base, int length) {
            return new Decoder(base, length, 32, 1, 128, 1);
        }

        /** The PyTorch peer's decoder: base 10, 4 digits, 1 layer of 32 units, 1 head, ff 128, ReLU MLP. */
        public static Decoder peer() {
            return new Decoder(10, 4, 32, 1, 128, 1, TransformerBlock.Activation.RELU);
        }

        @Override
        public RegressionHead build(int inputWidth, long seed, DataType type) {
            return new DecoderHead(new DecoderConfig(new NormalizedTokenizer(new NormalizedConfig(base, length)), inputWidth,
                    new TransformerBlock.Config(d, heads, ff, activation), layers, seed), type);
        }

        @Override
        public double centre() {
            return 0;
        }

        @Override
        public String defaultLoss() {
            return "ce";
        }

        @Override
        public String name() {
            return "decoder";
        }
    }

    /**
     * Unnormalized transformer decoder ({@link DecoderHead} over an {@link UnnormalizedTokenizer}): y01 (the
     * min-max scaled target, centre 0) spelled as sign, exponent sign, {@code exponentDigits} exponent digits and
     * {@code mantissaDigits} mantissa digits in base {@code base}, e.g. base 10, E=1, M=3: {@code 0.123 -> + - 1 1 2
     * 3}, T = 6, V = 12. Same transformer sizes as {@link Decoder}.
     *
     * <p>Point prediction: the median ({@link PointEstimate#MEDIAN}), from the tree walk of {@code
     * DecoderDistribution} (T decoder steps); the exact mean enumerates every valid sequence per row (about 36 000
     * for base 10, E=1, M=3) and a trained model's small mass on exponents up to 9 makes it an unstable prediction.
     *
     * @throws IllegalArgumentException if the tokenizer or block sizes are invalid ({@link UnnormalizedConfig},
     *                                  {@link TransformerBlock.Config}) or layers < 1
     */
    record UnnormalizedDecoder(int base, int exponentDigits, int mantissaDigits, int d, int heads, int ff, int layers)
            implements HeadSpec {
        public UnnormalizedDecoder {
            new UnnormalizedConfig(base, exponentDigits, mantissaDigits, false); // validates the tokenizer sizes
            new TransformerBlock.Config(d, heads, ff); // validates the block sizes
            Checks.atLeast("layers", layers, 1);
        }

        /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128) over the given tokenizer sizes. */
        public static UnnormalizedDecoder small(int base, int exponentDigits, int mantissaDigits) {
            return new UnnormalizedDecoder(base, exponentDigits, mantissaDigits, 32, 1, 128, 1);
        }

        /**
         * The tokenizer this head spells y01 with: the masks allow exponents up to 0 and no {@code -} sign, the range
         * of y01 in [0, 1] (values up to {@code B - B^(1-M)} stay representable). With every exponent up to
         * {@code B^E - 1} allowed, a trained model left a few percent of its mass on the exponent branches no target
         * visits (values up to 1e9 times the range): on housing (fold 0, where 4% of the targets sit at the maximum,
         * spelled {@code + + 0 1 0 0}) the 0.995 quantiles reached 1e5 and the CRPS 3644.
         */
        public UnnormalizedTokenizer tokenizer() {
            UnnormalizedConfig c = new UnnormalizedConfig(base, exponentDigits, mantissaDigits, false);
            return new UnnormalizedTokenizer(c.withRange(c.minExponent(), 0, false));
        }

        @Override
        public RegressionHead build(int inputWidth, long seed, DataType type) {
            return new DecoderHead(new DecoderConfig(tokenizer(), inputWidth, new TransformerBlock.Config(d, heads, ff),
                    layers, seed), type);
        }

        @Override
        public double centre() {
            return 0;
        }

        @Override
        public String defaultLoss() {
            return "ce";
        }

        @Override
        public String name() {
            return "unnormalized-decoder";
        }

        @Override
        public PointEstimate pointEstimate() {
            return PointEstimate.MEDIAN;
        }
    }
}
