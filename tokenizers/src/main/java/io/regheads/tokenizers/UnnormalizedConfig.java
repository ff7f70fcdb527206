package io.regheads.tokenizers;

import io.regheads.core.internal.Checks;
import io.regheads.tokenizers.internal.SignificantDigits;

/**
 * Configuration of an {@link UnnormalizedTokenizer}: base B, exponent digits E, mantissa digits M, and whether the
 * vocabulary has the special tokens NaN, +Inf and -Inf.
 *
 * <p>Rules: {@code 2 <= B <= 4096}; {@code E >= 1} with {@code B^E <= 2^31}; {@code M >= 1} with
 * {@code B^M <= 2^45} (see {@link SignificantDigits}). Immutable.
 *
 * @param base           B
 * @param exponentDigits E
 * @param mantissaDigits M
 * @param specialTokens  true to add NaN, +Inf, -Inf tokens
 */
public record UnnormalizedConfig(int base, int exponentDigits, int mantissaDigits, boolean specialTokens) {
    /** Validates the rules above. */
    public UnnormalizedConfig {
        Checks.inRange("base", base, 2, SignificantDigits.MAX_BASE);
        Checks.atLeast("exponentDigits", exponentDigits, 1);
        Checks.require(SignificantDigits.mantissaRange(base, exponentDigits) <= (1L << 31),
                "base^exponentDigits must be <= 2^31, got %d^%d", base, exponentDigits);
        Checks.atLeast("mantissaDigits", mantissaDigits, 1);
        Checks.require(SignificantDigits.mantissaRange(base, mantissaDigits) <= SignificantDigits.MAX_MANTISSA_RANGE,
                "base^mantissaDigits must be <= 2^45, got %d^%d", base, mantissaDigits);
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
        return new UnnormalizedConfig(base, exponentDigits, mantissaDigits, on);
    }
}
