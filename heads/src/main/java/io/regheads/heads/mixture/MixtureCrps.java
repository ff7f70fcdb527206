package io.regheads.heads.mixture;

import io.regheads.core.internal.StdNormal;

/**
 * The exact CRPS of Gaussian mixtures (Grimit et al. 2006), in closed form, O(K^2) per row:
 * <pre>
 *   CRPS(F_b, y) = sum_k pi_k A(y - mu_k, sigma_k^2) - 1/2 sum_jk pi_j pi_k A(mu_j - mu_k, sigma_j^2 + sigma_k^2)
 *   A(m, s^2)    = E|N(m, s^2)| = 2 s phi(m / s) + m (2 Phi(m / s) - 1)
 * </pre>
 * Example: N(0, 1) at y = 0 gives {@code 2 phi(0) - 1 / sqrt(pi) = 0.2336950}. Package-private; stateless.
 */
final class MixtureCrps {
    private MixtureCrps() {}

    /** {@code CRPS(F_b, y[b])} of each row {@code [B]}; y {@code [B]} finite (checked by the caller). */
    static double[] crps(MixtureColumns c, double[] y) {
        double[] weights = c.weights;
        double[] means = c.means;
        double[] sigmas = c.sigmas;
        int k = c.k;
        int rows = c.rows;
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            int o = b * k;
            double first = 0;
            double second = 0;
            for (int i = 0; i < k; i++) {
                double wi = weights[o + i];
                first += wi * absMean(y[b] - means[o + i], sigmas[o + i] * sigmas[o + i]);
                for (int j = 0; j < k; j++) {
                    second += wi * weights[o + j] * absMean(means[o + i] - means[o + j],
                            sigmas[o + i] * sigmas[o + i] + sigmas[o + j] * sigmas[o + j]);
                }
            }
            out[b] = first - 0.5 * second;
        }
        return out;
    }

    /** {@code E|N(m, v)| = 2 s phi(m / s) + m (2 Phi(m / s) - 1)}, s = sqrt(v). */
    private static double absMean(double m, double v) {
        double s = Math.sqrt(v);
        double z = m / s;
        return 2 * s * StdNormal.pdf(z) + m * (2 * StdNormal.cdf(z) - 1);
    }
}
