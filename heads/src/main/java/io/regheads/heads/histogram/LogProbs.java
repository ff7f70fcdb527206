package io.regheads.heads.histogram;

/**
 * The exact log probabilities a {@link HistogramDistribution} may keep beside its probabilities, and {@code log p} of
 * a bin read through them ({@link #of}): the kept value where the row has one, else {@code log(probs)}. Kept values
 * stay finite for bins whose probability underflows to 0 in double.
 *
 * <p>Layout: n values per kept row; row b's are at {@code slot[b] * n} ({@code slot[b] < 0}: none, {@code log probs}
 * is accurate), or at {@code b * n} when {@code slot} is null (every row kept); {@code values} null: none kept.
 * Immutable (the arrays are owned); package-private.
 */
final class LogProbs {
    private final int n;
    private final double[] values; // n per kept row, or null
    private final int[] slot; // [B] or null

    /**
     * @param n      bins per row
     * @param values the kept log probabilities (owned), or null for none
     * @param slot   {@code [B]} where row b's values start, in units of n (negative: none), or null for row b at
     *               {@code b}
     */
    LogProbs(int n, double[] values, int[] slot) {
        this.n = n;
        this.values = values;
        this.slot = slot;
    }

    /** {@code log p} of bin i of row b: exact when kept, else {@code log(p[b n + i])}. */
    double of(double[] p, int b, int i) {
        if (values != null) {
            int s = slot == null ? b : slot[b];
            if (s >= 0) {
                return values[s * n + i];
            }
        }
        return Math.log(p[b * n + i]);
    }
}
