package io.regheads.heads.decoder;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.tokenizers.HammingTokenizer;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The decoder over Hamming-ordered binary codes (Song and Bahri, "Decoding-based Regression", arXiv:2501.19383,
 * Fig. 13) as a model's head: y01 in [0, 1] falls in one of {@code 2^bits} equal bins, and bin i is spelled with the
 * i-th K-bit string in order of the number of ones ({@link HammingTokenizer}), so neighbouring bins differ in few
 * bits. A prefix does not cover a contiguous range of values, so every summary (density, CDF, quantiles, mean)
 * comes from the exact list of all {@code 2^bits} codes, sorted by value: at most 16 bits (65 536 codes per row).
 * Trained with cross-entropy.
 *
 * <p>Example: {@code HammingDecoderSpec.small(8)}: 256 bins of y01, T = 8 bits.
 *
 * <p>Settings, version 1: {@code head=hamming-decoder}, {@code head.version=1}, {@code head.bits}, {@code head.d},
 * {@code head.heads}, {@code head.ff}, {@code head.layers} (ints) and {@code head.activation=GELU|RELU}.
 *
 * @param bits       K in [1, 16]
 * @param d          block width
 * @param heads      attention heads, dividing d
 * @param ff         MLP width
 * @param layers     blocks >= 1
 * @param activation the blocks' MLP activation
 */
public record HammingDecoderSpec(int bits, int d, int heads, int ff, int layers,
        TransformerBlock.Activation activation) implements HeadSpec {
    /** The registry name {@code hamming-decoder}, settings version 1. */
    public static final Kind KIND = new Kind("hamming-decoder", 1);
    /** The most bits: the summaries enumerate every code (2^16 of them at most). */
    public static final int MAX_BITS = 16;

    /**
     * @throws IllegalArgumentException if bits is outside [1, {@value #MAX_BITS}], the block sizes are invalid
     *                                  ({@link TransformerBlock.Config}) or layers is below 1
     */
    public HammingDecoderSpec {
        Checks.inRange("bits", bits, 1, MAX_BITS);
        new TransformerBlock.Config(d, heads, ff, activation); // validates the block sizes and the activation
        Checks.atLeast("layers", layers, 1);
    }

    /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128, GELU) over K-bit Hamming-ordered codes. */
    public static HammingDecoderSpec small(int bits) {
        return new HammingDecoderSpec(bits, 32, 1, 128, 1, TransformerBlock.Activation.GELU);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static HammingDecoderSpec of(Properties p) {
        Settings s = KIND.read(p, "bits", "d", "heads", "ff", "layers", "activation");
        int bits = s.integer("bits");
        int d = s.integer("d");
        int heads = s.integer("heads");
        int ff = s.integer("ff");
        int layers = s.integer("layers");
        TransformerBlock.Activation activation = s.choice("activation", TransformerBlock.Activation.class);
        return s.validated(() -> new HammingDecoderSpec(bits, d, heads, ff, layers, activation));
    }

    /** The tokenizer: K-bit Hamming-ordered codes of the bins of y01. */
    public HammingTokenizer tokenizer() {
        return new HammingTokenizer(bits);
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        return Settings.writer().put("bits", bits).put("d", d).put("heads", heads).put("ff", ff).put("layers", layers)
                .put("activation", activation).map();
    }

    @Override
    public DecoderHead build(int inputWidth, long seed, DataType type) {
        return new DecoderHead(tokenizer(), inputWidth, new TransformerBlock.Config(d, heads, ff, activation), layers,
                seed, type);
    }

    /** @return MIN_MAX: the codes spell the bins of y01 in [0, 1] */
    @Override
    public TargetScaling targetScaling() {
        return TargetScaling.MIN_MAX;
    }

    /** @return {@code "ce"} */
    @Override
    public String defaultLoss() {
        return "ce";
    }
}
