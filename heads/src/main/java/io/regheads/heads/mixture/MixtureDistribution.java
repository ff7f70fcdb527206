package io.regheads.heads.mixture;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.StdNormal;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * B univariate Gaussian mixtures {@code p(y) = sum_k pi_k N(y; mu_k, sigma_k^2)} with K components each: the
 * predictive distribution of the mixture density head (and, with K = 1, of a pointwise head with a noise level).
 *
 * <ul>
 *   <li>log-density by log-sum-exp, finite far into the tails (no probability-space underflow);
 *   <li>cdf {@code sum_k pi_k Phi((y - mu_k) / sigma_k)} with erfc-accurate tails;
 *   <li>quantiles by safeguarded Newton on the cdf inside a bracket that provably contains the answer
 *       ({@code [min_k mu_k + sigma_k Phi^-1(p), max_k mu_k + sigma_k Phi^-1(p)]}), to 1e-12 relative;
 *   <li>mean {@code sum pi mu}, variance {@code sum pi (sigma^2 + mu^2) - mean^2} exactly;
 *   <li>mode: every mode of a Gaussian mixture lies in the convex hull of the means; fixed-point (mean-shift)
 *       iterations started from every component mean find the local maxima, and the one of highest density wins;
 *   <li>sampling: component by inverse cdf on the cumulative weights (guarded against rounding past the end),
 *       then a ziggurat normal.
 * </ul>
 *
 * <p>Example: weights (0.5, 0.5), means (-1, 1), sigmas (1, 1): mean 0, variance 2, cdf(0) = 0.5, density at 0 =
 * phi(1) = 0.24197.
 *
 * <p>Immutable (inputs are copied) and thread-safe.
 */
public final class MixtureDistribution implements PredictiveDistribution {
    private final double[][] weights; // [B][K], sums to 1
    private final double[][] logWeights; // [B][K]
    private final double[][] means; // [B][K]
    private final double[][] sigmas; // [B][K]

    /**
     * @param weights {@code [B][K]} non-negative, each row summing to 1 (within 1e-6; renormalised exactly)
     * @param means   {@code [B][K]} finite
     * @param sigmas  {@code [B][K]} finite and > 0
     * @throws IllegalArgumentException on empty input, ragged rows or values outside these domains
     */
    public MixtureDistribution(double[][] weights, double[][] means, double[][] sigmas) {
        Checks.require(weights != null && weights.length > 0, "weights must have at least one row");
        int b = weights.length;
        Checks.require(means != null && means.length == b, "means must have %d rows", b);
        Checks.require(sigmas != null && sigmas.length == b, "sigmas must have %d rows", b);
        int k = weights[0].length;
        Checks.atLeast("components K", k, 1);
        this.weights = new double[b][k];
        this.logWeights = new double[b][k];
        this.means = new double[b][];
        this.sigmas = new double[b][];
        for (int i = 0; i < b; i++) {
            if (weights[i].length != k || means[i].length != k || sigmas[i].length != k) {
                throw new IllegalArgumentException("row " + i + " must have K = " + k + " weights, means and sigmas, got "
                        + weights[i].length + ", " + means[i].length + ", " + sigmas[i].length);
            }
            double sum = 0;
            for (int j = 0; j < k; j++) {
                double w = weights[i][j];
                // explicit tests (no varargs boxing per element on this path of every prediction)
                if (!(w >= 0 && w <= 1)) {
                    throw new IllegalArgumentException("weights[" + i + "][" + j + "] (row " + i + ", component " + j
                            + ") must be in [0, 1], got " + w);
                }
                if (!Double.isFinite(means[i][j])) {
                    throw new IllegalArgumentException("means[" + i + "][" + j + "] (row " + i + ", component " + j
                            + ") must be finite, got " + means[i][j]);
                }
                if (!(sigmas[i][j] > 0 && Double.isFinite(sigmas[i][j]))) {
                    throw new IllegalArgumentException("sigmas[" + i + "][" + j + "] (row " + i + ", component " + j
                            + ") must be > 0 and finite, got " + sigmas[i][j]);
                }
                sum += w;
            }
            if (!(Math.abs(sum - 1) <= 1e-6)) {
                throw new IllegalArgumentException("weights of row " + i + " must sum to 1, got " + sum);
            }
            for (int j = 0; j < k; j++) {
                this.weights[i][j] = weights[i][j] / sum;
                this.logWeights[i][j] = Math.log(this.weights[i][j]);
            }
            this.means[i] = means[i].clone();
            this.sigmas[i] = sigmas[i].clone();
        }
    }

