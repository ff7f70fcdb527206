package io.regheads.heads.decoder;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.SpecialValues;
import io.regheads.core.head.Decoding;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The predictive distributions of a {@link DecoderHead} for B rows of phi: the sequence probability spread
 * uniformly over each sequence's interval, {@code density(y) = P(tokens(y)) / width(tokens(y))}, with the
 * tokenizer's masks applied at every position (the same masked softmax as training).
 *
 * <p>Exact inference (no sampling):
 * <ul>
 *   <li>{@link #logDensity} and {@link #cumulativeProbability}: one teacher-forced pass along the tokens of y;
 *       {@code F(y) = sum_k P(t_<k) sum_{d < t_k} p(d | t_<k) + P(t) u}, u the position of y inside its leaf.
 *   <li>{@link #inverseCumulativeProbability}: walks the digit tree, T decoder steps per level p (all rows at
 *       once): at each position pick the first digit whose cumulative mass reaches the residual level.
 *   <li>{@link #exactMean(double)}: expands the tree level by level (all live prefixes of all rows in one forward
 *       per position) under a certified error budget per row: the lightest prefixes are left unexpanded, counted
 *       at their interval centre, while their summed {@code mass * width / 2} (the reported error bound) fits
 *       the tolerance.
 * </ul>
 * These need fixed-point digits of [0, 1] (value order = lexicographic token order, {@link
 * NumberTokenizer#isFixedPoint()}), as normalized digits are. For a tokenizer with prefix ranges ({@link
 * NumberTokenizer#hasPrefixRanges()}, e.g. sign-exponent-mantissa tokens) the CDF and the quantiles walk the tree
 * too (T decoder steps per query, see {@code PrefixRangeWalk}): every prefix stands for a contiguous value range,
 * the detached sequence (the zero spelling) is split off as its own piece; and the exact mean expands the tree with
 * those prefix ranges under the same certified budget (at most {@link Options#maxMeanNodes()} prefixes per row and
 * level: beyond that cap the bound is reported, not certified). For a repetition code every summary is that of the
 * <b>voted</b> value ({@code VoteTable}, exact within the enumeration budget, else within the total-variation bound
 * {@link #voteApproximationBound()}). For other tokenizers (Hamming) the same quantities come from the full list of
 * valid sequences (at most {@link Options#maxLeaves()}), sorted by interval.
 *
 * <p><b>Special values.</b> With NaN/+-Inf tokens, {@link #probabilityNaN()} and its siblings report their
 * probabilities and every {@link PredictiveDistribution} method describes Y given Y finite ({@link SpecialValues}).
 *
 * <p><b>Point estimates.</b> {@link #point(Decoding)}: exact mean, median, density mode (beam), sample mean or
 * Harrell-Davis median under temperature/top-k/top-p, or AUTO (the certified mean, else the median: an unnormalized
 * decoder's mean can be dominated by a little mass on far exponents, a mass of 1e-6 on 1e9 moves it by 1e3).
 *
 * <p>Also: {@link #sample} (exact, uniform inside the drawn leaf), {@link #sampleValues} with temperature, top-k
 * and top-p, {@link #beamSearch}, {@link #mode} and {@link #greedy}, sample-based mean and Harrell-Davis median, and
 * majority/soft votes for repetition codes ({@link NumberTokenizer#repetitions()} {@code > 1}). Immutable (a snapshot of the head's parameters) and thread-safe.
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

    /**
     * Sampling settings, applied at each position after the tokenizer's validity mask: logits divided by the
     * temperature, then top-k (the k most probable tokens kept), then the nucleus (top-p: the smallest set of the
     * most probable kept tokens whose mass reaches topP of the kept mass, at least one); the kept probabilities are
     * renormalised.
     *
     * @param temperature > 0
     * @param topK        0 for none, else >= 1
     * @param topP        in (0, 1]; 1 for none
     */
    public record Sampling(double temperature, int topK, double topP) {
        /**
         * @param temperature divides the logits, positive
         * @param topK        0 for none, else at least 1
         * @param topP        in (0, 1]; 1 for none
         * @throws IllegalArgumentException when a field is out of range
         */
        public Sampling {
            Checks.require(temperature > 0 && temperature < Double.POSITIVE_INFINITY,
                    "temperature must be > 0 and finite, got %s", temperature);
            Checks.atLeast("topK", topK, 0);
            Checks.require(topP > 0 && topP <= 1, "topP must be in (0, 1], got %s", topP);
        }

        /** Plain ancestral sampling from the model's distribution. */
        public static Sampling plain() {
            return new Sampling(1, 0, 1);
        }
    }

    /**
     * The point prediction per row as {@code decoding} says: the certified mean ({@link #mean()}), the tree-walk
     * median, the density mode by beam search ({@link #mode()}), greedy decoding ({@link #greedy()}), the mean or the
     * Harrell-Davis median of {@code decoding.samples()} values sampled under its temperature, top-k and top-p
     * ({@link #sampleValues}, seeded by {@code decoding.seed()}), or AUTO: the exact mean where it is finite and
     * certified (error bound within the row's budget, see {@link Options}), else the median (the mean of an
     * unnormalized decoder can be dominated by far tails or exceed the expansion's cap).
     *
     * @param decoding the summary and its sampling settings
     * @return {@code [B]}
     * @throws IllegalArgumentException if decoding is null
     */
    public double[] point(Decoding decoding) {
        Checks.notNull("decoding", decoding);
        Sampling sampling = new Sampling(decoding.temperature(), decoding.topK(), decoding.topP());
        return switch (decoding.point()) {
            case MEAN -> mean();
            case MEDIAN -> median();
            case MODE -> mode();
            case GREEDY -> greedy();
            case SAMPLE_MEAN -> sampleMean(org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(
                    decoding.seed()), decoding.samples(), sampling);
            case SAMPLE_MEDIAN -> sampleMedian(org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(
                    decoding.seed()), decoding.samples(), sampling);
            case AUTO -> {
                double[] budget = meanBudget();
                MeanEstimate m = exactMean(budget);
                double[] median = null;
                double[] out = m.mean().clone();
                for (int r = 0; r < b; r++) {
                    if (!(Double.isFinite(out[r]) && m.errorBound()[r] <= budget[r] * (1 + 1e-12))) {
                        median = median == null ? median() : median;
                        out[r] = median[r];
                    }
                }
                yield out;
            }
        };
    }

    /** Exact mean with a certified bound: {@code |E[Y] - mean[b]| <= errorBound[b]}. */
    public record MeanEstimate(double[] mean, double[] errorBound, double[] secondMoment) {}

    /** Best sequences of a beam search, {@code tokens [B][T]}, their log-probabilities and log-densities. */
    public record Beam(int[][] tokens, double[] logProbability, double[] logDensity) {}

    /**
     * Sample slots (input rows x samples) per block in sampling: bounds a block's state; prefix sharing keeps the
     * live state rows well below it (the block sizes tried are in docs/perf-decoder.md).
     */
    private static final int BLOCK_ROWS = 16384;

    /**
     * Input rows whose trees are expanded together by {@link #exactMean} (the expansion splits a level into parts
     * when it has more live prefixes than {@code MeanExpander.MAX_STATE_ROWS}).
     */
    private static final int MEAN_CHUNK = 256;

    private final DecoderSnapshot w;
    private final NumberTokenizer tok;
    private final boolean ordered;
    private final double[] phi; // [B * D]
    private final int b;
    private final int t;
    private final int v;
    private final Options options;
    private final boolean tabulate;
    private final PrefixRangeWalk walk; // tree walks for tokenizers with prefix ranges (not fixed point), else null
    private final boolean voted; // a repetition code: every summary is that of the vote
    private volatile VoteTable votes;
    private volatile double[][] specials; // [3][B]: P(NaN), P(+Inf), P(-Inf)
    private volatile Leaves leaves;
    private volatile List<int[]> sequences;
    private volatile boolean tooMany;

    DecoderDistribution(DecoderHead head, INDArray phi, Options options) {
        Checks.rows("phi", phi, "D", head.inputWidth());
        Checks.finiteRows("phi", phi);
        this.w = new DecoderSnapshot(head);
        this.tok = head.tokenizer();
        this.ordered = tok.isFixedPoint();
        this.phi = Host.doubles(phi);
        this.b = Math.toIntExact(phi.size(0));
        this.t = w.t;
        this.v = w.v;
        this.options = Checks.notNull("options", options);
        this.tabulate = false;
        this.walk = !ordered && tok.hasPrefixRanges() ? new PrefixRangeWalk(this, tok) : null;
        this.voted = tok.repetitions() > 1;
    }

    private DecoderDistribution(DecoderDistribution o) {
        this.w = o.w;
        this.tok = o.tok;
        this.ordered = o.ordered;
        this.phi = o.phi;
        this.b = o.b;
        this.t = o.t;
        this.v = o.v;
        this.options = o.options;
        this.tabulate = true;
        this.walk = null;
        this.voted = o.voted;
    }

    /**
     * The same distributions answered from a table of every valid sequence's probability (computed once, at most
     * {@link Options#maxLeaves()} sequences): fast repeated density/CDF queries for small vocabularies, and an
     * independent route to the tree algorithms' results.
     */
    public DecoderDistribution tabulated() {
        return tabulate || voted ? this : new DecoderDistribution(this);
    }

    // ------------------------------------------------------------------ special values (NaN, +-Inf tokens)

    /**
     * {@code [3][B]}: P(NaN), P(+Inf), P(-Inf) per row (computed once). For a repetition code: the share of the votes
     * that decode to each; with special tokens ({@link NumberTokenizer#hasSpecialTokens()}): the probability of each
     * special spelling ({@code encode(NaN)}, ...), one teacher-forced pass each; otherwise 0.
     */
    private double[][] specials() {
        double[][] sp = specials;
        if (sp == null) {
            sp = new double[3][b];
            if (voted) {
                VoteTable vt = votes();
                for (int k = 0; k < 3; k++) {
                    sp[k] = vt.special(k);
                }
            } else if (tok.hasSpecialTokens()) {
                double[] which = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
                for (int k = 0; k < 3; k++) {
                    int[][] seq = new int[b][];
                    Arrays.fill(seq, tok.encode(which[k]));
                    double[] lp = score(seq)[0];
                    for (int r = 0; r < b; r++) {
                        sp[k][r] = Math.exp(lp[r]);
                    }
                }
            }
            specials = sp;
        }
        return sp;
    }

    /** P(Y finite) per row, the mass the finite part is divided by (1 without special tokens). */
    private double[] finiteMass() {
        double[][] sp = specials();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = 1 - sp[0][r] - sp[1][r] - sp[2][r];
            Checks.require(out[r] > 0, "row %d: the model puts all its mass on NaN/Inf tokens: the finite part has no"
                    + " distribution", r);
        }
        return out;
    }

    /**
     * P(Y is NaN) per row: 0 unless the tokenizer has special tokens. The {@link PredictiveDistribution} methods
     * describe Y given Y finite (see {@link SpecialValues}).
     */
    @Override
    public double[] probabilityNaN() {
        return specials()[0].clone();
    }

    /** P(Y = +Infinity) per row (see {@link #probabilityNaN()}). */
    @Override
    public double[] probabilityPositiveInfinity() {
        return specials()[1].clone();
    }

    /** P(Y = -Infinity) per row (see {@link #probabilityNaN()}). */
    @Override
    public double[] probabilityNegativeInfinity() {
        return specials()[2].clone();
    }

    /** The table of voted values (built once), for a repetition code ({@link NumberTokenizer#repetitions()} > 1). */
    private VoteTable votes() {
        VoteTable vt = votes;
        if (vt == null) {
            vt = VoteTable.build(start(), tok, b, options.maxLeaves());
            votes = vt;
        }
        return vt;
    }

    /**
     * For a repetition code ({@link NumberTokenizer#repetitions()} {@code > 1}): per row, the probability mass of the full sequences that the enumeration of
     * the votes left out ({@link Options#maxLeaves()} prefixes kept per row and position). 0 means the distribution
     * of the vote is exact; otherwise the reported distribution is the enumerated part renormalised, within this
     * total-variation distance of the true law of the vote ({@code sup_y |F(y) - Fhat(y)| <= bound}).
     *
     * @throws IllegalArgumentException if the tokenizer does not repeat its spelling
     */
    public double[] voteApproximationBound() {
        Checks.require(voted, "voteApproximationBound needs a tokenizer that repeats its spelling (repetitions() > 1),"
                + " got %s", tok);
        return votes().dropped();
    }

    @Override
    public int batchSize() {
        return b;
    }

    /** A fresh key/value-cached decoder at position 0 for every row. */
    DecoderState start() {
        return DecoderState.start(w, phi, b);
    }

    // ------------------------------------------------------------------ teacher-forced scoring

    /** Per row: log P(tokens) and the mass of all sequences before it in token order. */
    private double[][] score(int[][] tokens) {
        DecoderState s = start();
        double[] lp = new double[b];
        double[] below = new double[b];
        double[] path = new double[b];
        Arrays.fill(path, 1.0);
        double[] row = new double[v];
        int[] next = new int[b];
        for (int p = 0; p < t; p++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row);
                int tk = tokens[r][p];
                double before = 0;
                for (int k = 0; k < tk; k++) {
                    before += Math.exp(row[k]);
                }
                below[r] += path[r] * before;
                lp[r] += row[tk];
                path[r] *= Math.exp(row[tk]);
                next[r] = tk;
            }
            s.advance(next);
        }
        return new double[][] {lp, below};
    }

    private void checkY(double[] y) {
        Checks.rowValues("y", y, b);
    }

    /**
     * Which y are in the support; the tokens of each (a placeholder leaf for y outside). Normalized digits: the
     * support is [0, 1]. Other tokenizers: {@code encode(y)} (which may refuse values outside its domain, e.g. a
     * tokenizer without overflow clamping), then y must lie in the interval of its own spelling (a clamped
     * overflow does not).
     */
    private int[][] tokensOf(double[] y, boolean[] inside) {
        int[][] tk = new int[b][];
        int[] any = null;
        for (int r = 0; r < b; r++) {
            inside[r] = Double.isFinite(y[r]) && (!ordered || y[r] >= 0 && y[r] <= 1);
            if (inside[r]) {
                tk[r] = tok.encode(y[r]);
                Interval iv = tok.interval(tk[r]);
                inside[r] = iv.contains(y[r]) || y[r] == iv.hi();
                any = tk[r];
            }
        }
        for (int r = 0; r < b; r++) {
            if (tk[r] == null) {
                tk[r] = any != null ? any : tok.encode(ordered ? 0.0 : 1.0);
            }
        }
        return tk;
    }

    @Override
    public double[] logDensity(double[] y) {
        checkY(y);
        if (voted) {
            return votes().logDensity(y);
        }
        if (tabulate) {
            return leaves().logDensity(y);
        }
        boolean[] inside = new boolean[b];
        int[][] tk = tokensOf(y, inside);
        double[] lp = score(tk)[0];
        double[] finite = finiteMass();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = inside[r] ? lp[r] - Math.log(tok.interval(tk[r]).width()) - Math.log(finite[r])
                    : Double.NEGATIVE_INFINITY;
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        checkY(y);
        if (voted) {
            return votes().cdf(y);
        }
        if (walk != null) {
            double[] c = walk.cdf(y);
            double[] finite = finiteMass();
            for (int r = 0; r < b; r++) {
                c[r] = Math.min(1, c[r] / finite[r]);
            }
            return c;
        }
        if (!ordered || tabulate) {
            return leaves().cdf(y);
        }
        boolean[] inside = new boolean[b];
        int[][] tk = tokensOf(y, inside);
        double[][] sc = score(tk);
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            if (!inside[r]) {
                out[r] = y[r] < 0.5 ? 0 : 1;
                continue;
            }
            Interval iv = tok.interval(tk[r]);
            double u = (y[r] - iv.lo()) / iv.width();
            out[r] = Math.min(1, sc[1][r] + Math.exp(sc[0][r]) * u);
        }
        return out;
    }

    // ------------------------------------------------------------------ tree walk quantiles

    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.require(p >= 0 && p <= 1, "p must be in [0, 1], got %s", p);
        if (p == 0) {
            return supportLowerBound();
        }
        if (p == 1) {
            return supportUpperBound();
        }
        if (voted) {
            return votes().quantile(p);
        }
        if (walk != null) {
            return walk.quantile(p, finiteMass());
        }
        if (!ordered || tabulate) {
            return leaves().quantile(p);
        }
        DecoderState s = start();
        double[] r = new double[b];
        Arrays.fill(r, p);
        double[] row = new double[v];
        int[] next = new int[b];
        for (int pos = 0; pos < t; pos++) {
            for (int i = 0; i < b; i++) {
                s.logProbabilities(i, 1.0, row);
                double c = 0;
                int chosen = -1;
                int last = -1;
                for (int k = 0; k < v; k++) {
                    double q = Math.exp(row[k]);
                    if (q <= 0) {
                        continue;
                    }
                    last = k;
                    if (c + q >= r[i]) {
                        chosen = k;
                        r[i] = Math.min(1, Math.max(0, (r[i] - c) / q));
                        break;
                    }
                    c += q;
                }
                if (chosen < 0) { // rounding left r just above the total mass
                    chosen = last;
                    r[i] = 1;
                }
                next[i] = chosen;
            }
            s.advance(next);
        }
        double[] out = new double[b];
        for (int i = 0; i < b; i++) {
            Interval iv = tok.interval(s.prefix(i));
            out[i] = iv.lo() + r[i] * iv.width();
        }
        return out;
    }

    // ------------------------------------------------------------------ exact mean by tree expansion

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
        if (voted) {
            return votes().mean();
        }
        return exactMean(meanBudget()).mean();
    }

    /** The error budget per row: {@code max(meanTolerance, relativeTolerance * (q(0.75) - q(0.25)))}. */
    private double[] meanBudget() {
        double[] budget = new double[b];
        Arrays.fill(budget, options.meanTolerance());
        if (options.relativeTolerance() > 0 && !voted) {
            double[] q75 = inverseCumulativeProbability(0.75);
            double[] q25 = inverseCumulativeProbability(0.25);
            for (int r = 0; r < b; r++) {
                double spread = q75[r] - q25[r];
                if (Double.isFinite(spread)) {
                    budget[r] = Math.max(budget[r], options.relativeTolerance() * spread);
                }
            }
        }
        return budget;
    }

    /** Var[Y] per row, from the same computation as {@link #mean()}. */
    @Override
    public double[] variance() {
        if (voted) {
            return votes().variance();
        }
        MeanEstimate m = exactMean(meanBudget());
        double[] out = new double[b];
        for (int i = 0; i < b; i++) {
            out[i] = Math.max(0, m.secondMoment()[i] - m.mean()[i] * m.mean()[i]);
        }
        return out;
    }

    /**
     * E[Y] per row by expanding the digit tree under a certified error budget: {@code |E[Y] - mean[b]| <=
     * errorBound[b] <= tolerance} (see {@code MeanExpander}: the lightest prefixes are left unexpanded, counted at
     * their interval centre, while their summed {@code mass * width / 2} fits the row's budget). All expanded
     * prefixes of a chunk of rows go through one decoder step per position. Tolerance 0 gives the exact mean (every
     * prefix with positive mass is expanded, bound 0). Tokenizers without value order use the full leaf list
     * (bound 0): one teacher-forced pass per valid sequence, which takes minutes for tens of thousands of sequences
     * (unlike {@link #mean()}, this does not refuse).
     *
     * @throws IllegalArgumentException if tolerance is negative or not finite, or (no value order) the tokenizer has
     *                                  more than {@link Options#maxLeaves()} valid sequences
     */
    public MeanEstimate exactMean(double tolerance) {
        Checks.require(tolerance >= 0 && tolerance < Double.POSITIVE_INFINITY,
                "tolerance must be >= 0 and finite, got %s", tolerance);
        double[] tol = new double[b];
        Arrays.fill(tol, tolerance);
        return exactMean(tol);
    }

    /** As {@link #exactMean(double)} with the budget {@code tolerance[r]} for row r. */
    private MeanEstimate exactMean(double[] tolerance) {
        if (voted) { // the table of votes: exact, or not certified where the enumeration dropped mass
            VoteTable vt = votes();
            double[] m = vt.mean();
            double[] var = vt.variance();
            double[] dropped = vt.dropped();
            double[] bound = new double[b];
            double[] second = new double[b];
            for (int r = 0; r < b; r++) {
                bound[r] = dropped[r] > 0 ? Double.POSITIVE_INFINITY : 0;
                second[r] = var[r] + m[r] * m[r];
            }
            return new MeanEstimate(m, bound, second);
        }
        if (walk != null && !tabulate) {
            return prefixRangeMean(tolerance);
        }
        if (!ordered || tabulate) {
            return leaves().moments();
        }
        double[] mean = new double[b];
        double[] bound = new double[b];
        double[] second = new double[b];
        DecoderState start = start();
        for (int c0 = 0; c0 < b; c0 += MEAN_CHUNK) {
            MeanExpander.expand(start, c0, Math.min(b, c0 + MEAN_CHUNK), tolerance, t, v, mean, bound, second,
                    MeanExpander.MAX_STATE_ROWS, MeanExpander.NORMALIZED, 0.0, 1.0, Integer.MAX_VALUE);
        }
        return new MeanEstimate(mean, bound, second);
    }

    /**
     * The exact mean for a tokenizer with prefix ranges that is not fixed point (e.g. sign-exponent-mantissa tokens):
     * the same certified expansion with prefix value ranges ({@code MeanExpander.prefixRanges}: {@code prefixRange},
     * widened by the detached sequence's cell on its path), at most {@link Options#maxMeanNodes()} expanded prefixes
     * per row and level; the sums are divided by P(finite).
     */
    private MeanEstimate prefixRangeMean(double[] tolerance) {
        double[] finite = finiteMass();
        double[] mean = new double[b];
        double[] bound = new double[b];
        double[] second = new double[b];
        DecoderState start = start();
        MeanExpander.Ranges ranges = MeanExpander.prefixRanges(tok);
        double[] scaled = new double[b]; // the sums are divided by P(finite) below
        for (int r = 0; r < b; r++) {
            scaled[r] = tolerance[r] * finite[r];
        }
        for (int c0 = 0; c0 < b; c0 += MEAN_CHUNK) {
            int c1 = Math.min(b, c0 + MEAN_CHUNK);
            MeanExpander.expand(start, c0, c1, scaled, t, v, mean, bound, second,
                    MeanExpander.MAX_STATE_ROWS, ranges, walk.lowest(), walk.highest(), options.maxMeanNodes());
        }
        for (int r = 0; r < b; r++) {
            mean[r] /= finite[r];
            bound[r] /= finite[r];
            second[r] /= finite[r];
        }
        return new MeanEstimate(mean, bound, second);
    }

    // ------------------------------------------------------------------ sampling

    /** Draws exact samples: a leaf by ancestral sampling, then a uniform point inside its interval. */
    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        if (voted) {
            Checks.notNull("rng", rng);
            Checks.atLeast("n", n, 1);
            return votes().sample(rng, n);
        }
        int[][] seq = sampleSequences(rng, n, Sampling.plain());
        double[][] out = new double[n][b];
        int[] missing = new int[b]; // draws that were special values: Y given Y finite redraws them
        int most = 0;
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < n; j++) {
                int[] q = seq[r * n + j];
                if (Double.isFinite(tok.decode(q))) {
                    Interval iv = tok.interval(q);
                    out[j - missing[r]][r] = iv.lo() + rng.nextDouble() * iv.width();
                } else {
                    missing[r]++;
                }
            }
            most = Math.max(most, missing[r]);
        }
        if (most > 0) {
            finiteMass(); // refuses rows without a finite part
            while (most > 0) { // rejection: redraw until every row has n finite draws
                int[][] more = sampleSequences(rng, most, Sampling.plain());
                int next = 0;
                for (int r = 0; r < b; r++) {
                    for (int j = 0; j < most && missing[r] > 0; j++) {
                        int[] q = more[r * most + j];
                        if (Double.isFinite(tok.decode(q))) {
                            Interval iv = tok.interval(q);
                            out[n - missing[r]][r] = iv.lo() + rng.nextDouble() * iv.width();
                            missing[r]--;
                        }
                    }
                    next = Math.max(next, missing[r]);
                }
                most = next;
            }
        }
        return out;
    }

    /** Sampled sequences decoded to {@code tokenizer.decode} values: {@code [n][B]}. */
    public double[][] sampleValues(UniformRandomProvider rng, int n, Sampling sampling) {
        int[][] seq = sampleSequences(rng, n, sampling);
        double[][] out = new double[n][b];
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < n; j++) {
                out[j][r] = tok.decode(seq[r * n + j]);
            }
        }
        return out;
    }

    /**
     * {@code n} independent sequences per row, {@code [B * n][T]} (row r's samples at r*n..r*n+n-1): one cached
     * decoder step per distinct prefix and position, shared by all samples on that prefix (exact: each sample
     * draws its own token at every node; see {@code PrefixSampler}).
     *
     * @throws IllegalArgumentException if n &lt; 1 or rng/sampling is null
     */
    public int[][] sampleSequences(UniformRandomProvider rng, int n, Sampling sampling) {
        Checks.notNull("rng", rng);
        Checks.notNull("sampling", sampling);
        Checks.atLeast("n", n, 1);
        // blocks of input rows so that one block's state (rows x T x d per layer, ff-wide activations) stays bounded
        return PrefixSampler.sample(start(), b, t, v, n, sampling, rng, Math.max(1, BLOCK_ROWS / n));
    }

    /**
     * In place: keeps the k most probable tokens (k = 0: all), then the smallest set of most probable tokens whose
     * mass reaches topP (always at least one), zeroes the rest and renormalises.
     */
    static void filter(double[] p, int topK, double topP) {
        if (topK == 0 && topP >= 1) {
            return;
        }
        Integer[] order = new Integer[p.length];
        for (int i = 0; i < p.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -p[i]));
        int keep = topK == 0 ? p.length : Math.min(topK, p.length);
        double total = 0;
        for (int j = 0; j < keep; j++) {
            total += p[order[j]];
        }
        double c = 0;
        int nucleus = 0;
        while (nucleus < keep) {
            c += p[order[nucleus]];
            nucleus++;
            if (c >= topP * total) {
                break;
            }
        }
        double kept = 0;
        for (int j = 0; j < p.length; j++) {
            if (j < nucleus) {
                kept += p[order[j]];
            } else {
                p[order[j]] = 0;
            }
        }
        for (int j = 0; j < p.length; j++) {
            p[j] /= kept;
        }
    }

    static int draw(double[] p, double u) {
        double c = 0;
        int last = -1;
        for (int k = 0; k < p.length; k++) {
            if (p[k] > 0) {
                c += p[k];
                last = k;
                if (u < c) {
                    return k;
                }
            }
        }
        return last;
    }

    /** The mean of n sampled values per row (for comparison with {@link #exactMean}). */
    public double[] sampleMean(UniformRandomProvider rng, int n, Sampling sampling) {
        double[][] s = sampleValues(rng, n, sampling);
        double[] m = new double[b];
        for (double[] row : s) {
            for (int r = 0; r < b; r++) {
                m[r] += row[r] / n;
            }
        }
        return m;
    }

    /**
     * Harrell-Davis median of n sampled values per row: {@code sum_i W_i x_(i)}, {@code W_i = I_{i/n}(a, a) -
     * I_{(i-1)/n}(a, a)}, {@code a = (n + 1) / 2}.
     */
    public double[] sampleMedian(UniformRandomProvider rng, int n, Sampling sampling) {
        double[][] s = sampleValues(rng, n, sampling);
        double[] wts = harrellDavisWeights(n);
        double[] out = new double[b];
        double[] col = new double[n];
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < n; j++) {
                col[j] = s[j][r];
            }
            Arrays.sort(col);
            for (int j = 0; j < n; j++) {
                out[r] += wts[j] * col[j];
            }
        }
        return out;
    }

    static double[] harrellDavisWeights(int n) {
        return io.regheads.core.internal.HarrellDavis.weights(n);
    }

    // ------------------------------------------------------------------ beam search, mode, votes

    /**
     * Beam search for the <b>density mode</b> with {@code width} beams per row: partial sequences are ranked by an
     * upper bound on the density any completion can reach, {@code log P(prefix) - log minWidth(prefix)} (minWidth:
     * the smallest cell width among the prefix's completions), and the final sequences by their density {@code log
     * P(sequence) - log width}. For tokenizers whose cells all have one width (normalized digits, Hamming) this is the
     * ranking by probability; for sign-exponent-mantissa tokens, whose cells range over many orders of magnitude,
     * ranking by probability alone would prefer a likely wide cell over a denser narrow one. Sequences that decode to
     * a special value (NaN, +-Inf) have no density and are never chosen. A width that covers every prefix is an exact
     * search (tested against brute force).
     *
     * @return per row the densest sequence found, its log-probability and log-density
     * @throws IllegalArgumentException if width &lt; 1
     */
    public Beam beamSearch(int width) {
        Checks.atLeast("width", width, 1);
        DecoderState s = start();
        double[] score = new double[b];
        double[] row = new double[v];
        for (int pos = 0; pos < t; pos++) {
            int n = s.rows();
            List<double[]> cand = new ArrayList<>(); // {row, token, score}
            for (int i = 0; i < n; i++) {
                s.logProbabilities(i, 1.0, row);
                for (int k = 0; k < v; k++) {
                    if (row[k] > Double.NEGATIVE_INFINITY) {
                        cand.add(new double[] {i, k, score[i] + row[k],
                            score[i] + row[k] - logMinWidth(s.prefix(i), pos, k)});
                    }
                }
            }
            List<List<double[]>> bySource = new ArrayList<>();
            for (int r = 0; r < b; r++) {
                bySource.add(new ArrayList<>());
            }
            for (double[] c : cand) {
                bySource.get(s.source((int) c[0])).add(c);
            }
            List<double[]> kept = new ArrayList<>();
            for (List<double[]> l : bySource) {
                l.sort(Comparator.comparingDouble((double[] c) -> -c[3]));
                kept.addAll(l.subList(0, Math.min(width, l.size())));
            }
            int[] par = new int[kept.size()];
            int[] tk = new int[kept.size()];
            score = new double[kept.size()];
            for (int j = 0; j < par.length; j++) {
                par[j] = (int) kept.get(j)[0];
                tk[j] = (int) kept.get(j)[1];
                score[j] = kept.get(j)[2];
            }
            s = s.select(par);
            s.advance(tk);
        }
        int[][] best = new int[b][];
        double[] bestLp = new double[b];
        double[] bestLd = new double[b];
        Arrays.fill(bestLd, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < s.rows(); i++) {
            int r = s.source(i);
            int[] seq = s.prefix(i);
            if (!Double.isFinite(tok.decode(seq))) {
                continue; // a special value: no density
            }
            double ld = score[i] - Math.log(tok.interval(seq).width());
            if (best[r] == null || ld > bestLd[r]) {
                best[r] = seq;
                bestLp[r] = score[i];
                bestLd[r] = ld;
            }
        }
        return new Beam(best, bestLp, bestLd);
    }

    /**
     * {@code log} of a lower bound on the cell widths of the completions of {@code prefix[0..pos-1], k} ({@link
     * NumberTokenizer#narrowestCell}): {@code +Infinity} for a prefix without a number completion (a special token,
     * ranked last), and 0 where the tokenizer knows no positive bound (its prefixes then rank by probability).
     */
    private double logMinWidth(int[] prefix, int pos, int k) {
        int[] c = prefix.clone();
        c[pos] = k;
        double w = tok.narrowestCell(c, pos + 1);
        return w > 0 ? Math.log(w) : 0;
    }

    /** The decoded value of the highest-density sequence found by a beam search of {@link Options#beamWidth()}. */
    @Override
    public double[] mode() {
        if (voted) {
            return votes().mode();
        }
        Beam beam = beamSearch(options.beamWidth());
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = tok.decode(beam.tokens()[r]);
        }
        return out;
    }

    /**
     * Greedy decoding: token by token the most probable allowed token (ties to the smaller id), decoded with {@link
     * NumberTokenizer#decode} (which votes for a repetition code; a sequence spelling a special token decodes to its
     * special value). T decoder steps for all rows. A cheap approximation of the most probable sequence (not of the
     * density mode, which {@link #beamSearch} ranks by), and the arithmetic benchmark's point prediction, as in the
     * papers' text models.
     *
     * @return {@code [B]} decoded values
     */
    public double[] greedy() {
        DecoderState s = start();
        double[] row = new double[v];
        int[] next = new int[b];
        for (int pos = 0; pos < t; pos++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row); // masked: disallowed tokens are -infinity
                int best = 0;
                for (int k = 1; k < v; k++) {
                    if (row[k] > row[best]) {
                        best = k;
                    }
                }
                next[r] = best;
            }
            s.advance(next);
        }
        double[] out = new double[b];
        int[] seq = new int[t];
        for (int r = 0; r < b; r++) {
            for (int p = 0; p < t; p++) {
                seq[p] = s.token(r, p);
            }
            out[r] = tok.decode(seq);
        }
        return out;
    }

    /**
     * Error-corrected greedy prediction for a repetition code ({@link NumberTokenizer#repetitions()} {@code > 1}):
     * decode greedily (argmax at each position), then vote per inner position: majority of the greedy tokens
     * ({@code soft = false}, {@link NumberTokenizer#decode}) or the largest summed probability ({@code soft = true},
     * {@link NumberTokenizer#decodeSoft}).
     *
     * @throws IllegalArgumentException if the tokenizer does not repeat its spelling
     */
    public double[] vote(boolean soft) {
        Checks.require(tok.repetitions() > 1, "vote needs a tokenizer that repeats its spelling (repetitions() > 1), got %s",
                tok);
        DecoderState s = start();
        double[][][] probs = new double[b][t][v];
        double[] row = new double[v];
        int[] next = new int[b];
        for (int pos = 0; pos < t; pos++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row);
                int best = 0;
                for (int k = 0; k < v; k++) {
                    probs[r][pos][k] = Math.exp(row[k]);
                    if (row[k] > row[best]) {
                        best = k;
                    }
                }
                next[r] = best;
            }
            s.advance(next);
        }
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = soft ? tok.decodeSoft(probs[r]) : tok.decode(s.prefix(r));
        }
        return out;
    }

    // ------------------------------------------------------------------ support and leaves

    /**
     * 0 for fixed-point digits; for a tokenizer with prefix ranges the low end of its whole number range (from
     * {@link NumberTokenizer#prefixRange}, no enumeration); otherwise the lowest interval end over all valid
     * sequences when there are at most {@link Options#maxLeaves()} of them, else {@code -Infinity} (not enumerated).
     */
    @Override
    public double[] supportLowerBound() {
        double[] out = new double[b];
        if (voted) {
            return votes().lowest();
        }
        if (walk != null) {
            Arrays.fill(out, walk.lowest());
            return out;
        }
        List<int[]> seq = ordered ? null : sequences();
        Arrays.fill(out, ordered ? 0.0 : seq == null ? Double.NEGATIVE_INFINITY : tok.interval(seq.get(0)).lo());
        return out;
    }

    /** As {@link #supportLowerBound()}: 1, the high end of the number range, the highest interval end, or +Infinity. */
    @Override
    public double[] supportUpperBound() {
        double[] out = new double[b];
        if (voted) {
            return votes().highest();
        }
        if (walk != null) {
            Arrays.fill(out, walk.highest());
            return out;
        }
        List<int[]> seq = ordered ? null : sequences();
        Arrays.fill(out, ordered ? 1.0 : seq == null ? Double.POSITIVE_INFINITY
                : tok.interval(seq.get(seq.size() - 1)).hi());
        return out;
    }

    /** Every valid sequence sorted by interval, or null if there are more than {@link Options#maxLeaves()}. */
    private List<int[]> sequences() {
        List<int[]> s = sequences;
        if (s == null && !tooMany) {
            List<int[]> list = new ArrayList<>();
            if (enumerate(tok, new int[t], 0, options.maxLeaves(), list)) {
                list.removeIf(q -> !Double.isFinite(tok.decode(q))); // special values have no interval
                list.sort(Comparator.comparingDouble((int[] q) -> tok.interval(q).lo()));
                sequences = list;
                s = list;
            } else {
                tooMany = true;
            }
        }
        return s;
    }

    private static boolean enumerate(NumberTokenizer tk, int[] prefix, int pos, int max, List<int[]> out) {
        if (pos == prefix.length) {
            if (out.size() >= max) {
                return false;
            }
            out.add(prefix.clone());
            return true;
        }
        boolean[] a = tk.allowed(pos, prefix);
        for (int k = 0; k < a.length; k++) {
            if (a[k]) {
                prefix[pos] = k;
                if (!enumerate(tk, prefix, pos + 1, max, out)) {
                    return false;
                }
            }
        }
        return true;
    }

    private Leaves leaves() {
        Leaves l = leaves;
        if (l == null) {
            l = new Leaves(this);
            leaves = l;
        }
        return l;
    }

    /** Every valid sequence (sorted by interval) with its probability per row, for tokenizers without value order. */
    private static final class Leaves {
        final List<int[]> seq = new ArrayList<>();
        final Interval[] iv;
        final double[][] prob; // [B][L]
        final DecoderDistribution dist;

        Leaves(DecoderDistribution dd) {
            this.dist = dd;
            NumberTokenizer tk = dd.tok;
            List<int[]> all = dd.sequences();
            Checks.require(all != null, "the tokenizer has more than %d valid sequences: exact CDF, quantiles and mean"
                    + " need fixed-point digits or prefix ranges (NumberTokenizer capabilities); use sampling",
                    dd.options.maxLeaves());
            seq.addAll(all);
            iv = new Interval[seq.size()];
            for (int i = 0; i < iv.length; i++) {
                iv[i] = tk.interval(seq.get(i));
                Checks.require(i == 0 || iv[i].lo() >= iv[i - 1].hi(),
                        "sequence intervals must not overlap, got %s and %s", iv[Math.max(0, i - 1)], iv[i]);
            }
            prob = new double[dd.b][iv.length];
            // teacher-forced scoring of every leaf for every row
            int[][] one = new int[dd.b][];
            double[] total = new double[dd.b];
            for (int i = 0; i < iv.length; i++) {
                for (int r = 0; r < dd.b; r++) {
                    one[r] = seq.get(i);
                }
                double[] lp = dd.score(one)[0];
                for (int r = 0; r < dd.b; r++) {
                    prob[r][i] = Math.exp(lp[r]);
                    total[r] += prob[r][i];
                }
            }
            for (int r = 0; r < dd.b; r++) { // the finite part (special values have no interval), renormalised
                for (int i = 0; i < iv.length; i++) {
                    prob[r][i] /= total[r];
                }
            }
        }

        double lo() {
            return iv[0].lo();
        }

        double hi() {
            return iv[iv.length - 1].hi();
        }

        double[] logDensity(double[] y) {
            double[] out = new double[dist.b];
            for (int r = 0; r < dist.b; r++) {
                out[r] = Double.NEGATIVE_INFINITY;
                int lo = 0;
                int hi = iv.length - 1;
                while (lo < hi) { // last leaf with iv.lo <= y
                    int mid = (lo + hi + 1) >>> 1;
                    if (iv[mid].lo() <= y[r]) {
                        lo = mid;
                    } else {
                        hi = mid - 1;
                    }
                }
                boolean last = lo == iv.length - 1;
                if (iv[lo].contains(y[r]) || last && y[r] == iv[lo].hi()) {
                    out[r] = Math.log(prob[r][lo] / iv[lo].width());
                }
            }
            return out;
        }

        double[] cdf(double[] y) {
            double[] out = new double[dist.b];
            for (int r = 0; r < dist.b; r++) {
                double c = 0;
                for (int i = 0; i < iv.length; i++) {
                    if (y[r] >= iv[i].hi()) {
                        c += prob[r][i];
                    } else {
                        if (y[r] > iv[i].lo()) {
                            c += prob[r][i] * (y[r] - iv[i].lo()) / iv[i].width();
                        }
                        break;
                    }
                }
                out[r] = Math.min(1, c);
            }
            return out;
        }

        double[] quantile(double p) {
            double[] out = new double[dist.b];
            for (int r = 0; r < dist.b; r++) {
                double c = 0;
                int last = -1;
                out[r] = hi();
                for (int i = 0; i < iv.length; i++) {
                    double q = prob[r][i];
                    if (q <= 0) {
                        continue;
                    }
                    last = i;
                    if (c + q >= p) {
                        out[r] = iv[i].lo() + Math.min(1, (p - c) / q) * iv[i].width();
                        last = -2;
                        break;
                    }
                    c += q;
                }
                if (last >= 0) {
                    out[r] = iv[last].hi();
                }
            }
            return out;
        }

        MeanEstimate moments() {
            double[] m = new double[dist.b];
            double[] s2 = new double[dist.b];
            for (int r = 0; r < dist.b; r++) {
                for (int i = 0; i < iv.length; i++) {
                    double c = 0.5 * (iv[i].lo() + iv[i].hi());
                    double wd = iv[i].width();
                    m[r] += prob[r][i] * c;
                    s2[r] += prob[r][i] * (c * c + wd * wd / 12);
                }
            }
            return new MeanEstimate(m, new double[dist.b], s2);
        }
    }
}
