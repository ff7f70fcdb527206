package io.regheads.heads.histogram;

import java.util.Arrays;

/**
 * The log density of a histogram distribution's rows, at one y per row ({@link #at}) or on a grid shared by all rows
 * ({@link #grid}, which locates each grid point's bin once; the same numbers bit for bit):
 * <pre>
 *   log f_b(y) = log p_i - log w_i                        b_i <= y < b_{i+1}  (b_n in the last bin)
 *              = log p_0 + log HN_{s_0}(b_1 - y)          y <= b_1            (with tails)
 *              = log p_{n-1} + log HN_{s_1}(y - b_{n-1})  y >= b_{n-1}        (with tails)
 *              = -inf                                     outside the support
 * </pre>
 * with {@code log p} read through {@link LogProbs}, so it stays finite inside the support where a bin's probability
 * underflows to 0 in double. Package-private; stateless.
 */
final class BinDensity {
    private BinDensity() {}

    /** {@code log f_b(y)} of row b; {@code p [B * n]}. */
    static double at(Bins bins, LogProbs logProbs, double[] p, int b, double y) {
        int n = bins.n;
        double[] borders = bins.borders;
        if (bins.tails) {
            if (y <= borders[1]) {
                return logProbs.of(p, b, 0) + bins.leftTailLogPdf(y);
            }
            if (y >= borders[n - 1]) {
                return logProbs.of(p, b, n - 1) + bins.rightTailLogPdf(y);
            }
        }
        int i = bins.binOf(y);
        if (i < 0 || i >= n) {
            return Double.NEGATIVE_INFINITY;
        }
        return logProbs.of(p, b, i) - Math.log(borders[i + 1] - borders[i]);
    }

    /** {@code log f_b(grid[g])} for every row b, as {@code [G][rows]}; {@code p [rows * n]}, grid finite. */
    static double[][] grid(Bins bins, LogProbs logProbs, double[] p, int rows, double[] grid) {
        int n = bins.n;
        double[] borders = bins.borders;
        double[][] out = new double[grid.length][rows];
        for (int g = 0; g < grid.length; g++) {
            double y = grid[g];
            double[] row = out[g];
            if (bins.tails && y <= borders[1]) {
                double t = bins.leftTailLogPdf(y);
                for (int b = 0; b < rows; b++) {
                    row[b] = logProbs.of(p, b, 0) + t;
                }
            } else if (bins.tails && y >= borders[n - 1]) {
                double t = bins.rightTailLogPdf(y);
                for (int b = 0; b < rows; b++) {
                    row[b] = logProbs.of(p, b, n - 1) + t;
                }
            } else {
                int i = bins.binOf(y);
                if (i < 0 || i >= n) {
                    Arrays.fill(row, Double.NEGATIVE_INFINITY);
                    continue;
                }
                double logW = Math.log(borders[i + 1] - borders[i]);
                for (int b = 0; b < rows; b++) {
                    row[b] = logProbs.of(p, b, i) - logW;
                }
            }
        }
        return out;
    }
}
