package io.regheads.heads.model;

import io.regheads.core.Checks;
import io.regheads.core.head.RegressionHead;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.histogram.HistogramHead;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.pointwise.PointwiseHead;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.heads.decoder.DecoderConfig;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.tokenizers.NormalizedConfig;
import io.regheads.tokenizers.NormalizedTokenizer;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Which head a {@link RegressionModel} uses, with its own settings; the model supplies the input width, the seed
 * and the data type.
 *
 * <p>Each head also fixes the units it is trained in: histogram heads see {@code y01 = (y - min) / (max - min)}
 * in [0, 1] (train min and max); pointwise and mixture heads see {@code y01 - 0.5} (DESIGN.md section 3).
 */
public sealed interface HeadSpec permits HeadSpec.Pointwise, HeadSpec.Histogram, HeadSpec.Mixture, HeadSpec.Decoder {

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
     * The peer's decoder is {@code new Decoder(10, 4, 32, 1, 128, 1)}.
     */
    record Decoder(int base, int length, int d, int heads, int ff, int layers) implements HeadSpec {
        public Decoder {
            new NormalizedConfig(base, length); // validates base and length
            new TransformerBlock.Config(d, heads, ff); // validates the block sizes
            Checks.atLeast("layers", layers, 1);
        }

        /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128). */
        public static Decoder small(int base, int length) {
            return new Decoder(base, length, 32, 1, 128, 1);
        }

        @Override
        public RegressionHead build(int inputWidth, long seed, DataType type) {
            return new DecoderHead(new DecoderConfig(new NormalizedTokenizer(new NormalizedConfig(base, length)), inputWidth,
                    new TransformerBlock.Config(d, heads, ff), layers, seed), type);
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
}