    /** Builds the mixture from unnormalised log-weights (softmax applied stably), as a head emits them. */
    public static MixtureDistribution fromLogits(double[][] weightLogits, double[][] means, double[][] sigmas) {
        Checks.require(weightLogits != null && weightLogits.length > 0, "weightLogits must have at least one row");
        double[][] w = new double[weightLogits.length][];
        for (int i = 0; i < w.length; i++) {
            double[] z = weightLogits[i];
            double max = Double.NEGATIVE_INFINITY;
            for (double v : z) {
                if (!Double.isFinite(v)) { // explicit test: the message is built only when it is needed
                    throw new IllegalArgumentException("weightLogits[" + i + "] (row " + i + ") must be finite, got "
                            + Arrays.toString(z));
                }
                max = Math.max(max, v);
            }
            double s = 0;
            w[i] = new double[z.length];
            for (int j = 0; j < z.length; j++) {
                w[i][j] = Math.exp(z[j] - max);
                s += w[i][j];
            }
            for (int j = 0; j < z.length; j++) {
                w[i][j] /= s;
            }
        }
        return new MixtureDistribution(w, means, sigmas);
    }

    /** A single Gaussian per row: {@code N(mu[b], sigma[b]^2)}. */
    public static MixtureDistribution gaussian(double[] mu, double[] sigma) {
        double[][] w = new double[mu.length][];
        double[][] m = new double[mu.length][];
        double[][] s = new double[mu.length][];
        Checks.require(sigma.length == mu.length, "sigma must have length %d, got %d", mu.length, sigma.length);
        for (int i = 0; i < mu.length; i++) {
            w[i] = new double[] {1};
            m[i] = new double[] {mu[i]};
            s[i] = new double[] {sigma[i]};
        }
        return new MixtureDistribution(w, m, s);
    }

    @Override
    public int batchSize() {
        return weights.length;
    }

    /** Components K. */
    public int components() {
        return weights[0].length;
    }

    /** A copy of the normalised weights {@code [B][K]}. */
    public double[][] weights() {
        return deepCopy(weights);
    }

    /** A copy of the means {@code [B][K]}. */
    public double[][] means() {
        return deepCopy(means);
    }

    /** A copy of the standard deviations {@code [B][K]}. */
    public double[][] sigmas() {
        return deepCopy(sigmas);
    }

