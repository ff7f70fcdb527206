package io.regheads.heads.decoder;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.tokenizers.NormalizedConfig;
import io.regheads.tokenizers.NormalizedTokenizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The normalized transformer decoder ({@link DecoderHead} over {@link NormalizedTokenizer}) as a model's head:
 * {@code length} base-{@code base} digits of y01 in [0, 1] (centre 0), with {@code layers} pre-LN blocks of width d,
 * the given attention heads and MLP width, trained with cross-entropy; its point prediction is the mean (the
 * certified tree expansion). The blocks' MLP activation is GELU unless given; the decoder of the comparison with the
 * PyTorch reference implementation is {@link #referenceSetup()}: {@code new DecoderSpec(10, 4, 32, 1, 128, 1,
 * Activation.RELU)}.
 *
 * <p>Settings, version 1: {@code head=decoder}, {@code head.version=1}, {@code head.base}, {@code head.length},
 * {@code head.d}, {@code head.heads}, {@code head.ff}, {@code head.layers} (ints) and {@code
 * head.activation=GELU|RELU}.
 *
 * @param base       B >= 2
 * @param length     K >= 1 digits, {@code B^K <= 2^52}
 * @param d          block width
 * @param heads      attention heads, dividing d
 * @param ff         MLP width
 * @param layers     blocks >= 1
 * @param activation the blocks' MLP activation
 */
public record DecoderSpec(int base, int length, int d, int heads, int ff, int layers,
        TransformerBlock.Activation activation) implements HeadSpec {
    /** The registry name. */
    public static final String NAME = "decoder";
    /** The settings version this class writes and the newest it reads. */
    public static final int VERSION = 1;
    /** {@link #NAME} and {@link #VERSION}. */
    public static final Kind KIND = new Kind(NAME, VERSION);

    /**
     * @throws IllegalArgumentException if the tokenizer or block sizes are invalid ({@link NormalizedConfig},
     *                                  {@link TransformerBlock.Config}) or layers is below 1
     */
    public DecoderSpec {
        new NormalizedConfig(base, length); // validates base and length
        new TransformerBlock.Config(d, heads, ff, activation); // validates the block sizes and the activation
        Checks.atLeast("layers", layers, 1);
    }

    /** GELU blocks. */
    public DecoderSpec(int base, int length, int d, int heads, int ff, int layers) {
        this(base, length, d, heads, ff, layers, TransformerBlock.Activation.GELU);
    }

    /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128, GELU). */
    public static DecoderSpec small(int base, int length) {
        return new DecoderSpec(base, length, 32, 1, 128, 1);
    }

    /**
     * The decoder of the comparison with the PyTorch reference implementation ({@code docs/results.md}): base 10,
     * 4 digits, 1 layer of 32 units, 1 head, ff 128, ReLU MLP.
     */
    public static DecoderSpec referenceSetup() {
        return new DecoderSpec(10, 4, 32, 1, 128, 1, TransformerBlock.Activation.RELU);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static DecoderSpec of(Properties p) {
        Settings s = HeadSpec.settingsOf(p, NAME, VERSION);
        s.requireOnly("version", "base", "length", "d", "heads", "ff", "layers", "activation");
        int base = s.integer("base");
        int length = s.integer("length");
        int d = s.integer("d");
        int heads = s.integer("heads");
        int ff = s.integer("ff");
        int layers = s.integer("layers");
        TransformerBlock.Activation activation = s.choice("activation", TransformerBlock.Activation.class);
        return s.validated(() -> new DecoderSpec(base, length, d, heads, ff, layers, activation));
    }

    /** The tokenizer this head spells y01 with. */
    public NormalizedTokenizer tokenizer() {
        return new NormalizedTokenizer(new NormalizedConfig(base, length));
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("base", Integer.toString(base));
        m.put("length", Integer.toString(length));
        m.put("d", Integer.toString(d));
        m.put("heads", Integer.toString(heads));
        m.put("ff", Integer.toString(ff));
        m.put("layers", Integer.toString(layers));
        m.put("activation", activation.name());
        return m;
    }

    /** {@return the sizes of every block} */
    public TransformerBlock.Config block() {
        return new TransformerBlock.Config(d, heads, ff, activation);
    }

    @Override
    public DecoderHead build(int inputWidth, long seed, DataType type) {
        return new DecoderHead(tokenizer(), inputWidth, block(), layers, seed, type);
    }

    /** @return MIN_MAX: the digits spell y01 in [0, 1] */
    @Override
    public TargetScaling targetScaling() {
        return TargetScaling.MIN_MAX;
    }

    /**
     * @return {@code "gce:0.5"}: cross-entropy against a Gaussian over the digits of each position, width 0.5 digit
     *         (the number-token-loss paper's best); it beat plain {@code ce} on held-out NLL on every training-fold
     *         split of the base-10, 3-digit decoder tried (docs/defaults.md)
     */
    @Override
    public String defaultLoss() {
        return "gce:0.5";
    }
}
