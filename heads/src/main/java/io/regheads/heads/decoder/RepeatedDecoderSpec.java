package io.regheads.heads.decoder;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.tokenizers.NormalizedConfig;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.RepeatedTokenizer;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The normalized decoder with error-correcting repetitions (Song and Bahri, "Decoding-based Regression",
 * arXiv:2501.19383, Fig. 9) as a model's head: y01 in [0, 1] spelled as {@code length} base-{@code base} digits,
 * written {@code repeats} times ({@link RepeatedTokenizer}: {@code t1..tK t1..tK ...}, T = r K), decoded by a
 * majority vote per digit position. Every summary (density, CDF, quantiles, mean, samples) is that of the <b>voted</b>
 * value: the model's probabilities of the {@code V^(r K)} full sequences summed per vote (exact while every sequence
 * fits the enumeration budget of {@link DecoderDistribution.Options#maxLeaves()} per row and position, else within
 * the reported total-variation bound {@link DecoderDistribution#voteApproximationBound()}), so keep {@code base^(repeats
 * length)} small: base 2, 5 digits, 3 copies is 32 768 sequences per row. Trained with cross-entropy on every copy.
 *
 * <p>Example: {@code RepeatedDecoderSpec.small(2, 5, 3)}: 32 bins of y01, each spelled three times (T = 15).
 *
 * <p>Settings, version 1: {@code head=repeat-decoder}, {@code head.version=1}, {@code head.base}, {@code
 * head.length}, {@code head.repeats}, {@code head.d}, {@code head.heads}, {@code head.ff}, {@code head.layers} (ints)
 * and {@code head.activation=GELU|RELU}.
 *
 * @param base       B >= 2
 * @param length     K >= 1 digits per copy, {@code B^K <= 2^52}
 * @param repeats    r >= 1 copies (1: the plain normalized decoder, with a vote that changes nothing)
 * @param d          block width
 * @param heads      attention heads, dividing d
 * @param ff         MLP width
 * @param layers     blocks >= 1
 * @param activation the blocks' MLP activation
 */
public record RepeatedDecoderSpec(int base, int length, int repeats, int d, int heads, int ff, int layers,
        TransformerBlock.Activation activation) implements HeadSpec {
    /** The registry name {@code repeat-decoder}, settings version 1. */
    public static final Kind KIND = new Kind("repeat-decoder", 1);

    /**
     * @throws IllegalArgumentException if the digits or block sizes are invalid ({@link NormalizedConfig}, {@link
     *                                  TransformerBlock.Config}), repeats is below 1 or layers is below 1
     */
    public RepeatedDecoderSpec {
        new NormalizedConfig(base, length); // validates base and length
        Checks.atLeast("repeats", repeats, 1);
        new TransformerBlock.Config(d, heads, ff, activation); // validates the block sizes and the activation
        Checks.atLeast("layers", layers, 1);
    }

    /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128, GELU) over the repeated digits. */
    public static RepeatedDecoderSpec small(int base, int length, int repeats) {
        return new RepeatedDecoderSpec(base, length, repeats, 32, 1, 128, 1, TransformerBlock.Activation.GELU);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static RepeatedDecoderSpec of(Properties p) {
        Settings s = KIND.read(p, "base", "length", "repeats", "d", "heads", "ff", "layers", "activation");
        int base = s.integer("base");
        int length = s.integer("length");
        int repeats = s.integer("repeats");
        int d = s.integer("d");
        int heads = s.integer("heads");
        int ff = s.integer("ff");
        int layers = s.integer("layers");
        TransformerBlock.Activation activation = s.choice("activation", TransformerBlock.Activation.class);
        return s.validated(() -> new RepeatedDecoderSpec(base, length, repeats, d, heads, ff, layers, activation));
    }

    /** The tokenizer: {@code repeats} copies of the base-{@code base}, {@code length}-digit spelling of y01. */
    public RepeatedTokenizer tokenizer() {
        return new RepeatedTokenizer(new NormalizedTokenizer(new NormalizedConfig(base, length)), repeats);
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        return Settings.writer().put("base", base).put("length", length).put("repeats", repeats).put("d", d)
                .put("heads", heads).put("ff", ff).put("layers", layers).put("activation", activation).map();
    }

    @Override
    public DecoderHead build(int inputWidth, long seed, DataType type) {
        return new DecoderHead(tokenizer(), inputWidth, new TransformerBlock.Config(d, heads, ff, activation), layers,
                seed, type);
    }

    /** @return MIN_MAX: the digits spell y01 in [0, 1] */
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
