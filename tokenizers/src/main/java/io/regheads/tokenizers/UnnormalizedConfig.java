package io.regheads.tokenizers;

import io.regheads.core.check.Checks;
import io.regheads.tokenizers.internal.SignificantDigits;

/**
 * Configuration of an {@link UnnormalizedTokenizer}: base B, exponent digits E, mantissa digits M, whether the
 * vocabulary has the special tokens NaN, +Inf and -Inf, and the <b>value range</b> the masks allow: exponents in
 * {@code [minExponent, maxExponent]} and, unless {@code negatives}, no {@code -} sign.
 *
 * <p>Rules: {@code 2 <= B <= 4096}; {@code E >= 1} with {@code B^E <= 2^31}; {@code M >= 1} with
 * {@code B^M <= 2^45} (see {@link SignificantDigits}); {@code minExponent <= 0 <= maxExponent}, both inside the
 * usable range {@link #widestMinExponent} .. {@link #widestMaxExponent} (what E digits spell and normal finite
 * doubles hold; e.g. B = 10, E = 1: -9..9). Immutable.
 *
 * <p><b>Why a range.</b> Every exponent the digits can spell is a branch of the token tree; branches the training
 * targets never visit keep whatever mass an untrained softmax gives them, and with E = 1 in base 10 that mass sits on
 * values up to 1e9 times the data's scale: a few percent there ruin the quantiles, the CRPS and the mean. A range
 * fitted to the training targets ({@link #fittedTo}) masks those branches away; values outside it round like an
 * overflow (clamped to the largest magnitude) or an underflow (to zero or {@code B^minExponent}).
 *
 * @param base           B
 * @param exponentDigits E
 * @param mantissaDigits M
 * @param specialTokens  true to add NaN, +Inf, -Inf tokens
 * @param minExponent    smallest exponent the masks allow, {@code <= 0}
 * @param maxExponent    largest exponent the masks allow, {@code >= 0}
 * @param negatives      whether the sign {@code -} is allowed
 */
