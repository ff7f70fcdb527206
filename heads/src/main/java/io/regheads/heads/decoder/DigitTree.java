package io.regheads.heads.decoder;

import io.regheads.heads.decoder.DecoderDistribution.MeanEstimate;
import io.regheads.heads.decoder.DecoderDistribution.Options;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * How a {@link DecoderDistribution} answers its exact queries (density, CDF, quantiles, the certified mean, the
 * support) over the token tree of its tokenizer: one strategy per kind of tree, picked once in the distribution's
 * constructor from the tokenizer's facets ({@code io.regheads.core.token}).
 *
 * <ul>
 *   <li>{@link VoteTable}: a repetition code ({@code Voting}, {@code repetitions() > 1}); every summary is that of
 *       the voted value, from one table of (cell, probability) per row.
 *   <li>{@link FixedPointWalk}: fixed-point digits of [0, 1] ({@code FixedPointDigits}); tree walks for the CDF and
 *       quantiles, the certified expansion for the mean.
 *   <li>{@link PrefixRangeWalk}: prefix value ranges ({@code PrefixRanges}, sign-exponent-mantissa tokens); the
 *       same with prefix ranges and the detached zero cell.
 *   <li>{@link LeafTable}: any other tokenizer (a Hamming code); every valid sequence enumerated and scored. It is
 *       also the tabulated form of the walks ({@link #tabulated()}).
 * </ul>
 * Each strategy receives the decoder rows, the special-value masses and the options it needs, not the distribution.
 * The defaults here are the tree strategies' shared summaries; the vote table answers those from its table.
 *
 * <p>Shapes: B rows; {@code y [B]}, results {@code [B]}. Implementations are immutable (apart from values computed
 * once) and thread-safe.
 */
sealed interface DigitTree permits FixedPointWalk, PrefixRangeWalk, VoteTable, LeafTable {

    /** {@return B, the number of rows} */
    int batchSize();

    /** {@code [3][B]}: P(NaN), P(+Inf), P(-Inf) per row (shared: do not modify). */
    double[][] specials();

    /** {@code log density(y)} of Y given Y finite; {@code -Infinity} outside the support. */
    double[] logDensity(double[] y);

    /** {@code F(y)} of Y given Y finite. */
    double[] cdf(double[] y);

    /** The p-quantile, {@code 0 < p < 1}. */
    double[] quantile(double p);

    /** Low end of the support per row. */
    double[] lowest();

    /** High end of the support per row. */
    double[] highest();

    /** E[Y] and E[Y^2] with a bound on the mean's error within {@code tolerance[r]} per row (where certified). */
    MeanEstimate moments(double[] tolerance);

    /** The same distributions from a table of every valid sequence ({@link LeafTable}), or this strategy. */
    DigitTree tabulated();

    /**
     * Per row, the probability mass the strategy's table left out (a total-variation bound on its distributions):
     * 0 for the exact strategies; the vote table's enumeration may drop mass.
     */
    default double[] approximationBound() {
        return new double[batchSize()];
    }

    /** The error budget per row: {@code max(meanTolerance, relativeTolerance * (q(0.75) - q(0.25)))}. */
    default double[] meanBudget(Options options) {
        double[] budget = new double[batchSize()];
        Arrays.fill(budget, options.meanTolerance());
        if (options.relativeTolerance() > 0) {
            double[] q75 = quantile(0.75);
            double[] q25 = quantile(0.25);
            for (int r = 0; r < budget.length; r++) {
                double spread = q75[r] - q25[r];
                if (Double.isFinite(spread)) {
                    budget[r] = Math.max(budget[r], options.relativeTolerance() * spread);
                }
            }
        }
        return budget;
    }

    /** E[Y] per row within the budget of the options. */
    default double[] mean(Options options) {
        return moments(meanBudget(options)).mean();
    }

    /** Var[Y] per row, from the computation of {@link #mean}. */
    default double[] variance(Options options) {
        MeanEstimate m = moments(meanBudget(options));
        double[] out = new double[m.mean().length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.max(0, m.secondMoment()[i] - m.mean()[i] * m.mean()[i]);
        }
        return out;
    }

    /** The density mode per row: the decoded value of a beam search of the given width. */
    default double[] mode(DecoderSampling decoding, int beamWidth) {
        return decoding.densityMode(beamWidth);
    }

    /** Exact draws of Y given Y finite, {@code [n][B]} (rng and n checked by the caller). */
    default double[][] sample(DecoderSampling decoding, UniformRandomProvider rng, int n) {
        return decoding.finiteSamples(rng, n);
    }
}
