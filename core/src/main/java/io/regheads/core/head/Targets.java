package io.regheads.core.head;

import io.regheads.core.check.Checks;

/**
 * What a loss compares a head output with. Heads build their own targets from y ({@code
 * RegressionHead.targets(double[])}): a histogram head gives the bin index and the value, a decoder head the
 * token sequence, a continuous head the values.
 */
public sealed interface Targets permits Targets.Tokens, Targets.Values {

    /** Position label meaning "no target here": the position adds nothing to any loss and gets zero gradient. */
    int IGNORE = -100;

    /** Batch size B. */
    int batchSize();

    /**
     * Token targets for {@link io.regheads.core.head.TokenLogits}.
     *
     * @param tokens    {@code [B * T]} row-major token ids in {@code [0, V)}, or {@link #IGNORE}.
     * @param values    {@code [B * T]} the numeric label value per position, or {@code null} to use {@code
     *                  tokenValues[token]}. Lets a histogram head train number-token losses against the exact y
     *                  rather than the bin centre. NaN means "not a number position".
     * @param batchSize B; {@code tokens.length} must be a multiple of it.
     */
    record Tokens(int[] tokens, double[] values, int batchSize) implements Targets {
        /**
         * @param tokens    target token ids, row-major {@code [B, T]}
         * @param values    the label value of each position (NaN: not a number position), or null
         * @param batchSize B
         * @throws IllegalArgumentException on a null token array, a batch size below 1 or not dividing the tokens, or
         *                                  values of another length
         */
        public Tokens {
            Checks.notNull("tokens", tokens);
            Checks.atLeast("batchSize", batchSize, 1);
            Checks.require(tokens.length % batchSize == 0,
                    "tokens length must be a multiple of batchSize %d, got %d", batchSize, tokens.length);
            if (values != null) {
                Checks.require(values.length == tokens.length,
                        "values must have the length of tokens (%d), got %d", tokens.length, values.length);
            }
        }

        /** Positions per example T. */
        public int positions() {
            return tokens.length / batchSize;
        }
    }

    /**
     * Real-valued targets for {@link io.regheads.core.head.GaussianMixture} and {@link
     * io.regheads.core.head.Scalar} outputs.
     *
     * @param y {@code [B]}, finite.
     */
    record Values(double[] y) implements Targets {
        /**
         * @param y the targets, {@code [B]}
         * @throws IllegalArgumentException if y is empty or not finite
         */
        public Values {
            Checks.allFinite("y", y);
            Checks.require(y.length > 0, "y must not be empty, got length 0");
        }

        @Override
        public int batchSize() {
            return y.length;
        }
    }
}
