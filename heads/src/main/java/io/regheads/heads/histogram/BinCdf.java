package io.regheads.heads.histogram;

import java.util.Arrays;

/**
 * The cdf of a histogram distribution's rows, at one y per row ({@link #at}) or on a grid shared by all rows ({@link
 * #grid}, which locates each grid point's bin once; the same numbers bit for bit):
 * <pre>
 *   F_b(y) = cum_{i-1} + p_i (y - b_i) / w_i                         b_i <= y < b_{i+1}  (b_n in the last bin)
 *          = p_0 2 Phi(-(b_1 - y) / s_0)                             y <= b_1            (with tails)
 *          = cum_{n-2} + p_{n-1} (1 - 2 Phi(-(y - b_{n-1}) / s_1))   y >= b_{n-1}        (with tails)
 *          = 0 below the support, 1 above it
 * </pre>
 * capped at 1 against rounding, with {@code cum} the rows' cumulative sums ({@link BinProbabilities#cumulative}).
 * Package-private; stateless.
 */
final class BinCdf {
    private BinCdf() {}

    /** {@code F_b(y)} of row b; {@code p} and {@code cum [B * n]}. */
    static double at(Bins bins, double[] p, double[] cum, int b, double y) {
        int n = bins.n;
        double[] borders = bins.borders;
        int o = b * n;
        if (bins.tails) {
            if (y <= borders[1]) {
                // p0 * P(HN >= b1 - y) = p0 * 2 Phi(-(b1 - y)/s)
                return p[o] * bins.leftTailCdf(y);
            }
            if (y >= borders[n - 1]) {
                double inTail = bins.rightTailCdf(y);
                return Math.min(1, cum[o + n - 2] + p[o + n - 1] * inTail);
            }
        }
        int i = bins.binOf(y);
        if (i < 0) {
            return 0;
        }
        if (i >= n) {
            return 1;
        }
        double below = i > 0 ? cum[o + i - 1] : 0;
        double frac = (y - borders[i]) / (borders[i + 1] - borders[i]);
        return Math.min(1, below + p[o + i] * frac);
    }

    /** {@code F_b(grid[g])} for every row b, as {@code [G][rows]}; {@code p}, {@code cum [rows * n]}; grid finite. */
    static double[][] grid(Bins bins, double[] p, double[] cum, int rows, double[] grid) {
        int n = bins.n;
        double[] borders = bins.borders;
        double[][] out = new double[grid.length][rows];
        for (int g = 0; g < grid.length; g++) {
            double y = grid[g];
            double[] row = out[g];
            if (bins.tails && y <= borders[1]) {
                double t = bins.leftTailCdf(y);
                for (int b = 0; b < rows; b++) {
                    row[b] = p[b * n] * t;
                }
            } else if (bins.tails && y >= borders[n - 1]) {
                double inTail = bins.rightTailCdf(y);
                for (int b = 0; b < rows; b++) {
                    row[b] = Math.min(1, cum[b * n + n - 2] + p[b * n + n - 1] * inTail);
                }
            } else {
                int i = bins.binOf(y);
                if (i < 0) {
                    continue; // zeros
                }
                if (i >= n) {
                    Arrays.fill(row, 1);
                    continue;
                }
                double frac = (y - borders[i]) / (borders[i + 1] - borders[i]);
                for (int b = 0; b < rows; b++) {
                    double below = i > 0 ? cum[b * n + i - 1] : 0;
                    row[b] = Math.min(1, below + p[b * n + i] * frac);
                }
            }
        }
        return out;
    }
}
