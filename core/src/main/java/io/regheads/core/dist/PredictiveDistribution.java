package io.regheads.core.dist;

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
     * Draws {@code n} independent samples per row.
     *
     * @return {@code [n][B]}
     */
    double[][] sample(UniformRandomProvider rng, int n);

    /** Lower end of the support per row ({@code -Infinity} if unbounded). */
    double[] supportLowerBound();

    /** Upper end of the support per row ({@code +Infinity} if unbounded). */
    double[] supportUpperBound();
}
