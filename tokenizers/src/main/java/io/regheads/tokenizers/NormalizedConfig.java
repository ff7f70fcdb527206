package io.regheads.tokenizers;

import io.regheads.core.check.Checks;
import io.regheads.tokenizers.internal.SignificantDigits;

/**
 * Configuration of a {@link NormalizedTokenizer}: base B and length K. Rules: {@code 2 <= B <= 4096},
 * {@code K >= 1}, {@code B^K <= 2^52} (so that every bin edge {@code i / B^K} is computed from exact integers).
 * Immutable.
 *
 * @param base   B
 * @param length K
 */
public record NormalizedConfig(int base, int length) {
    /** Validates the rules above. */
    public NormalizedConfig {
        Checks.inRange("base", base, 2, SignificantDigits.MAX_BASE);
        Checks.atLeast("length", length, 1);
        Checks.require(SignificantDigits.mantissaRange(base, length) <= (1L << 52),
                "base^length must be <= 2^52, got %d^%d", base, length);
    }

    /** B=2, K=8: 256 bins, binary tokens. */
    public static NormalizedConfig binary8() {
        return new NormalizedConfig(2, 8);
    }

    /** B=10, K=3: 1000 bins, decimal digits (small enough to enumerate). */
    public static NormalizedConfig decimal3() {
        return new NormalizedConfig(10, 3);
    }

    /** B=8, K=6, the largest normalized setting of the decoding paper's sweep (B in {2,4,8}, K in {4,6,8}). */
    public static NormalizedConfig octal6() {
        return new NormalizedConfig(8, 6);
    }

    /** The number of bins {@code B^K}. */
    public long bins() {
        return SignificantDigits.mantissaRange(base, length);
    }
}
