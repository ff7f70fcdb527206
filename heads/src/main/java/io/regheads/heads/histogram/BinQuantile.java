package io.regheads.heads.histogram;

/**
 * The exact quantiles of a histogram distribution's rows: the level q falls in the first bin i with {@code cum_i >=
 * q} and {@code p_i > 0}, found by binary search in the cumulative sums ({@code O(log n)}), and inside it at the share
 * {@code r = (q - cum_{i-1}) / p_i}:
 * <pre>
 *   Q_b(q) = b_i + w_i r                           inside bin i
 *          = b_1 + s_0 Phi^-1(r / 2)               in the left tail
 *          = b_{n-1} + s_1 Phi^-1(1/2 + r / 2)     in the right tail
 * </pre>
 * {@code Q(0)} is -inf with tails, else the first border of a non-empty bin; {@code Q(1)} is +inf with tails. Levels
 * on a run of empty bins give the smallest y that reaches them. Package-private; stateless.
 */
final class BinQuantile {
    private BinQuantile() {}

    /** {@code Q_b(q)} of row b for q in [0, 1]; {@code p} and {@code cum [B * n]}. */
    static double at(Bins bins, double[] p, double[] cum, int b, double q) {
        int n = bins.n;
        double[] borders = bins.borders;
        int o = b * n;
        if (q == 0) {
            return bins.tails ? Double.NEGATIVE_INFINITY : firstNonEmptyBorder(bins, p, b);
        }
        if (q == 1 && bins.tails) {
            return Double.POSITIVE_INFINITY;
        }
        // smallest i with cum_i >= q and p_i > 0 (or n - 1): binary search for the first cum_i >= q among the first
        // n - 1 bins (both updates are selects, which the JIT compiles without branches: a search's branches are
        // unpredictable), then past empty bins
        int i = 0;
        int len = n - 1;
        while (len > 0) {
            int half = len >>> 1;
            boolean below = cum[o + i + half] < q;
            i = below ? i + half + 1 : i;
            len = below ? len - half - 1 : half;
        }
        while (i < n - 1 && p[o + i] == 0) {
            i++;
        }
        while (p[o + i] == 0 && i > 0) {
            i--; // rounding left q above every cumulative sum: the last non-empty bin
        }
        double below = i > 0 ? cum[o + i - 1] : 0;
        double r = Math.min(1, Math.max(0, (q - below) / p[o + i])); // level inside bin i
        if (bins.tails && i == 0) {
            return bins.leftTailQuantile(r);
        }
        if (bins.tails && i == n - 1) {
            return bins.rightTailQuantile(r);
        }
        return borders[i] + (borders[i + 1] - borders[i]) * r;
    }

    private static double firstNonEmptyBorder(Bins bins, double[] p, int b) {
        int o = b * bins.n;
        for (int i = 0; i < bins.n; i++) {
            if (p[o + i] > 0) {
                return bins.borders[i];
            }
        }
        return bins.borders[0];
    }
}
