package io.regheads.core.head;

import io.regheads.core.internal.Checks;
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
 */
public record TokenLogits(INDArray logits, double[] tokenValues, INDArray validMask, double[] places)
        implements HeadOutput {

    /** Without place values. */
    public TokenLogits(INDArray logits, double[] tokenValues, INDArray validMask) {
        this(logits, tokenValues, validMask, null);
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
        return new TokenLogits(arena.zeros(logits.dataType(), logits.shape()), tokenValues, validMask, places);
    }

    @Override
    public TokenLogits zerosLike() {
        return new TokenLogits(logits.ulike().assign(0), tokenValues, validMask, places);
    }
}
