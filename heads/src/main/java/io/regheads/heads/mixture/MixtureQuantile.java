package io.regheads.heads.mixture;

import io.regheads.core.internal.StdNormal;

/**
 * The quantiles of Gaussian mixtures: safeguarded Newton on the cdf inside a bracket that provably contains the
 * answer. With {@code z_p = Phi^-1(p)}, each component's p-quantile {@code mu_k + sigma_k z_p} brackets the mixture's,
 * so {@code F(lo) <= p <= F(hi)} for {@code lo = min_k (mu_k + sigma_k z_p)}, {@code hi = max_k (...)}. Each
 * iteration shrinks the bracket by the sign of {@code F(x) - p} and takes the Newton step {@code x - (F(x) - p) /
 * f(x)}, or bisects where that step leaves the bracket (or the density underflows); it stops when the step or the
 * bracket is within {@code 1e-13 max(1, |x|)}, after at most 200 iterations. {@code Q(0) = -inf}, {@code Q(1) = +inf}.
 * Package-private; stateless.
 */
final class MixtureQuantile {
    private MixtureQuantile() {}

    /** {@code Phi^-1(p)} for the bracket, computed once per level for all rows; NaN (unused) at p = 0 and p = 1. */
    static double normalQuantile(double p) {
        return p == 0 || p == 1 ? Double.NaN : StdNormal.quantile(p);
    }

    /**
     * The p-quantile of row b; {@code zp = normalQuantile(p)}, {@code lt = c.logTerms()}, {@code terms} scratch of
     * length K.
     */
    static double at(MixtureColumns c, double[] lt, int b, double p, double zp, double[] terms) {
        if (p == 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (p == 1) {
            return Double.POSITIVE_INFINITY;
        }
        // each component's p-quantile brackets the mixture's: cdf(lo) <= p <= cdf(hi)
        double[] means = c.means;
        double[] sigmas = c.sigmas;
        int k = c.k;
        int o = b * k;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int j = o; j < o + k; j++) {
            double q = means[j] + sigmas[j] * zp;
            lo = Math.min(lo, q);
            hi = Math.max(hi, q);
        }
        if (hi - lo <= 0) {
            return lo;
        }
        double x = 0.5 * (lo + hi);
        for (int it = 0; it < 200; it++) {
            double f = c.cdf(b, x) - p;
            if (f > 0) {
                hi = x;
            } else {
                lo = x;
            }
            double dens = Math.exp(c.logDensity(lt, b, x, terms));
            double next = x - f / dens;
            if (!(next > lo && next < hi) || dens == 0) {
                next = 0.5 * (lo + hi); // Newton left the bracket: bisect
            }
            if (Math.abs(next - x) <= 1e-13 * Math.max(1, Math.abs(x)) || hi - lo <= 1e-13 * Math.max(1, Math.abs(x))) {
                return next;
            }
            x = next;
        }
        return x;
    }
}
