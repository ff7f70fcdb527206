package io.regheads.core.head;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Per-position logits over a token vocabulary: the output of histogram heads (T = 1, V = bins, token values =
 * bin centres) and decoder heads (T = sequence length, V = tokenizer vocabulary).
 *
 * @param logits      {@code [B, T, V]}, c-ordered, float or double. As a gradient: d(loss)/d(logits).
 * @param tokenValues {@code [V]}: the numeric value of each token; {@code NaN} for tokens that are not numbers
 *                    (signs, specials). Number-token losses use only tokens with a finite value. Shared, not
 *                    copied: callers must not modify it.
 * @param validMask   {@code [B, T, V]} with 1 for allowed and 0 for masked (invalid) tokens, or {@code null} when
 *                    every token is allowed. Masked tokens carry no probability in any loss or distribution.
 * @param places      {@code [T]} or {@code null}: the place value of each position in the number it spells, the
 *                    amount one unit of a token value at position t adds to the number (normalized base-B digits:
 *                    {@code B^-(t+1)}; unnormalized mantissa digits: {@code B^-i} for the i-th, relative to the
 *                    leading one); {@code NaN} where a position is no magnitude digit (signs, exponent digits). Number
 *                    losses use it for place weights and the number-level expectation, and by default skip positions
 *                    whose place is NaN. {@code null}: unknown (every position counts on its own). Shared, not copied.
 * @param bins        for a one-position output over V bins (a histogram head), the density each token's probability
 *                    spreads over ({@link Bins}), which gives losses such as CRPS the predictive cdf in closed form;
 *                    {@code null} for outputs whose tokens are not bins (decoders). Shared, not copied.
 */
public record TokenLogits(INDArray logits, double[] tokenValues, INDArray validMask, double[] places, Bins bins)
        implements HeadOutput {

    /** Without place values. */
    public TokenLogits(INDArray logits, double[] tokenValues, INDArray validMask) {
        this(logits, tokenValues, validMask, null, null);
    }

    /** Without bins. */
    public TokenLogits(INDArray logits, double[] tokenValues, INDArray validMask, double[] places) {
        this(logits, tokenValues, validMask, places, null);
    }

    /**
     * The density behind the V tokens of a one-position output: token i's probability {@code p_i} is spread
     * uniformly over {@code [borders[i], borders[i + 1])}, except that with a left tail ({@code leftTailScale > 0})
     * token 0's mass is a half-normal of that scale extending left from {@code borders[1]} (density {@code 2 p_0 /
     * s phi((borders[1] - z) / s)} for {@code z < borders[1]}), and with a right tail token V-1's mass is a
     * half-normal extending right from {@code borders[V - 1]}.
     *
     * <p>Example: borders (0, 0.5, 1) without tails and probabilities (0.25, 0.75): cdf(0.25) = 0.125, cdf(0.75) =
     * 0.625.
     *
     * @param borders        {@code [V + 1]} strictly increasing finite borders. Shared, not copied: callers must not
     *                       modify it.
     * @param leftTailScale  0 (no tail) or the half-normal scale of token 0, finite
     * @param rightTailScale 0 (no tail) or the half-normal scale of token V-1, finite
     */
    public record Bins(double[] borders, double leftTailScale, double rightTailScale) {
        /**
         * @throws IllegalArgumentException on fewer than 2 borders, borders that are not finite and strictly
         *                                  increasing, a negative or non-finite scale, or a tail on a single bin
         */
        public Bins {
            Checks.require(borders != null && borders.length >= 2, "borders must hold at least 2 values, got %s",
                    borders == null ? "null" : borders.length);
            for (int i = 0; i < borders.length; i++) {
                if (!Double.isFinite(borders[i]) || (i > 0 && !(borders[i] > borders[i - 1]))) {
                    throw new IllegalArgumentException("borders must be finite and strictly increasing, got "
                            + borders[i] + " at index " + i);
                }
            }
            Checks.require(leftTailScale >= 0 && leftTailScale < Double.POSITIVE_INFINITY,
                    "leftTailScale must be >= 0 and finite, got %s", leftTailScale);
            Checks.require(rightTailScale >= 0 && rightTailScale < Double.POSITIVE_INFINITY,
                    "rightTailScale must be >= 0 and finite, got %s", rightTailScale);
            Checks.require(borders.length >= 3 || (leftTailScale == 0 && rightTailScale == 0),
                    "tails need at least 2 bins, got %d", borders.length - 1);
        }

        /** The number of bins V. */
        public int count() {
            return borders.length - 1;
        }
    }

    /** @throws IllegalArgumentException on a logits array that is not {@code [B, T, V]} or sizes that disagree */
    public TokenLogits {
        Checks.rank("logits", logits, 3);
        Checks.notNull("tokenValues", tokenValues);
        Checks.require(tokenValues.length == logits.size(2),
                "tokenValues must have length V = %d (logits shape %s), got %d",
                logits.size(2), Arrays.toString(logits.shape()), tokenValues.length);
        if (validMask != null) {
            Checks.shape("validMask", validMask, logits.shape());
        }
        if (places != null) {
            Checks.require(places.length == logits.size(1), "places must have length T = %d (logits shape %s), got %d",
                    logits.size(1), Arrays.toString(logits.shape()), places.length);
            for (int i = 0; i < places.length; i++) {
                Checks.require(Double.isNaN(places[i]) || Double.isFinite(places[i]),
                        "places must be finite or NaN, got %s at index %d", places[i], i);
            }
        }
        if (bins != null) {
            Checks.require(logits.size(1) == 1 && bins.count() == logits.size(2),
                    "bins need logits [B, 1, V] with V = %d bins, got logits shape %s", bins.count(),
                    Arrays.toString(logits.shape()));
        }
    }

    @Override
    public int batchSize() {
        return (int) logits.size(0);
    }

    /** Number of positions T. */
    public int positions() {
        return (int) logits.size(1);
    }

    /** Vocabulary size V. */
    public int vocabularySize() {
        return (int) logits.size(2);
    }

    @Override
    public TokenLogits zerosLike(io.regheads.core.nn.Arena arena) {
        return new TokenLogits(arena.zeros(logits.dataType(), logits.shape()), tokenValues, validMask, places, bins);
    }

    @Override
    public TokenLogits zerosLike() {
        return new TokenLogits(logits.ulike().assign(0), tokenValues, validMask, places, bins);
    }
}
