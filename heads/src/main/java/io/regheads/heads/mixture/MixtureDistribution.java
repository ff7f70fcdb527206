package io.regheads.heads.mixture;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.Temperable;
import io.regheads.core.check.Checks;
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
 *       ({@code [min_k mu_k + sigma_k Phi^-1(p), max_k mu_k + sigma_k Phi^-1(p)]}), to {@code 1e-13 max(1, |x|)};
 *   <li>mean {@code sum pi mu}, variance {@code sum pi (sigma^2 + (mu - mean)^2)} (the centred form of {@code
 *       sum pi (sigma^2 + mu^2) - mean^2}, free of cancellation);
 *   <li>mode: every mode of a Gaussian mixture lies in the convex hull of the means; fixed-point (mean-shift)
 *       iterations started from every component mean find the local maxima, and the one of highest density wins;
 *   <li>sampling: component by inverse cdf on the cumulative weights (guarded against rounding past the end),
 *       then a ziggurat normal.
 * </ul>
 *
 * <p>Example: weights (0.5, 0.5), means (-1, 1), sigmas (1, 1): mean 0, variance 2, cdf(0) = 0.5, density at 0 =
 * phi(1) = 0.24197.
 *
 * <p><b>Layout.</b> Columnar: flat {@code double[B * K]} arrays of weights, means and standard deviations (row b at
 * {@code [b K, (b + 1) K)}) and, built on first use, one of the log-density constants {@code log pi_k - log
 * sigma_k - log sqrt(2 pi)}; no per-row objects or per-row allocations in any query. {@link #quantiles} computes
 * every level's normal quantile once for all rows and returns the single-level method's numbers bit for bit.
 *
 * <p><b>Where the arithmetic lives.</b> This class answers the queries; package-private classes beside it hold one
 * concern each: {@code MixtureColumns} (the columns, their checks, the log-density and cdf kernels), {@code
 * MixtureQuantile}, {@code MixtureMode} and {@code MixtureCrps}.
 *
 * <p>Immutable (inputs are copied) and thread-safe (the lazily built constants are identical whichever thread
 * builds them, published through a volatile field).
 */
public final class MixtureDistribution implements PredictiveDistribution, Temperable {
    private final MixtureColumns columns; // weights, means, sigmas [B * K]
    private final int rows; // B = columns.rows
    private final int k; // K = columns.k

    /**
     * @param weights {@code [B][K]} non-negative, each row summing to 1 (within 1e-6; renormalised exactly)
     * @param means   {@code [B][K]} finite
     * @param sigmas  {@code [B][K]} finite and > 0
     * @throws IllegalArgumentException on empty input, ragged rows or values outside these domains
     */
    public MixtureDistribution(double[][] weights, double[][] means, double[][] sigmas) {
        this(MixtureColumns.componentsOf(weights), MixtureColumns.flat(weights, means, sigmas, 0),
                MixtureColumns.flat(weights, means, sigmas, 1), MixtureColumns.flat(weights, means, sigmas, 2));
    }

    /**
     * Columns {@code [B * K]} (owned by the new object): weights normalised per row up to 1e-6 (renormalised here),
     * finite means, finite positive sigmas.
     *
     * @throws IllegalArgumentException on a value outside these domains, naming row and component
     */
    MixtureDistribution(int k, double[] weights, double[] means, double[] sigmas) {
        this(k, weights, means, sigmas, true);
    }

    /**
     * Columns that satisfy the constructor's domains by construction, taken as they are (no checks, no
     * renormalisation): the mixture head's builder, whose weights are {@code e_j / sum_j e_j} of a stable softmax
     * (in [0, 1], summing to 1 within rounding) and whose means and sigmas come from finite outputs.
     */
    static MixtureDistribution normalised(int k, double[] weights, double[] means, double[] sigmas) {
        return new MixtureDistribution(k, weights, means, sigmas, false);
    }

    private MixtureDistribution(int k, double[] weights, double[] means, double[] sigmas, boolean check) {
        this.columns = new MixtureColumns(k, weights, means, sigmas, check);
        this.rows = columns.rows;
        this.k = k;
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
        Checks.require(mu != null && mu.length > 0, "mu must have at least one row");
        Checks.require(sigma != null && sigma.length == mu.length, "sigma must have length %d, got %s", mu.length,
                sigma == null ? "null" : String.valueOf(sigma.length));
        double[] w = new double[mu.length];
        Arrays.fill(w, 1.0);
        return new MixtureDistribution(1, w, mu.clone(), sigma.clone());
    }

    @Override
    public int batchSize() {
        return rows;
    }

    /** Components K. */
    public int components() {
        return k;
    }

    /** A copy of the normalised weights {@code [B][K]}. */
    public double[][] weights() {
        return rowsOf(columns.weights);
    }

    /** A copy of the means {@code [B][K]}. */
    public double[][] means() {
        return rowsOf(columns.means);
    }

    /** A copy of the standard deviations {@code [B][K]}. */
    public double[][] sigmas() {
        return rowsOf(columns.sigmas);
    }

    private double[][] rowsOf(double[] a) {
        double[][] c = new double[rows][];
        for (int b = 0; b < rows; b++) {
            c[b] = Arrays.copyOfRange(a, b * k, (b + 1) * k);
        }
        return c;
    }

    private void checkY(double[] y) {
        Checks.rowValues("y", y, rows);
    }

    @Override
    public double[] logDensity(double[] y) {
        checkY(y);
        double[] lt = columns.logTerms();
        double[] terms = new double[k];
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = columns.logDensity(lt, b, y[b], terms);
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        checkY(y);
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = columns.cdf(b, y[b]);
        }
        return out;
    }

    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.inClosedRange("p", p, 0, 1);
        double zp = MixtureQuantile.normalQuantile(p);
        double[] lt = columns.logTerms();
        double[] terms = new double[k];
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = MixtureQuantile.at(columns, lt, b, p, zp, terms);
        }
        return out;
    }

    @Override
    public double[] mean() {
        double[] weights = columns.weights;
        double[] means = columns.means;
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            double s = 0;
            for (int j = b * k; j < (b + 1) * k; j++) {
                s += weights[j] * means[j];
            }
            out[b] = s;
        }
        return out;
    }

    @Override
    public double[] variance() {
        double[] m = mean();
        double[] weights = columns.weights;
        double[] means = columns.means;
        double[] sigmas = columns.sigmas;
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            double s = 0;
            for (int j = b * k; j < (b + 1) * k; j++) {
                double d = means[j] - m[b];
                s += weights[j] * (sigmas[j] * sigmas[j] + d * d); // centred: no cancellation
            }
            out[b] = s;
        }
        return out;
    }

    @Override
    public double[] mode() {
        return MixtureMode.modes(columns);
    }

    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        Checks.notNull("rng", rng);
        Checks.atLeast("n", n, 0);
        double[] weights = columns.weights;
        double[] means = columns.means;
        double[] sigmas = columns.sigmas;
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] out = new double[n][rows];
        double[] cum = new double[weights.length]; // [B * K] cumulative weights per row
        for (int b = 0; b < rows; b++) {
            double c = 0;
            for (int j = b * k; j < (b + 1) * k; j++) {
                c += weights[j];
                cum[j] = c;
            }
        }
        for (int s = 0; s < n; s++) {
            for (int b = 0; b < rows; b++) {
                int o = b * k;
                double u = rng.nextDouble() * cum[o + k - 1];
                int j = 0;
                while (j < k - 1 && cum[o + j] <= u) {
                    j++;
                }
                out[s][b] = means[o + j] + sigmas[o + j] * gauss.sample();
            }
        }
        return out;
    }

    /**
     * The mixture at temperature t ({@link Temperable}): weights {@code w^(1/t)} renormalised per row (the softmax of
     * the log-weights over t), scales {@code t sigma}, means unchanged. For K = 1 (a pointwise or xVal head): {@code
     * N(mu, (t sigma)^2)}.
     */
    @Override
    public MixtureDistribution tempered(double t) {
        Checks.positive("t", t);
        if (t == 1) {
            return this;
        }
        double[] weights = columns.weights;
        double[] sigmas = columns.sigmas;
        double[] w = new double[weights.length];
        double[] s = new double[sigmas.length];
        for (int b = 0; b < rows; b++) {
            int o = b * k;
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                double lw = weights[o + j] > 0 ? Math.log(weights[o + j]) / t : Double.NEGATIVE_INFINITY;
                w[o + j] = lw;
                max = Math.max(max, lw);
            }
            double sum = 0;
            for (int j = 0; j < k; j++) {
                w[o + j] = Math.exp(w[o + j] - max);
                sum += w[o + j];
            }
            for (int j = 0; j < k; j++) {
                w[o + j] /= sum;
                s[o + j] = t * sigmas[o + j];
            }
        }
        return new MixtureDistribution(k, w, columns.means.clone(), s);
    }

    /**
     * Exact CRPS of a Gaussian mixture (Grimit et al. 2006): {@code sum_k pi_k A(y - mu_k, sigma_k^2) - 1/2 sum_jk
     * pi_j pi_k A(mu_j - mu_k, sigma_j^2 + sigma_k^2)} with {@code A(m, s^2) = 2 s phi(m / s) + m (2 Phi(m / s) -
     * 1)}, the mean of |N(m, s^2)|. O(K^2) per row. Example: N(0, 1) at y = 0 gives {@code 2 phi(0) - 1 / sqrt(pi) =
     * 0.2336950}.
     */
    @Override
    public double[] crps(double[] y) {
        Checks.rowValues("y", y, rows);
        Checks.allFinite("y", y);
        return MixtureCrps.crps(columns, y);
    }

    @Override
    public double[] supportLowerBound() {
        double[] v = new double[rows];
        Arrays.fill(v, Double.NEGATIVE_INFINITY);
        return v;
    }

    @Override
    public double[] supportUpperBound() {
        double[] v = new double[rows];
        Arrays.fill(v, Double.POSITIVE_INFINITY);
        return v;
    }

    // ------------------------------------------------------------------ batch queries

    /** As the interface; each level's normal quantile is computed once for all rows. */
    @Override
    public double[][] quantiles(double... levels) {
        Checks.allInClosedRange("levels", levels, 0, 1);
        double[] zp = new double[levels.length];
        for (int l = 0; l < levels.length; l++) {
            zp[l] = MixtureQuantile.normalQuantile(levels[l]);
        }
        double[] lt = columns.logTerms();
        double[] terms = new double[k];
        double[][] out = new double[levels.length][rows];
        for (int b = 0; b < rows; b++) {
            for (int l = 0; l < levels.length; l++) {
                out[l][b] = MixtureQuantile.at(columns, lt, b, levels[l], zp[l], terms);
            }
        }
        return out;
    }
}