    private static double[][] deepCopy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }

    private void checkY(double[] y) {
        Checks.rowValues("y", y, batchSize());
    }

    private double logDensity(int b, double y) {
        double[] lw = logWeights[b];
        double[] mu = means[b];
        double[] sd = sigmas[b];
        double max = Double.NEGATIVE_INFINITY;
        double[] terms = new double[lw.length];
        for (int k = 0; k < lw.length; k++) {
            double z = (y - mu[k]) / sd[k];
            terms[k] = lw[k] + StdNormal.logPdf(z) - Math.log(sd[k]);
            max = Math.max(max, terms[k]);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        double s = 0;
        for (double t : terms) {
            s += Math.exp(t - max);
        }
        return max + Math.log(s);
    }

    private double cdf(int b, double y) {
        double s = 0;
        for (int k = 0; k < weights[b].length; k++) {
            s += weights[b][k] * StdNormal.cdf((y - means[b][k]) / sigmas[b][k]);
        }
        return Math.min(1, s);
    }

    @Override
    public double[] logDensity(double[] y) {
        checkY(y);
        double[] out = new double[y.length];
        for (int b = 0; b < y.length; b++) {
            out[b] = logDensity(b, y[b]);
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        checkY(y);
        double[] out = new double[y.length];
        for (int b = 0; b < y.length; b++) {
            out[b] = cdf(b, y[b]);
        }
        return out;
    }

    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.inClosedRange("p", p, 0, 1);
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            out[b] = quantile(b, p);
        }
        return out;
    }

    private double quantile(int b, double p) {
        if (p == 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (p == 1) {
            return Double.POSITIVE_INFINITY;
        }
        // each component's p-quantile brackets the mixture's: cdf(lo) <= p <= cdf(hi)
        double zp = StdNormal.quantile(p);
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < means[b].length; k++) {
            double q = means[b][k] + sigmas[b][k] * zp;
            lo = Math.min(lo, q);
            hi = Math.max(hi, q);
        }
        if (hi - lo <= 0) {
            return lo;
        }
        double x = 0.5 * (lo + hi);
        for (int it = 0; it < 200; it++) {
            double f = cdf(b, x) - p;
            if (f > 0) {
                hi = x;
            } else {
                lo = x;
            }
            double dens = Math.exp(logDensity(b, x));
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

    @Override
    public double[] mean() {
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            double s = 0;
            for (int k = 0; k < means[b].length; k++) {
                s += weights[b][k] * means[b][k];
            }
            out[b] = s;
        }
        return out;
    }

    @Override
    public double[] variance() {
        double[] m = mean();
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            double s = 0;
            for (int k = 0; k < means[b].length; k++) {
                double d = means[b][k] - m[b];
                s += weights[b][k] * (sigmas[b][k] * sigmas[b][k] + d * d); // centred: no cancellation
            }
            out[b] = s;
        }
        return out;
    }

    @Override
    public double[] mode() {
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            double best = Double.NaN;
            double bestLog = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < means[b].length; k++) {
                if (weights[b][k] == 0) {
                    continue;
                }
                double x = climb(b, means[b][k]);
                double l = logDensity(b, x);
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
    private double climb(int b, double x) {
        int k = means[b].length;
        double[] t = new double[k];
        for (int it = 0; it < 1000; it++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                double z = (x - means[b][j]) / sigmas[b][j];
                t[j] = logWeights[b][j] - 0.5 * z * z - Math.log(sigmas[b][j]);
                max = Math.max(max, t[j]);
            }
            double rs = 0;
            double num = 0;
            double den = 0;
            double g = 0;
            double g2 = 0;
            for (int j = 0; j < k; j++) {
                double r = Math.exp(t[j] - max);
                double inv = 1 / (sigmas[b][j] * sigmas[b][j]);
                double u = -(x - means[b][j]) * inv; // d/dx log N_j
                rs += r;
                num += r * inv * means[b][j];
                den += r * inv;
                g += r * u;
                g2 += r * (u * u - inv);
            }
            g /= rs;
            double h = g2 / rs - g * g; // d2/dx2 log p
            double next = num / den;
            if (h < 0) {
                double newton = x - g / h;
                double lx = logDensity(b, x);
                if (logDensity(b, newton) >= lx - 4 * Math.ulp(lx)) { // equal up to rounding on a flat top
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

    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        Checks.notNull("rng", rng);
        Checks.atLeast("n", n, 0);
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        int bs = batchSize();
        double[][] out = new double[n][bs];
        double[][] cum = new double[bs][];
        for (int b = 0; b < bs; b++) {
            cum[b] = new double[weights[b].length];
            double c = 0;
            for (int k = 0; k < cum[b].length; k++) {
                c += weights[b][k];
                cum[b][k] = c;
            }
        }
        for (int s = 0; s < n; s++) {
            for (int b = 0; b < bs; b++) {
                double u = rng.nextDouble() * cum[b][cum[b].length - 1];
                int k = 0;
                while (k < cum[b].length - 1 && cum[b][k] <= u) {
                    k++;
                }
                out[s][b] = means[b][k] + sigmas[b][k] * gauss.sample();
            }
        }
        return out;
    }

    @Override
    public double[] supportLowerBound() {
        double[] v = new double[batchSize()];
        Arrays.fill(v, Double.NEGATIVE_INFINITY);
        return v;
    }

    @Override
    public double[] supportUpperBound() {
        double[] v = new double[batchSize()];
        Arrays.fill(v, Double.POSITIVE_INFINITY);
        return v;
    }
}