public record UnnormalizedConfig(int base, int exponentDigits, int mantissaDigits, boolean specialTokens,
        int minExponent, int maxExponent, boolean negatives) {
    /** Validates the rules above. */
    public UnnormalizedConfig {
        Checks.inRange("base", base, 2, SignificantDigits.MAX_BASE);
        Checks.atLeast("exponentDigits", exponentDigits, 1);
        Checks.require(SignificantDigits.mantissaRange(base, exponentDigits) <= (1L << 31),
                "base^exponentDigits must be <= 2^31, got %d^%d", base, exponentDigits);
        Checks.atLeast("mantissaDigits", mantissaDigits, 1);
        Checks.require(SignificantDigits.mantissaRange(base, mantissaDigits) <= SignificantDigits.MAX_MANTISSA_RANGE,
                "base^mantissaDigits must be <= 2^45, got %d^%d", base, mantissaDigits);
        int lo = widestMinExponent(base, exponentDigits);
        int hi = widestMaxExponent(base, exponentDigits);
        Checks.require(minExponent >= lo && minExponent <= 0,
                "minExponent must be in [%d, 0] for base %d with %d exponent digits, got %d", lo, base, exponentDigits,
                minExponent);
        Checks.require(maxExponent >= 0 && maxExponent <= hi,
                "maxExponent must be in [0, %d] for base %d with %d exponent digits, got %d", hi, base, exponentDigits,
                maxExponent);
    }

    /** The widest range: every exponent E digits spell (within normal finite doubles), both signs. */
    public UnnormalizedConfig(int base, int exponentDigits, int mantissaDigits, boolean specialTokens) {
        this(base, exponentDigits, mantissaDigits, specialTokens, widestMinExponent(base, exponentDigits),
                widestMaxExponent(base, exponentDigits), true);
    }

    /** The smallest exponent E digits of base B spell that keeps {@code B^e} a normal double. */
    public static int widestMinExponent(int base, int exponentDigits) {
        Checks.inRange("base", base, 2, SignificantDigits.MAX_BASE);
        Checks.atLeast("exponentDigits", exponentDigits, 1);
        long limit = SignificantDigits.mantissaRange(base, exponentDigits) - 1;
        return (int) Math.max(-limit, SignificantDigits.doubleMinExponent(base));
    }

    /** The largest exponent E digits of base B spell that keeps {@code B^(e+1)} finite. */
    public static int widestMaxExponent(int base, int exponentDigits) {
        Checks.inRange("base", base, 2, SignificantDigits.MAX_BASE);
        Checks.atLeast("exponentDigits", exponentDigits, 1);
        long limit = SignificantDigits.mantissaRange(base, exponentDigits) - 1;
        return (int) Math.min(limit, SignificantDigits.doubleMaxExponent(base));
    }

    /**
     * This configuration with the value range fitted to training targets: exponents from the smallest to the largest
     * exponent of the non-zero finite targets (as this configuration rounds them), widened by {@code margin} on both
     * sides, always including 0 and clipped to the widest range; negatives allowed only if a target is negative.
     *
     * <p>Example (B = 10, E = 1, M = 3): targets in [103.4, 140.9] give exponents [0, 2] with margin 0 and
     * [-1, 3] with margin 1, no {@code -} sign; targets in [-0.02, 5] give [-2, 0] (margin 0) with negatives.
     *
     * @param y      training targets (NaN and infinities are ignored; at least one finite)
     * @param margin exponents added below and above, {@code >= 0}
     * @throws IllegalArgumentException if y is null or has no finite value, or margin &lt; 0
     */
    public UnnormalizedConfig fittedTo(double[] y, int margin) {
        Checks.notNull("y", y);
        Checks.atLeast("margin", margin, 0);
        int lo = widestMinExponent(base, exponentDigits);
        int hi = widestMaxExponent(base, exponentDigits);
        SignificantDigits sig = new SignificantDigits(base, mantissaDigits, lo, hi);
        int eMin = 0;
        int eMax = 0;
        boolean finite = false;
        boolean negative = false;
        for (double v : y) {
            if (!Double.isFinite(v)) {
                continue;
            }
            finite = true;
            negative |= v < 0;
            SignificantDigits.Rounded r = sig.round(v);
            if (!r.isZero()) {
                eMin = Math.min(eMin, r.exponent());
                eMax = Math.max(eMax, r.exponent());
            }
        }
        Checks.require(finite, "y must hold at least one finite value, got none of %d", y.length);
        return new UnnormalizedConfig(base, exponentDigits, mantissaDigits, specialTokens,
                Math.max(lo, eMin - margin), Math.min(hi, eMax + margin), negative);
    }

    /** The same configuration with the masks restricted to exponents [minExponent, maxExponent] and the signs. */
    public UnnormalizedConfig withRange(int minExponent, int maxExponent, boolean negatives) {
        return new UnnormalizedConfig(base, exponentDigits, mantissaDigits, specialTokens, minExponent, maxExponent,
                negatives);
    }

    /** B=10, E=3, M=4, no specials: the worked example of the design notes (1.23456789e-222). */
    public static UnnormalizedConfig decimal() {
        return new UnnormalizedConfig(10, 3, 4, false);
    }

    /** B=10, E=1, M=4 (exponents -9..9), the decoding paper's common unnormalized setting. */
    public static UnnormalizedConfig paperDefault() {
        return new UnnormalizedConfig(10, 1, 4, false);
    }

    /** B=3, E=1, M=2: a tiny configuration whose sequences can be enumerated (for tests and teaching). */
    public static UnnormalizedConfig tiny() {
        return new UnnormalizedConfig(3, 1, 2, false);
    }

    /** The same configuration with special tokens switched on or off. */
    public UnnormalizedConfig withSpecialTokens(boolean on) {
        return new UnnormalizedConfig(base, exponentDigits, mantissaDigits, on, minExponent, maxExponent, negatives);
    }
}
