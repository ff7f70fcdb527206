package io.regheads.core.dist;

import io.regheads.core.check.Checks;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A batch of B univariate predictive distributions over y, one per input row (names after commons-statistics).
 *
 * <p>Every method works on all B rows at once and returns {@code [B]} arrays (or {@code [n][B]} for samples),
 * since some heads (decoders) compute many rows in one pass. Row {@code b} of every result refers to the same
 * distribution.
 *
 * <p><b>Contract</b> (checked by the shared contract tests for every implementation): {@code
 * inverseCumulativeProbability(cumulativeProbability(y)) == y} on the support; d/dy cdf = density; the density
 * integrates to 1 over the support; the mean of many samples agrees with {@link #mean()}; {@link #mode()} is the
 * point of highest density.
 *
 * <p>Implementations are immutable and thread-safe; {@code sample} draws only from the given generator.
 */
public interface PredictiveDistribution {

    /** Number of rows B. */
    int batchSize();

    /**
     * Natural log of the density at {@code y[b]} for each row: {@code -Infinity} outside the support.
     *
     * @param y {@code [B]} finite values
     * @return {@code [B]}
     * @throws IllegalArgumentException if {@code y.length != B} or an element is NaN
     */
    double[] logDensity(double[] y);

    /** P(Y &lt;= y[b]) for each row. {@code [B] -> [B]}, values in [0, 1]. */
    double[] cumulativeProbability(double[] y);

    /**
     * The quantile at level {@code p} for each row: the smallest y with cdf(y) >= p.
     *
     * @param p in [0, 1]; p = 0 and p = 1 give the support bounds (possibly infinite)
     * @return {@code [B]}
     * @throws IllegalArgumentException if p is outside [0, 1] or NaN
     */
    double[] inverseCumulativeProbability(double p);

    /**
     * E[Y] per row.
     *
     * @throws IllegalStateException where an implementation cannot compute it in bounded time and says so instead
     *                               of running for minutes, naming the alternatives (a decoder over a tokenizer whose
     *                               tokens are not in value order: use {@link #median()})
     */
    double[] mean();

    /** Var[Y] per row; may refuse as {@link #mean()} does. */
    double[] variance();

    /** The 0.5 quantile per row. */
    default double[] median() {
        return inverseCumulativeProbability(0.5);
    }

    /** The point of highest density per row. */
    double[] mode();

    /**
     * The point per row that minimises the expected cost {@code E[loss.cost(yHat, Y)]}: the mean for squared error,
     * the median for absolute error, a quantile for the pinball and asymmetric linear costs, the 1/|y|-weighted median
     * for absolute percentage error, {@code -log E[exp(-a Y)] / a} for LINEX (see {@link PointLoss}).
     *
     * <p>Example: for N(10, 1), {@code point(PointLoss.parse("mape"))} is 9.8983 and {@code point(PointLoss.pinball
     * (0.9))} 11.2816.
     *
     * @param loss the user's cost
     * @return {@code [B]}
     * @throws IllegalArgumentException if loss is null, or names the row where the optimum does not exist (mape with
     *                                  mass or density at 0; linex with an infinite exponential moment)
     */
    default double[] point(PointLoss loss) {
        return Checks.notNull("loss", loss).optimum(this);
    }

    /**
     * Draws {@code n} independent samples per row.
     *
     * @return {@code [n][B]}
     */
    double[][] sample(UniformRandomProvider rng, int n);

    /** Lower end of the support per row ({@code -Infinity} if unbounded). */
    double[] supportLowerBound();

    /** Upper end of the support per row ({@code +Infinity} if unbounded). */
    double[] supportUpperBound();

    // ------------------------------------------------------------------ batch queries (many values per row at once)

    /**
     * Quantiles at several levels in one call: {@code result[l][b] = inverseCumulativeProbability(levels[l])[b]}
     * (bit for bit: columnar implementations override this with a faster loop computing the same values).
     * Allocates {@code levels.length} arrays of B, nothing per row.
     *
     * <p>Example: {@code quantiles(0.05, 0.5, 0.95)} gives the 5% quantiles, the medians and the 95% quantiles, each
     * {@code [B]}.
     *
     * @param levels each in [0, 1]; may be empty (then an empty result)
     * @return {@code [levels.length][B]}
     * @throws IllegalArgumentException if levels is null or a level is outside [0, 1] or NaN
     */
    default double[][] quantiles(double... levels) {
        Checks.allInClosedRange("levels", levels, 0, 1);
        double[][] out = new double[levels.length][];
        for (int l = 0; l < levels.length; l++) {
            out[l] = inverseCumulativeProbability(levels[l]);
        }
        return out;
    }

    /**
     * The cdf of every row at every point of one grid: {@code result[g][b] = P(Y_b <= grid[g])}, equal to {@code
     * cumulativeProbability} at a {@code [B]} array filled with {@code grid[g]}. Allocates {@code grid.length} arrays
     * of B, nothing per row.
     *
     * @param grid finite values in any order; may be empty
     * @return {@code [grid.length][B]}
     * @throws IllegalArgumentException if grid is null or holds a NaN or infinite value
     */
    default double[][] cumulativeProbabilityGrid(double[] grid) {
        Checks.allFinite("grid", grid);
        double[][] out = new double[grid.length][];
        double[] y = new double[batchSize()];
        for (int g = 0; g < grid.length; g++) {
            java.util.Arrays.fill(y, grid[g]);
            out[g] = cumulativeProbability(y);
        }
        return out;
    }

    /**
     * The log density of every row at every point of one grid: {@code result[g][b] = log p_b(grid[g])}, as {@link
     * #logDensity} at a {@code [B]} array filled with {@code grid[g]} ({@code -Infinity} outside a row's support).
     *
     * @param grid finite values in any order; may be empty
     * @return {@code [grid.length][B]}
     * @throws IllegalArgumentException if grid is null or holds a NaN or infinite value
     */
    default double[][] logDensityGrid(double[] grid) {
        Checks.allFinite("grid", grid);
        double[][] out = new double[grid.length][];
        double[] y = new double[batchSize()];
        for (int g = 0; g < grid.length; g++) {
            java.util.Arrays.fill(y, grid[g]);
            out[g] = logDensity(y);
        }
        return out;
    }

    /**
     * The central interval of probability {@code coverage} per row: {@code {lower, upper}} = the quantiles at
     * {@code (1 - coverage) / 2} and {@code (1 + coverage) / 2}. Example: {@code centralInterval(0.9)} gives the
     * 5% and 95% quantiles.
     *
     * @param coverage in [0, 1]
     * @return {@code [2][B]}: lower ends, then upper ends
     * @throws IllegalArgumentException if coverage is outside [0, 1] or NaN
     */
    default double[][] centralInterval(double coverage) {
        Checks.inClosedRange("coverage", coverage, 0, 1);
        return quantiles((1 - coverage) / 2, (1 + coverage) / 2);
    }

    /** Quantile levels of the default {@link #crps} grid. */
    int CRPS_GRID_LEVELS = 100;

    /**
     * The continuous ranked probability score of each row at its observation, {@code CRPS(F, y) = int (F(z) - 1{z
     * >= y})^2 dz}, in the units of y (lower is better; the mean absolute error for a point mass).
     *
     * <p>Default: the quantile form {@code CRPS = 2 int_0^1 QS_tau(F^-1(tau), y) dtau} with the pinball loss {@code
     * QS_tau(q, y) = (1{y < q} - tau)(q - y)}, by the midpoint rule on {@value #CRPS_GRID_LEVELS} levels {@code tau_k =
     * (k - 1/2) / K} (Gneiting and Raftery 2007, eq. 21). Deterministic; it sees the distribution only between the
     * levels 1/(2K) and 1 - 1/(2K), so mass further out is not counted: for N(0, 1) at y = 0 it gives 0.233763
     * against the exact 0.233695 (relative error 3e-4), at y = 2 1.2384 against 1.2374. Distributions with a closed
     * form override it exactly (Gaussian mixtures, and affine maps of any distribution that has one).
     *
     * @param y {@code [B]} finite observations
     * @return {@code [B]}
     * @throws IllegalArgumentException if y is null, of the wrong length or not finite
     */
    default double[] crps(double[] y) {
        Checks.rowValues("y", y, batchSize());
        Checks.allFinite("y", y);
        int levels = CRPS_GRID_LEVELS;
        double[] taus = new double[levels];
        for (int k = 1; k <= levels; k++) {
            taus[k - 1] = (k - 0.5) / levels;
        }
        double[][] qs = quantiles(taus); // one batch call: [K][B]
        double[] out = new double[y.length];
        for (int k = 0; k < levels; k++) {
            double tau = taus[k];
            double[] q = qs[k];
            for (int i = 0; i < y.length; i++) {
                out[i] += ((y[i] < q[i] ? 1 : 0) - tau) * (q[i] - y[i]);
            }
        }
        for (int i = 0; i < out.length; i++) {
            out[i] *= 2.0 / levels;
        }
        return out;
    }
}
