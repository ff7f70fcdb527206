package io.regheads.heads.decoder;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
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
 * head: y spelled as sign, exponent sign, {@code exponentDigits} exponent digits and {@code mantissaDigits} mantissa
 * digits in base {@code base}, e.g. base 10, E=1, M=3: {@code 123.4 -> + + 2 1 2 3}, T = 6, V = 12 (V = 15 with the
 * NaN/+Inf/-Inf tokens). GELU blocks of the given sizes. The decoding paper's tokenization choices are B in {4, 8,
 * 10}, E in {1, 2, 4}, M in {2, 4, 8}.
 *
 * <p><b>Units.</b> By default the head sees the <b>raw</b> target ({@link TargetScaling#RAW}: no min-max scaling; x
 * is still standardised by the model), which is the point of sign-exponent-mantissa tokens. {@link
 * TargetScaling#MIN_MAX} (y01) remains available ({@link #scaled}).
 *
 * <p><b>Exponent range.</b> Every exponent the digits spell is a branch of the token tree; a branch the training
 * targets never visit keeps whatever mass the softmax leaves it, up to {@code B^(B^E - 1)} times the data's scale,
 * which ruins quantiles, CRPS and the mean. So the masks allow only a range ({@link Range}): given in the spec, or,
 * when {@code range} is null, fitted to the training targets when the model is fitted ({@link #fittedTo}: from the
 * smallest to the largest exponent of the non-zero targets, always including 0, the sign {@code -} only if a target
 * is negative, see {@link UnnormalizedConfig#fittedTo} with margin 0), and saved with the model. Every training
 * target is then representable, as with the other bounded heads; values beyond the range clamp to its ends.
 *
 * <p><b>Point prediction</b> on raw y: {@link PointEstimate#AUTO}, the certified mean ({@link
 * DecoderDistribution#exactMean}, error bound within a tolerance relative to the row's spread), else the tree-walk
 * median (where the mean is not finite or not certified within the expansion's budget); in scaled units the median.
 *
 * <p><b>Settings</b>, version 1: {@code head=unnormalized-decoder}, {@code head.version=1}, {@code head.base}, {@code
 * head.exponentDigits}, {@code head.mantissaDigits}, {@code head.specialTokens} ({@code true|false}), {@code
 * head.scaling} ({@code RAW|MIN_MAX|CENTRED_MIN_MAX}), {@code head.d}, {@code head.heads}, {@code head.ff}, {@code
 * head.layers}, and, once the range is fixed or fitted, {@code head.minExponent}, {@code head.maxExponent}, {@code
 * head.negatives}.
 *
 * @param base           B >= 2
 * @param exponentDigits E >= 1
 * @param mantissaDigits M >= 1
 * @param specialTokens  whether NaN, +Inf and -Inf are tokens (then training targets may hold them)
 * @param scaling        how the model maps y to the head's units (RAW by default)
 * @param range          the exponent range and sign the masks allow, or null to fit it to the training targets
 * @param d              block width
 * @param heads          attention heads, dividing d
 * @param ff             MLP width
 * @param layers         blocks >= 1
 */
public record UnnormalizedDecoderSpec(int base, int exponentDigits, int mantissaDigits, boolean specialTokens,
        TargetScaling scaling, Range range, int d, int heads, int ff, int layers) implements HeadSpec {
    /** The registry name. */
    public static final String NAME = "unnormalized-decoder";
    /** The settings version this class writes and the newest it reads. */
    public static final int VERSION = 1;
    /** {@link #NAME} and {@link #VERSION}. */
    public static final Kind KIND = new Kind(NAME, VERSION);

    /**
     * The exponents and signs the masks allow (see {@link UnnormalizedConfig#withRange}).
     *
     * @param minExponent smallest exponent, {@code <= 0}
     * @param maxExponent largest exponent, {@code >= 0}
     * @param negatives   whether the sign {@code -} is allowed
     */
    public record Range(int minExponent, int maxExponent, boolean negatives) {
        /** @throws IllegalArgumentException unless {@code minExponent <= 0 <= maxExponent} */
        public Range {
            Checks.require(minExponent <= 0, "minExponent must be <= 0, got %d", minExponent);
            Checks.require(maxExponent >= 0, "maxExponent must be >= 0, got %d", maxExponent);
        }
    }

    /**
     * @throws IllegalArgumentException if the tokenizer or block sizes are invalid ({@link UnnormalizedConfig},
     *                                  including a range outside what E digits spell; {@link
     *                                  TransformerBlock.Config}), scaling is null or layers is below 1
     */
    public UnnormalizedDecoderSpec {
        Checks.notNull("scaling", scaling);
        UnnormalizedConfig c = new UnnormalizedConfig(base, exponentDigits, mantissaDigits, specialTokens);
        if (range != null) {
            c.withRange(range.minExponent(), range.maxExponent(), range.negatives()); // validates the range
        }
        new TransformerBlock.Config(d, heads, ff); // validates the block sizes
        Checks.atLeast("layers", layers, 1);
    }

    /**
     * The paper's small decoder (1 layer, 32 units, 1 head, ff 128) over the given tokenizer sizes: raw y, no special
     * tokens, the exponent range fitted to the training targets.
     */
    public static UnnormalizedDecoderSpec small(int base, int exponentDigits, int mantissaDigits) {
        return new UnnormalizedDecoderSpec(base, exponentDigits, mantissaDigits, false, TargetScaling.RAW, null, 32,
                1, 128, 1);
    }

    /**
     * A new head on raw y, no special tokens, the exponent range fitted to the training targets, with the given
     * block sizes.
     */
    public UnnormalizedDecoderSpec(int base, int exponentDigits, int mantissaDigits, int d, int heads, int ff,
            int layers) {
        this(base, exponentDigits, mantissaDigits, false, TargetScaling.RAW, null, d, heads, ff, layers);
    }

    /**
     * The head on y01 ({@link TargetScaling#MIN_MAX}), no special tokens, and with {@code unitRange} exponents from
     * the widest minimum to 0 and no sign {@code -}, without it every exponent E digits spell and both signs.
     */
    public static UnnormalizedDecoderSpec scaled(int base, int exponentDigits, int mantissaDigits, int d, int heads,
            int ff, int layers, boolean unitRange) {
        Range r = new Range(UnnormalizedConfig.widestMinExponent(base, exponentDigits),
                unitRange ? 0 : UnnormalizedConfig.widestMaxExponent(base, exponentDigits), !unitRange);
        return new UnnormalizedDecoderSpec(base, exponentDigits, mantissaDigits, false, TargetScaling.MIN_MAX, r, d,
                heads, ff, layers);
    }

    /** The same spec with the NaN/+Inf/-Inf tokens switched on or off. */
    public UnnormalizedDecoderSpec withSpecialTokens(boolean on) {
        return new UnnormalizedDecoderSpec(base, exponentDigits, mantissaDigits, on, scaling, range, d, heads, ff,
                layers);
    }

    /** The same spec with another target scaling. */
    public UnnormalizedDecoderSpec withScaling(TargetScaling newScaling) {
        return new UnnormalizedDecoderSpec(base, exponentDigits, mantissaDigits, specialTokens, newScaling, range, d,
                heads, ff, layers);
    }

    /** The same spec with a fixed exponent range, or null to fit it to the training targets. */
    public UnnormalizedDecoderSpec withRange(Range newRange) {
        return new UnnormalizedDecoderSpec(base, exponentDigits, mantissaDigits, specialTokens, scaling, newRange, d,
                heads, ff, layers);
    }

    /**
     * Reads the settings {@link #toProperties()} writes (see the class description).
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static UnnormalizedDecoderSpec of(Properties p) {
        Settings s = HeadSpec.settingsOf(p, NAME, VERSION);
        s.version(VERSION);
        s.requireOnly("version", "base", "exponentDigits", "mantissaDigits", "specialTokens", "scaling",
                "minExponent", "maxExponent", "negatives", "d", "heads", "ff", "layers");
        int base = s.integer("base");
        int e = s.integer("exponentDigits");
        int m = s.integer("mantissaDigits");
        int d = s.integer("d");
        int heads = s.integer("heads");
        int ff = s.integer("ff");
        int layers = s.integer("layers");
        boolean specials = s.bool("specialTokens");
        TargetScaling scaling = s.choice("scaling", TargetScaling.class);
        boolean anyRange = s.has("minExponent") || s.has("maxExponent") || s.has("negatives");
        Range range = null;
        if (anyRange) {
            Checks.require(s.has("minExponent") && s.has("maxExponent") && s.has("negatives"),
                    "%s, %s and %s must be given together or not at all, got only some of them",
                    s.key("minExponent"), s.key("maxExponent"), s.key("negatives"));
            int lo = s.integer("minExponent");
            int hi = s.integer("maxExponent");
            boolean neg = s.bool("negatives");
            range = s.validated(() -> new Range(lo, hi, neg));
        }
        Range r = range;
        return s.validated(() -> new UnnormalizedDecoderSpec(base, e, m, specials, scaling, r, d, heads, ff, layers));
    }

    /**
     * The tokenizer this head spells its targets with: the spec's range, or the widest range (every exponent E
     * digits spell, both signs) while the range is still to be fitted.
     */
    public UnnormalizedTokenizer tokenizer() {
        UnnormalizedConfig c = new UnnormalizedConfig(base, exponentDigits, mantissaDigits, specialTokens);
        return new UnnormalizedTokenizer(range == null ? c
                : c.withRange(range.minExponent(), range.maxExponent(), range.negatives()));
    }

    /**
     * With the range fitted to the training targets if the spec has none ({@link UnnormalizedConfig#fittedTo} with
     * margin 0: exponents from the smallest to the largest of the non-zero finite targets, including 0; the sign
     * {@code -} only if a target is negative); this spec itself if its range is given. Example (B=10, E=1, M=3):
     * targets in [103.4, 140.9] give exponents [0, 2] without {@code -}.
     *
     * @param y {@code [N]} training targets in head units (NaN and infinities are ignored)
     * @throws IllegalArgumentException if y is null or has no finite value
     */
    @Override
    public UnnormalizedDecoderSpec fittedTo(double[] y) {
        if (range != null) {
            return this;
        }
        UnnormalizedConfig f = new UnnormalizedConfig(base, exponentDigits, mantissaDigits, specialTokens).fittedTo(y,
                0);
        return withRange(new Range(f.minExponent(), f.maxExponent(), f.negatives()));
    }

    /** @return {@code specialTokens}: NaN and +-Infinity targets are learned as tokens */
    @Override
    public boolean representsNonFinite() {
        return specialTokens;
    }

    /** @return this spec with the NaN/+Inf/-Inf tokens ({@link #withSpecialTokens}) */
    @Override
    public UnnormalizedDecoderSpec learningNonFinite() {
        return withSpecialTokens(true);
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("base", Integer.toString(base));
        m.put("exponentDigits", Integer.toString(exponentDigits));
        m.put("mantissaDigits", Integer.toString(mantissaDigits));
        m.put("specialTokens", Boolean.toString(specialTokens));
        m.put("scaling", scaling.name());
        if (range != null) {
            m.put("minExponent", Integer.toString(range.minExponent()));
            m.put("maxExponent", Integer.toString(range.maxExponent()));
            m.put("negatives", Boolean.toString(range.negatives()));
        }
        m.put("d", Integer.toString(d));
        m.put("heads", Integer.toString(heads));
        m.put("ff", Integer.toString(ff));
        m.put("layers", Integer.toString(layers));
        return m;
    }

    /** {@return the sizes of every block (GELU)} */
    public TransformerBlock.Config block() {
        return new TransformerBlock.Config(d, heads, ff);
    }

    @Override
    public DecoderHead build(int inputWidth, long seed, DataType type) {
        return new DecoderHead(tokenizer(), inputWidth, block(), layers, seed, type);
    }

    /** @return {@link #scaling()} (RAW unless the spec says otherwise) */
    @Override
    public TargetScaling targetScaling() {
        return scaling;
    }

    /** @return {@code "ce"} */
    @Override
    public String defaultLoss() {
        return "ce";
    }

    /**
     * @return {@link PointEstimate#AUTO} on raw y (the certified mean, else the median, see the class description);
     *         {@link PointEstimate#MEDIAN} in scaled units: y01 spelled with exponents up to 0 reaches 10 times the
     *         training range, and a little mass there moves the mean far
     */
    @Override
    public PointEstimate pointEstimate() {
        return scaling == TargetScaling.RAW ? PointEstimate.AUTO : PointEstimate.MEDIAN;
    }
}
