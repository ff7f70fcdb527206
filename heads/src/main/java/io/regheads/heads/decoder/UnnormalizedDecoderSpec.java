package io.regheads.heads.decoder;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.internal.Checks;
import io.regheads.core.io.Settings;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.tokenizers.UnnormalizedConfig;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The unnormalized transformer decoder ({@link DecoderHead} over an {@link UnnormalizedTokenizer}) as a model's
 * head: y01 (the min-max scaled target, centre 0) spelled as sign, exponent sign, {@code exponentDigits} exponent
 * digits and {@code mantissaDigits} mantissa digits in base {@code base}, e.g. base 10, E=1, M=3: {@code 0.123 -> +
 * - 1 1 2 3}, T = 6, V = 12. GELU blocks of the given sizes.
 *
 * <p>Point prediction: the median ({@link PointEstimate#MEDIAN}), from the tree walk of {@link DecoderDistribution}
 * (T decoder steps); the exact mean enumerates every valid sequence per row (about 36 000 for base 10, E=1, M=3) and
 * a trained model's small mass on exponents up to 9 makes it an unstable prediction.
 *
 * <p>Settings, version 2: {@code head=unnormalized-decoder}, {@code head.version=2}, {@code head.base}, {@code
 * head.exponentDigits}, {@code head.mantissaDigits}, {@code head.d}, {@code head.heads}, {@code head.ff}, {@code
 * head.layers} (ints) and {@code head.unitRange} (boolean: the masks allow only exponents up to 0 and no {@code -}
 * sign, see {@link #tokenizer()}). Version 1 files (and files written before versioned settings) have no {@code
 * unitRange} key and were trained with every exponent and both signs allowed: they load with {@code unitRange =
 * false}, so they predict as before.
 *
 * @param base           B >= 2
 * @param exponentDigits E >= 1
 * @param mantissaDigits M >= 1
 * @param d              block width
 * @param heads          attention heads, dividing d
 * @param ff             MLP width
 * @param layers         blocks >= 1
 * @param unitRange      the masks allow y01-sized values only (exponents up to 0, no {@code -} sign); true for new
 *                       heads
 */
public record UnnormalizedDecoderSpec(int base, int exponentDigits, int mantissaDigits, int d, int heads, int ff,
        int layers, boolean unitRange) implements HeadSpec {
    /** The registry name. */
    public static final String NAME = "unnormalized-decoder";
    /** The settings version this class writes and the newest it reads. */
    public static final int VERSION = 2;

    /**
     * @throws IllegalArgumentException if the tokenizer or block sizes are invalid ({@link UnnormalizedConfig},
     *                                  {@link TransformerBlock.Config}) or layers is below 1
     */
    public UnnormalizedDecoderSpec {
        new UnnormalizedConfig(base, exponentDigits, mantissaDigits, false); // validates the tokenizer sizes
        new TransformerBlock.Config(d, heads, ff); // validates the block sizes
        Checks.atLeast("layers", layers, 1);
    }

    /** A new head's spec: {@code unitRange = true}. */
    public UnnormalizedDecoderSpec(int base, int exponentDigits, int mantissaDigits, int d, int heads, int ff,
            int layers) {
        this(base, exponentDigits, mantissaDigits, d, heads, ff, layers, true);
    }

    /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128) over the given tokenizer sizes. */
    public static UnnormalizedDecoderSpec small(int base, int exponentDigits, int mantissaDigits) {
        return new UnnormalizedDecoderSpec(base, exponentDigits, mantissaDigits, 32, 1, 128, 1);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static UnnormalizedDecoderSpec of(Properties p) {
        Settings s = HeadSpec.settingsOf(p, NAME, VERSION);
        int version = s.version(VERSION);
        s.requireOnly("version", "base", "exponentDigits", "mantissaDigits", "d", "heads", "ff", "layers",
                "unitRange");
        boolean unit = version >= 2 && s.bool("unitRange");
        int base = s.integer("base");
        int e = s.integer("exponentDigits");
        int m = s.integer("mantissaDigits");
        int d = s.integer("d");
        int heads = s.integer("heads");
        int ff = s.integer("ff");
        int layers = s.integer("layers");
        return s.validated(() -> new UnnormalizedDecoderSpec(base, e, m, d, heads, ff, layers, unit));
    }

    /**
     * The tokenizer this head spells y01 with. With {@link #unitRange()} the masks allow exponents up to 0 and no
     * {@code -} sign, the range of y01 in [0, 1] (values up to {@code B - B^(1-M)} stay representable); without it
     * (models saved before the option) every exponent and both signs. With every exponent up to {@code B^E - 1}
     * allowed, a trained model left a few percent of its mass on the exponent branches no target visits (values up to
     * 1e9 times the range): on housing (fold 0, where 4% of the targets sit at the maximum, spelled {@code + + 0 1 0
     * 0}) the 0.995 quantiles reached 1e5 and the CRPS 3644.
     */
    public UnnormalizedTokenizer tokenizer() {
        UnnormalizedConfig c = new UnnormalizedConfig(base, exponentDigits, mantissaDigits, false);
        return new UnnormalizedTokenizer(unitRange ? c.withRange(c.minExponent(), 0, false) : c);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int version() {
        return VERSION;
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("base", Integer.toString(base));
        m.put("exponentDigits", Integer.toString(exponentDigits));
        m.put("mantissaDigits", Integer.toString(mantissaDigits));
        m.put("d", Integer.toString(d));
        m.put("heads", Integer.toString(heads));
        m.put("ff", Integer.toString(ff));
        m.put("layers", Integer.toString(layers));
        m.put("unitRange", Boolean.toString(unitRange));
        return m;
    }

    @Override
    public DecoderHead build(int inputWidth, long seed, DataType type) {
        return new DecoderHead(new DecoderConfig(tokenizer(), inputWidth, new TransformerBlock.Config(d, heads, ff),
                layers, seed), type);
    }

    /** @return 0: the tokens spell y01 itself */
    @Override
    public double centre() {
        return 0;
    }

    /** @return {@code "ce"} */
    @Override
    public String defaultLoss() {
        return "ce";
    }

    /** @return {@link PointEstimate#MEDIAN} (see the class description) */
    @Override
    public PointEstimate pointEstimate() {
        return PointEstimate.MEDIAN;
    }
}
