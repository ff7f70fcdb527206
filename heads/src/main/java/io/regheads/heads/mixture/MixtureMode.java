package io.regheads.heads.mixture;

/**
 * The modes of Gaussian mixtures. Every mode of a Gaussian mixture lies in the convex hull of its means: hill-climbing
 * ({@code climb}) from every component mean of non-zero weight finds the local maxima, and the one of highest density
 * wins (the first one found on a tie). Package-private; stateless.
 */
final class MixtureMode {
    private MixtureMode() {}

    /** The mode of each row {@code [B]}. */
    static double[] modes(MixtureColumns c) {
        double[] weights = c.weights;
        double[] means = c.means;
        double[] lt = c.logTerms();
        int k = c.k;
        int rows = c.rows;
        double[] terms = new double[k];
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            double best = Double.NaN;
            double bestLog = Double.NEGATIVE_INFINITY;
            for (int j = b * k; j < (b + 1) * k; j++) {
                if (weights[j] == 0) {
                    continue;
                }
                double x = climb(c, lt, b, means[j], terms);
                double l = c.logDensity(lt, b, x, terms);
                if (l > bestLog) {
                    bestLog = l;
                    best = x;
                }
            }
            out[b] = best;
        }
        return out;
    }

    /**
     * Hill-climbs the density from {@code x}. Each step is a Newton step on {@code d/dy log p = 0} when the log
     * density is concave there and the step raises the density; otherwise the mean-shift fixed point {@code x <-
     * sum_k r_k mu_k / sigma_k^2 / sum_k r_k / sigma_k^2} (responsibilities r_k), which never lowers the density.
     * Newton keeps convergence fast at flat (degenerate) maxima where mean-shift alone crawls.
     */
    private static double climb(MixtureColumns c, double[] lt, int b, double x, double[] t) {
        double[] means = c.means;
        double[] sigmas = c.sigmas;
        int k = c.k;
        int o = b * k;
        for (int it = 0; it < 1000; it++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                double z = (x - means[o + j]) / sigmas[o + j];
                t[j] = lt[o + j] - 0.5 * z * z;
                max = Math.max(max, t[j]);
            }
            double rs = 0;
            double num = 0;
            double den = 0;
            double g = 0;
            double g2 = 0;
            for (int j = 0; j < k; j++) {
                double r = Math.exp(t[j] - max);
                double inv = 1 / (sigmas[o + j] * sigmas[o + j]);
                double u = -(x - means[o + j]) * inv; // d/dx log N_j
                rs += r;
                num += r * inv * means[o + j];
                den += r * inv;
                g += r * u;
                g2 += r * (u * u - inv);
            }
            g /= rs;
            double h = g2 / rs - g * g; // d2/dx2 log p
            double next = num / den;
            if (h < 0) {
                double newton = x - g / h;
                double lx = c.logDensity(lt, b, x, t);
                if (c.logDensity(lt, b, newton, t) >= lx - 4 * Math.ulp(lx)) { // equal up to rounding on a flat top
                    next = newton;
                }
            }
            if (Math.abs(next - x) <= 1e-15 * Math.max(1, Math.abs(x)) || g == 0) {
                return next;
            }
            x = next;
        }
        return x;
    }
}
