package io.regheads.heads.mixture;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.StdNormal;

/**
 * The columns of B Gaussian mixtures with K components, their domain checks, and the two row kernels that the other
 * queries build on. Flat {@code [B * K]} weights, means and standard deviations (row b at {@code [b K, (b + 1) K)})
 * and, built on first use, the log-density constants {@code lt_k = log pi_k - log sigma_k - log sqrt(2 pi)}:
 * <pre>
 *   log p_b(y) = m + log sum_k exp(t_k - m),   t_k = lt_k - z_k^2 / 2,   m = max_k t_k   (log-sum-exp)
 *   F_b(y)     = min(1, sum_k pi_k Phi(z_k)),   z_k = (y - mu_k) / sigma_k
 * </pre>
 * The log density stays finite far into the tails (no probability-space underflow); the cdf has erfc-accurate tails.
 *
 * <p>Immutable once constructed (a checked construction renormalises the weights it owns first) and thread-safe: the
 * lazily built constants are identical whichever thread builds them, published through a volatile field.
 * Package-private.
 */
final class MixtureColumns {
    final int k;
    final int rows;
    final double[] weights; // [B * K], rows sum to 1
    final double[] means; // [B * K]
    final double[] sigmas; // [B * K]
    private volatile double[] logTerms; // [B * K]: log w - log sigma - log sqrt(2 pi); built on first use

    /**
     * Columns {@code [B * K]}, owned. With {@code check}: weights in [0, 1] summing to 1 per row within 1e-6
     * (renormalised here), finite means, finite positive sigmas; without, taken as they are.
     *
     * @throws IllegalArgumentException with {@code check}, on a value outside these domains, naming row and component
     */
    MixtureColumns(int k, double[] weights, double[] means, double[] sigmas, boolean check) {
        this.k = k;
        this.rows = weights.length / k;
        this.weights = weights;
        this.means = means;
        this.sigmas = sigmas;
        for (int b = 0; check && b < rows; b++) {
            double sum = 0;
            for (int j = b * k; j < (b + 1) * k; j++) {
                double w = weights[j];
                // explicit tests (no varargs boxing per element on this path of every prediction)
                if (!(w >= 0 && w <= 1)) {
                    throw new IllegalArgumentException("weights[" + b + "][" + (j - b * k) + "] (row " + b + ", component "
                            + (j - b * k) + ") must be in [0, 1], got " + w);
                }
                if (!Double.isFinite(means[j])) {
                    throw new IllegalArgumentException("means[" + b + "][" + (j - b * k) + "] (row " + b + ", component "
                            + (j - b * k) + ") must be finite, got " + means[j]);
                }
                if (!(sigmas[j] > 0 && Double.isFinite(sigmas[j]))) {
                    throw new IllegalArgumentException("sigmas[" + b + "][" + (j - b * k) + "] (row " + b + ", component "
                            + (j - b * k) + ") must be > 0 and finite, got " + sigmas[j]);
                }
                sum += w;
            }
            if (!(Math.abs(sum - 1) <= 1e-6)) {
                throw new IllegalArgumentException("weights of row " + b + " must sum to 1, got " + sum);
            }
            if (sum != 1) {
                for (int j = b * k; j < (b + 1) * k; j++) {
                    weights[j] /= sum;
                }
            }
        }
    }

    /** K of rows {@code [B][K]}: the length of the first row, after checking there is one. */
    static int componentsOf(double[][] weights) {
        Checks.require(weights != null && weights.length > 0, "weights must have at least one row");
        Checks.require(weights[0] != null, "weights row 0 must not be null");
        return Checks.atLeast("components K", weights[0].length, 1);
    }

    /** Column {@code which} (0 weights, 1 means, 2 sigmas) flattened, after the shape checks. */
    static double[] flat(double[][] weights, double[][] means, double[][] sigmas, int which) {
        int b = weights.length;
        int k = weights[0].length;
        Checks.require(means != null && means.length == b, "means must have %d rows", b);
        Checks.require(sigmas != null && sigmas.length == b, "sigmas must have %d rows", b);
        double[][] src = which == 0 ? weights : which == 1 ? means : sigmas;
        double[] out = new double[b * k];
        for (int i = 0; i < b; i++) {
            if (weights[i] == null || means[i] == null || sigmas[i] == null || weights[i].length != k
                    || means[i].length != k || sigmas[i].length != k) {
                throw new IllegalArgumentException("row " + i + " must have K = " + k + " weights, means and sigmas, got "
                        + len(weights[i]) + ", " + len(means[i]) + ", " + len(sigmas[i]));
            }
            System.arraycopy(src[i], 0, out, i * k, k);
        }
        return out;
    }

    private static String len(double[] a) {
        return a == null ? "null" : String.valueOf(a.length);
    }

    /** The constants {@code lt [B * K]}, built once (a racing thread builds the same array). */
    double[] logTerms() {
        double[] t = logTerms;
        if (t == null) {
            t = new double[weights.length];
            for (int j = 0; j < t.length; j++) {
                t[j] = Math.log(weights[j]) - Math.log(sigmas[j]) - StdNormal.LOG_SQRT_2PI;
            }
            logTerms = t;
        }
        return t;
    }

    /** log p_b(y) by log-sum-exp; {@code lt} from {@link #logTerms}, {@code terms} is scratch of length K. */
    double logDensity(double[] lt, int b, double y, double[] terms) {
        int o = b * k;
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < k; j++) {
            double z = (y - means[o + j]) / sigmas[o + j];
            terms[j] = lt[o + j] - 0.5 * z * z;
            max = Math.max(max, terms[j]);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        double s = 0;
        for (int j = 0; j < k; j++) {
            s += Math.exp(terms[j] - max);
        }
        return max + Math.log(s);
    }

    /** F_b(y). */
    double cdf(int b, double y) {
        int o = b * k;
        double s = 0;
        for (int j = o; j < o + k; j++) {
            s += weights[j] * StdNormal.cdf((y - means[j]) / sigmas[j]);
        }
        return Math.min(1, s);
    }
}
