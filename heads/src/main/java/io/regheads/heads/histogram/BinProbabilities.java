package io.regheads.heads.histogram;

import io.regheads.core.check.Checks;

/**
 * The rows of bin probabilities a {@link HistogramDistribution} holds, flat {@code [B * n]} (row b at {@code [b n, (b
 * + 1) n)}): the reference softmax with exact log probabilities ({@link #exactRow}, which the fast kernels of {@code
 * BinSoftmax} are compared against), the check and renormalisation of given probabilities ({@link #normalised}), and
 * the cumulative sums that the cdf and the quantiles read ({@link #cumulative}). Package-private; stateless.
 */
final class BinProbabilities {
    private BinProbabilities() {}

    /**
     * One row's softmax in double with {@link Math#exp} and its exact log probabilities: {@code z[from, from + n)}
     * (finite) into {@code p} and {@code lp} at {@code o}:
     * <pre>
     *   p_i = exp(z_i - max) / s / t,   s = sum_i exp(z_i - max),   t = sum_i exp(z_i - max) / s  (~ 1)
     *   lp_i = z_i - max - log s - log t
     * </pre>
     * The second renormalisation (by t) only shifts the exact logs by {@code log t}. Used by {@link
     * HistogramDistribution#fromLogits}, {@link HistogramDistribution#tempered} and the heads' reference paths.
     */
    static void exactRow(double[] z, int from, int n, double[] p, double[] lp, int o) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, z[from + i]);
        }
        double s = 0;
        for (int i = 0; i < n; i++) {
            p[o + i] = Math.exp(z[from + i] - max);
            s += p[o + i];
        }
        double logS = Math.log(s);
        double t = 0;
        for (int i = 0; i < n; i++) {
            p[o + i] /= s;
            t += p[o + i];
        }
        // renormalise once more (t ~ 1 up to rounding), which only shifts the exact logs by log t
        double logT = Math.log(t);
        for (int i = 0; i < n; i++) {
            p[o + i] /= t;
            lp[o + i] = z[from + i] - max - logS - logT;
        }
    }

    /**
     * Given probabilities {@code [B][n]} checked and flattened, each row divided by its sum.
     *
     * @throws IllegalArgumentException on no rows, a row without n entries, an entry outside [0, 1] or a row whose
     *                                  sum is not within 1e-6 of 1, naming the row (and the bin)
     */
    static double[] normalised(double[][] probs, int n) {
        Checks.require(probs != null && probs.length > 0, "probs must have at least one row");
        double[] flat = new double[probs.length * n];
        for (int b = 0; b < probs.length; b++) {
            if (probs[b].length != n) {
                throw new IllegalArgumentException("probs row " + b + " must have n = " + n + " entries, got " + probs[b].length);
            }
            double s = 0;
            for (int i = 0; i < n; i++) {
                double p = probs[b][i];
                if (!(p >= 0 && p <= 1)) { // explicit test: no varargs boxing per element
                    throw new IllegalArgumentException("probs[" + b + "][" + i + "] must be in [0, 1], got " + p);
                }
                s += p;
            }
            if (!(Math.abs(s - 1) <= 1e-6)) {
                throw new IllegalArgumentException("probs of row " + b + " must sum to 1, got " + s);
            }
            for (int i = 0; i < n; i++) {
                flat[b * n + i] = probs[b][i] / s;
            }
        }
        return flat;
    }

    /**
     * The cumulative sums {@code cum_i = p_0 + ... + p_i} of each of the {@code rows} rows of {@code p [rows * n]},
     * summed left to right, with the last of each row set to exactly 1.
     */
    static double[] cumulative(double[] p, int rows, int n) {
        double[] c = new double[p.length];
        for (int b = 0; b < rows; b++) {
            int o = b * n;
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += p[o + i];
                c[o + i] = s;
            }
            c[o + n - 1] = 1;
        }
        return c;
    }
}
