package io.regheads.heads.decoder;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.SpecialValues;
import io.regheads.core.head.Decoding;
import io.regheads.core.check.Checks;
import io.regheads.core.token.FixedPointDigits;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.core.token.PrefixRanges;
import io.regheads.core.token.Voting;
import io.regheads.heads.histogram.HistogramDistribution;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The predictive distributions of a {@link DecoderHead} for B rows of phi: the sequence probability spread
 * uniformly over each sequence's interval, {@code density(y) = P(tokens(y)) / width(tokens(y))}, with the
 * tokenizer's masks applied at every position (the same masked softmax as training).
 *
 * <p>A facade. The constructor takes a snapshot of the head's parameters and picks, once, the strategy that answers
 * the exact queries over the tokenizer's digit tree ({@link DigitTree}):
 * <ul>
 *   <li>a repetition code ({@link Voting}, {@link Voting#repetitions()} {@code > 1}): every summary is that of the
 *       <b>voted</b> value ({@code VoteTable}, exact within the enumeration budget, else within the total-variation
 *       bound {@link #voteApproximationBound()});
 *   <li>fixed-point digits of [0, 1] ({@link FixedPointDigits}, normalized digits): the density and CDF by one
 *       teacher-forced pass along the tokens of y, quantiles by walking the tree (T decoder steps for all rows), the
 *       mean by expanding the tree under a certified error budget per row ({@code FixedPointWalk}, {@code
 *       MeanExpander});
 *   <li>prefix ranges ({@link PrefixRanges}, sign-exponent-mantissa tokens): the same walks and expansion over
 *       prefix value ranges, with the detached zero spelling as its own piece, at most {@link
 *       Options#maxMeanNodes()} prefixes per row and level for the mean ({@code PrefixRangeWalk});
 *   <li>otherwise (Hamming codes): the full list of valid sequences (at most {@link Options#maxLeaves()}), sorted by
 *       interval ({@code LeafTable}).
 * </ul>
 * {@link #tabulated()} gives the same distributions answered from the table of every valid sequence. Token-level
 * decoding (sampling under temperature, top-k and top-p, beam search, greedy decoding, votes) is {@link
 * #sampling()}'s.
 *
 * <p><b>Special values.</b> With NaN/+-Inf tokens, {@link #probabilityNaN()} and its siblings report their
 * probabilities and every {@link PredictiveDistribution} method describes Y given Y finite ({@link SpecialValues}).
 *
 * <p><b>Point estimates.</b> {@link #point(Decoding)}: exact mean, median, density mode (beam), greedy decoding,
 * sample mean or Harrell-Davis median under temperature/top-k/top-p, or AUTO (the certified mean, else the median: an
 * unnormalized decoder's mean can be dominated by a little mass on far exponents, a mass of 1e-6 on 1e9 moves it by
 * 1e3).
 *
 * <p>Immutable (a snapshot of the head's parameters; parts that cost decoder passes are computed on first use) and
 * thread-safe.
 */
public final class DecoderDistribution implements PredictiveDistribution, SpecialValues {

    /**
     * Inference settings.
     *
     * @param beamWidth         beams kept by {@link #mode()} (>= 1)
     * @param meanTolerance     the absolute part of the certified error budget per row of {@link #mean()} and
     *                          {@link #variance()} (see {@link #exactMean}; >= 0; 0 with relativeTolerance 0 expands
     *                          the whole tree)
     * @param maxLeaves         largest number of valid sequences enumerated for tokenizers without value order
     * @param relativeTolerance the part relative to the row's spread: row r's budget is {@code max(meanTolerance,
     *                          relativeTolerance * IQR_r)}, IQR_r its interquartile range (>= 0)
     * @param maxMeanNodes      prefixes expanded per row and level by the mean of a tokenizer with prefix ranges
     *                          (sign-exponent-mantissa tokens); beyond it the lightest are left unexpanded and the
     *                          bound is reported, not certified (>= 1)
     */
    public record Options(int beamWidth, double meanTolerance, int maxLeaves, double relativeTolerance,
            int maxMeanNodes) {
        /**
         * @param beamWidth         beams kept by {@link DecoderDistribution#mode()}, at least 1
         * @param meanTolerance     absolute error budget per row of {@link DecoderDistribution#mean()}, at least 0
         * @param maxLeaves         largest number of valid sequences enumerated, at least 1
         * @param relativeTolerance error budget relative to the row's interquartile range, at least 0
         * @param maxMeanNodes      prefixes expanded per row and level by a prefix-range mean, at least 1
         * @throws IllegalArgumentException when a field is out of range
         */
        public Options {
            Checks.atLeast("beamWidth", beamWidth, 1);
            Checks.require(meanTolerance >= 0 && meanTolerance < Double.POSITIVE_INFINITY,
                    "meanTolerance must be >= 0 and finite, got %s", meanTolerance);
            Checks.atLeast("maxLeaves", maxLeaves, 1);
            Checks.require(relativeTolerance >= 0 && relativeTolerance < Double.POSITIVE_INFINITY,
                    "relativeTolerance must be >= 0 and finite, got %s", relativeTolerance);
            Checks.atLeast("maxMeanNodes", maxMeanNodes, 1);
        }

        /** An absolute budget only ({@code relativeTolerance = 0}), and {@code maxMeanNodes = maxLeaves}. */
        public Options(int beamWidth, double meanTolerance, int maxLeaves) {
            this(beamWidth, meanTolerance, maxLeaves, 0, maxLeaves);
        }

        /**
         * Beam 8; an error budget per row of {@code max(1e-9, 1e-3 IQR)} (the mean certified to a thousandth of the
         * spread, whatever the units of y: far below any prediction error); 100 000 leaves; 4096 prefixes per row
         * and level for a prefix-range mean (a trained model's mass needs far fewer; a diffuse one is then reported
         * as not certified instead of expanding up to {@code B^M} cells per exponent).
         */
        public static Options defaults() {
            return new Options(8, 1e-9, 100_000, 1e-3, 4096);
        }
    }

    /** Exact mean with a certified bound: {@code |E[Y] - mean[b]| <= errorBound[b]}. */
    public record MeanEstimate(double[] mean, double[] errorBound, double[] secondMoment) {}

    private final DecoderRows rows;
    private final Options options;
    private final DigitTree tree;
    private final DecoderSampling sampling;

    DecoderDistribution(DecoderHead head, INDArray phi, Options options) {
        this.rows = new DecoderRows(head, phi);
        this.options = Checks.notNull("options", options);
        SpecialMass specials = new SpecialMass(rows);
        this.sampling = new DecoderSampling(rows, specials);
        NumberTokenizer tok = rows.tok;
        if (Voting.repetitionsOf(tok) > 1) {
            this.tree = new VoteTable(rows, options);
        } else if (tok instanceof FixedPointDigits) {
            this.tree = new FixedPointWalk(rows, specials, options);
        } else if (tok instanceof PrefixRanges) {
            this.tree = new PrefixRangeWalk(rows, specials, options);
        } else {
            this.tree = new LeafTable(rows, specials, options, false);
        }
    }

    private DecoderDistribution(DecoderDistribution o, DigitTree tree) {
        this.rows = o.rows;
        this.options = o.options;
        this.sampling = o.sampling;
        this.tree = tree;
    }

    /**
     * The same distributions answered from a table of every valid sequence's probability (computed once, at most
     * {@link Options#maxLeaves()} sequences): fast repeated density/CDF queries for small vocabularies, and an
     * independent route to the tree algorithms' results. A repetition code's distribution is already a table: this
     * one.
     */
    public DecoderDistribution tabulated() {
        DigitTree t = tree.tabulated();
        return t == tree ? this : new DecoderDistribution(this, t);
    }

    /**
     * The marginal over the first k of the K tokens (the decoding paper's k-level histograms, Fig. 3): for fixed-point
     * digits of [0, 1] in base V, a Riemann distribution with {@code V^k} equal bins, bin i = {@code [i V^-k, (i + 1)
     * V^-k)} holding the probability of the prefix that spells i, {@code P(t1) P(t2 | t1) ... P(tk | t1..tk-1)} (the
     * sum over all its completions). {@code k = K} gives the full distribution (the same densities as this one); a
     * smaller k reads a coarser histogram off the same model, as if it had been trained with k tokens. Example: a
     * binary decoder (V = 2, K = 8) gives with {@code firstTokens(1)} the masses of [0, 0.5) and [0.5, 1], with {@code
     * firstTokens(3)} those of the 8 bins of width 1/8.
     *
     * @param k prefix length in [1, K]
     * @return B distributions of {@code V^k} bins each, without tails
     * @throws IllegalArgumentException if the tokenizer is not fixed-point ({@link FixedPointDigits}:
     *                                  sign-exponent-mantissa prefixes do not partition the values into equal bins),
     *                                  k is outside [1, K], or {@code V^k} exceeds {@link Options#maxLeaves()}
     */
    public HistogramDistribution firstTokens(int k) {
        return PrefixMarginal.of(rows, k, options.maxLeaves());
    }

    /**
     * Token-by-token decoding of these rows: sampling under temperature, top-k and top-p, beam search, greedy
     * decoding and votes (see {@link DecoderSampling}).
     */
    public DecoderSampling sampling() {
        return sampling;
    }

    /**
     * The point prediction per row as {@code decoding} says: the certified mean ({@link #mean()}), the tree-walk
     * median, the density mode by beam search ({@link #mode()}), greedy decoding ({@link DecoderSampling#greedy()}),
     * the mean or the Harrell-Davis median of {@code decoding.samples()} values sampled under its temperature, top-k
     * and top-p ({@link DecoderSampling#sampleValues}, seeded by {@code decoding.seed()}), or AUTO: the exact mean
     * where it is finite and certified (error bound within the row's budget, see {@link Options}), else the median
     * (the mean of an unnormalized decoder can be dominated by far tails or exceed the expansion's cap).
     *
     * @param decoding the summary and its sampling settings
     * @return {@code [B]}
     * @throws IllegalArgumentException if decoding is null
     */
    public double[] point(Decoding decoding) {
        Checks.notNull("decoding", decoding);
        DecoderSampling.Settings settings = new DecoderSampling.Settings(decoding.temperature(), decoding.topK(),
                decoding.topP());
        return switch (decoding.point()) {
            case MEAN -> mean();
            case MEDIAN -> median();
            case MODE -> mode();
            case GREEDY -> sampling.greedy();
            case SAMPLE_MEAN -> sampling.sampleMean(RandomSource.XO_RO_SHI_RO_128_PP.create(decoding.seed()),
                    decoding.samples(), settings);
            case SAMPLE_MEDIAN -> sampling.sampleMedian(RandomSource.XO_RO_SHI_RO_128_PP.create(decoding.seed()),
                    decoding.samples(), settings);
            case AUTO -> meanElseMedian();
        };
    }

    /** The exact mean where it is finite and certified within the row's budget, else the median. */
    private double[] meanElseMedian() {
        double[] budget = tree.meanBudget(options);
        MeanEstimate m = tree.moments(budget);
        double[] median = null;
        double[] out = m.mean().clone();
        for (int r = 0; r < out.length; r++) {
            if (!(Double.isFinite(out[r]) && m.errorBound()[r] <= budget[r] * (1 + 1e-12))) {
                median = median == null ? median() : median;
                out[r] = median[r];
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ special values (NaN, +-Inf tokens)

    /**
     * P(Y is NaN) per row: for a repetition code the share of the votes that decode to NaN; with special tokens
     * ({@link NumberTokenizer#hasSpecialTokens()}) the probability of the NaN spelling, one teacher-forced pass;
     * otherwise 0. The {@link PredictiveDistribution} methods describe Y given Y finite (see {@link SpecialValues}).
     */
    @Override
    public double[] probabilityNaN() {
        return tree.specials()[0].clone();
    }

    /** P(Y = +Infinity) per row (see {@link #probabilityNaN()}). */
    @Override
    public double[] probabilityPositiveInfinity() {
        return tree.specials()[1].clone();
    }

    /** P(Y = -Infinity) per row (see {@link #probabilityNaN()}). */
    @Override
    public double[] probabilityNegativeInfinity() {
        return tree.specials()[2].clone();
    }

    /**
     * For a repetition code ({@link Voting#repetitionsOf} {@code > 1}): per row, the probability mass of the
     * full sequences that the enumeration of the votes left out ({@link Options#maxLeaves()} prefixes kept per row and
     * position). 0 means the distribution of the vote is exact; otherwise the reported distribution is the enumerated
     * part renormalised, within this total-variation distance of the true law of the vote ({@code sup_y |F(y) -
     * Fhat(y)| <= bound}).
     *
     * @throws IllegalArgumentException if the tokenizer does not repeat its spelling
     */
    public double[] voteApproximationBound() {
        Checks.require(Voting.repetitionsOf(rows.tok) > 1, "voteApproximationBound needs a tokenizer that repeats its"
                + " spelling (Voting, repetitions() > 1), got %s", rows.tok);
        return tree.approximationBound();
    }

    @Override
    public int batchSize() {
        return rows.b;
    }

    /** A fresh key/value-cached decoder at position 0 for every row. */
    DecoderState start() {
        return rows.start();
    }

    // ------------------------------------------------------------------ exact queries: the digit tree's

    @Override
    public double[] logDensity(double[] y) {
        Checks.rowValues("y", y, rows.b);
        return tree.logDensity(y);
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        Checks.rowValues("y", y, rows.b);
        return tree.cdf(y);
    }

    /** The p-quantile per row: the support's ends at p = 0 and 1, else the strategy's tree walk or table. */
    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.require(p >= 0 && p <= 1, "p must be in [0, 1], got %s", p);
        if (p == 0) {
            return supportLowerBound();
        }
        if (p == 1) {
            return supportUpperBound();
        }
        return tree.quantile(p);
    }

    /**
     * E[Y] per row: {@link #exactMean} with the budget of the {@link Options} ({@code |E[Y] - mean| <= bound <=
     * max(meanTolerance, relativeTolerance * IQR)}, bounded work: fixed-point digits and tokenizers with prefix ranges
     * expand the tree under the budget, at most {@link Options#maxMeanNodes()} prefixes per row and level; beyond that
     * cap the reported bound is not certified); for a repetition code the mean of the voted value. An unnormalized
     * decoder's mean can be dominated by a little mass on far exponents: see {@link #point(Decoding)} for robust
     * alternatives.
     */
    @Override
    public double[] mean() {
        return tree.mean(options);
    }

    /** Var[Y] per row, from the same computation as {@link #mean()}. */
    @Override
    public double[] variance() {
        return tree.variance(options);
    }

    /**
     * E[Y] per row by expanding the digit tree under a certified error budget: {@code |E[Y] - mean[b]| <=
     * errorBound[b] <= tolerance} (see {@code MeanExpander}: the lightest prefixes are left unexpanded, counted at
     * their interval centre, while their summed {@code mass * width / 2} fits the row's budget). All expanded
     * prefixes of a chunk of rows go through one decoder step per position. Tolerance 0 gives the exact mean (every
     * prefix with positive mass is expanded, bound 0). Tokenizers without value order use the full leaf list
     * (bound 0): one teacher-forced pass per valid sequence, which takes minutes for tens of thousands of sequences
     * (unlike {@link #mean()}, this does not refuse). For a repetition code: the table of votes, exact (bound 0) or
     * not certified (bound +Infinity) where the enumeration dropped mass.
     *
     * @throws IllegalArgumentException if tolerance is negative or not finite, or (no value order) the tokenizer has
     *                                  more than {@link Options#maxLeaves()} valid sequences
     */
    public MeanEstimate exactMean(double tolerance) {
        Checks.require(tolerance >= 0 && tolerance < Double.POSITIVE_INFINITY,
                "tolerance must be >= 0 and finite, got %s", tolerance);
        double[] tol = new double[rows.b];
        Arrays.fill(tol, tolerance);
        return tree.moments(tol);
    }

    /** Draws exact samples: a leaf by ancestral sampling, then a uniform point inside its interval. */
    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        Checks.notNull("rng", rng);
        Checks.atLeast("n", n, 1);
        return tree.sample(sampling, rng, n);
    }

    /**
     * The decoded value of the highest-density sequence found by a beam search of {@link Options#beamWidth()}
     * ({@link DecoderSampling#beamSearch}); for a repetition code the densest voted cell.
     */
    @Override
    public double[] mode() {
        return tree.mode(sampling, options.beamWidth());
    }

    /**
     * 0 for fixed-point digits; for a tokenizer with prefix ranges the low end of its whole number range (from
     * {@link PrefixRanges#prefixRange}, no enumeration); otherwise the lowest interval end over all valid
     * sequences when there are at most {@link Options#maxLeaves()} of them, else {@code -Infinity} (not enumerated).
     */
    @Override
    public double[] supportLowerBound() {
        return tree.lowest();
    }

    /** As {@link #supportLowerBound()}: 1, the high end of the number range, the highest interval end, or +Infinity. */
    @Override
    public double[] supportUpperBound() {
        return tree.highest();
    }
}
