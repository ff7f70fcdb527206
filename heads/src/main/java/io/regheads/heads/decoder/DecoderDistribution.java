package io.regheads.heads.decoder;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.RepeatedTokenizer;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.numbers.gamma.RegularizedBeta;
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
 * These need value order = lexicographic token order, which holds for {@link NormalizedTokenizer}. For an
 * {@link UnnormalizedTokenizer} the CDF and the quantiles walk the tree too (T decoder steps per query, see
 * {@code UnnormalizedWalk}): every prefix stands for a contiguous value range, the zero spelling is split off as its
 * own piece, and special tokens (if any) are left out. For other tokenizers, and for the unnormalized exact mean,
 * the same quantities come from the full list of valid sequences (at most {@link Options#maxLeaves()}), sorted by
 * interval.
 *
 * <p><b>Point estimate of unnormalized decoders.</b> Use {@link #median()} (the tree-walk 0.5 quantile, T steps):
 * the exact mean needs every valid sequence per row (about 36 000 for B=10, E=1, M=3: minutes for the 150 test rows
 * of {@code regheads compare}) and is dominated by the little mass a trained model leaves on huge exponents (a mass
 * of 1e-6 on 1e9 moves the mean by 1e3). So {@link #mean()} and {@link #variance()} refuse with an {@link
 * IllegalStateException} beyond {@link #MEAN_MAX_SEQUENCES} sequences, naming the alternatives; {@link
 * #exactMean} still enumerates when asked, and {@link #sampleMean} estimates.
 *
 * <p>Also: {@link #sample} (exact, uniform inside the drawn leaf), {@link #sampleValues} with temperature, top-k
 * and top-p, {@link #beamSearch} and {@link #mode}, sample-based mean and Harrell-Davis median, and majority/soft
 * votes for {@link RepeatedTokenizer}. Immutable (a snapshot of the head's parameters) and thread-safe.
 */
public final class DecoderDistribution implements PredictiveDistribution {

    /**
     * Inference settings.
     *
     * @param beamWidth     beams kept by {@link #mode()} (>= 1)
     * @param meanTolerance certified error budget per row of {@link #mean()} (see {@link #exactMean}) and the
     *                      pruning of {@link #variance()} (>= 0; 0 expands the whole tree)
     * @param maxLeaves     largest number of valid sequences enumerated for tokenizers without value order
     */
    public record Options(int beamWidth, double meanTolerance, int maxLeaves) {
        public Options {
            Checks.atLeast("beamWidth", beamWidth, 1);
            Checks.require(meanTolerance >= 0 && meanTolerance < Double.POSITIVE_INFINITY,
                    "meanTolerance must be >= 0 and finite, got %s", meanTolerance);
            Checks.atLeast("maxLeaves", maxLeaves, 1);
        }

        /** Beam 8, tolerance 1e-9, 100 000 leaves. */
        public static Options defaults() {
            return new Options(8, 1e-9, 100_000);
        }
    }

    /**
     * Sampling settings (DESIGN.md section 5, anchors B3): logits divided by the temperature, then top-k, then the
     * nucleus: the smallest set of most probable tokens whose mass reaches topP.
     *
     * @param temperature > 0
     * @param topK        0 for none, else >= 1
     * @param topP        in (0, 1]; 1 for none
     */
    public record Sampling(double temperature, int topK, double topP) {
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

    /** Exact mean with a certified bound: {@code |E[Y] - mean[b]| <= errorBound[b]}. */
    public record MeanEstimate(double[] mean, double[] errorBound, double[] secondMoment) {}

    /** Best sequences of a beam search, {@code tokens [B][T]}, their log-probabilities and log-densities. */
    public record Beam(int[][] tokens, double[] logProbability, double[] logDensity) {}

    /**
     * Sample slots (input rows x samples) per block in sampling: bounds a block's state; prefix sharing keeps the
     * live state rows well below it (measured on the peer setup: 8192-32768 equally fast, 2048 and 131072 slower).
     */
    private static final int BLOCK_ROWS = 16384;

    /**
     * Input rows whose trees are expanded together by {@link #exactMean} (the expansion splits a level into parts
     * when it has more live prefixes than {@code MeanExpander.MAX_STATE_ROWS}).
     */
    private static final int MEAN_CHUNK = 256;

    private final DecoderState.Weights w;
    private final NumberTokenizer tok;
    private final boolean ordered;
    private final double[] phi; // [B * D]
    private final int b;
    private final int t;
    private final int v;
    private final Options options;
    private final boolean tabulate;
    private final UnnormalizedWalk walk; // tree walks for unnormalized tokenizers, else null
    private volatile Leaves leaves;
    private volatile List<int[]> sequences;
    private volatile boolean tooMany;

    DecoderDistribution(DecoderHead head, INDArray phi, Options options) {
        Checks.rows("phi", phi, "D", head.inputWidth());
        Checks.finiteRows("phi", phi);
        this.w = new DecoderState.Weights(head);
        this.tok = head.tokenizer();
        this.ordered = tok instanceof NormalizedTokenizer;
        this.phi = Host.doubles(phi);
        this.b = Math.toIntExact(phi.size(0));
        this.t = w.t;
        this.v = w.v;
        this.options = Checks.notNull("options", options);
        this.tabulate = false;
        this.walk = tok instanceof UnnormalizedTokenizer ut ? new UnnormalizedWalk(this, ut) : null;
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
    }

    /**
     * The same distributions answered from a table of every valid sequence's probability (computed once, at most
     * {@link Options#maxLeaves()} sequences): fast repeated density/CDF queries for small vocabularies, and an
     * independent route to the tree algorithms' results.
     */
    public DecoderDistribution tabulated() {
        return tabulate ? this : new DecoderDistribution(this);
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
        if (tabulate) {
            return leaves().logDensity(y);
        }
        boolean[] inside = new boolean[b];
        int[][] tk = tokensOf(y, inside);
        double[] lp = score(tk)[0];
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = inside[r] ? lp[r] - Math.log(tok.interval(tk[r]).width()) : Double.NEGATIVE_INFINITY;
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        checkY(y);
        if (walk != null) {
            return walk.cdf(y);
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
        if (walk != null) {
            return walk.quantile(p);
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
     * Most valid sequences that {@link #mean()} and {@link #variance()} score (one teacher-forced pass each) for a
     * tokenizer without value order; beyond it they refuse rather than run for minutes (a pass costs milliseconds).
     */
    public static final int MEAN_MAX_SEQUENCES = 1024;
    /** Most sequence-rows (valid sequences times rows B) that {@link #mean()} and {@link #variance()} score. */
    public static final long MEAN_MAX_LEAF_ROWS = 65_536;

    /**
     * E[Y] per row. Value-ordered (normalized) digits: the certified tree expansion of {@link #exactMean} with the
     * tolerance of the {@link Options}, bounded work. Other tokenizers (unnormalized, repeated): the mean needs the
     * probability of every valid sequence, one teacher-forced pass each; that is done only for at most {@value
     * #MEAN_MAX_SEQUENCES} sequences and {@value #MEAN_MAX_LEAF_ROWS} sequences x B (or on a {@link #tabulated()}
     * distribution, whose table exists), so the call never runs unbounded.
     *
     * @throws IllegalStateException for a tokenizer without value order beyond those bounds (an unnormalized
     *                               tokenizer with 3 mantissa digits has tens of thousands of valid sequences); the
     *                               message names the alternatives: {@link
     *                               #median()} (tree walk, T decoder steps), {@link #sampleMean} and {@link
     *                               #exactMean} (the full enumeration, paid for knowingly)
     */
    @Override
    public double[] mean() {
        requireBoundedMoments("mean()");
        return exactMean(options.meanTolerance()).mean();
    }

    /** Var[Y] per row, from the same computation as {@link #mean()}, with the same bound and refusal. */
    @Override
    public double[] variance() {
        requireBoundedMoments("variance()");
        MeanEstimate m = exactMean(options.meanTolerance());
        double[] out = new double[b];
        for (int i = 0; i < b; i++) {
            out[i] = Math.max(0, m.secondMoment()[i] - m.mean()[i] * m.mean()[i]);
        }
        return out;
    }

    /** Refuses {@code what} beyond {@link #MEAN_MAX_SEQUENCES} sequences or {@link #MEAN_MAX_LEAF_ROWS} sequence-rows. */
    private void requireBoundedMoments(String what) {
        if (ordered || tabulate) {
            return;
        }
        List<int[]> seq = sequences();
        long leaves = seq == null ? options.maxLeaves() + 1L : seq.size();
        if (leaves > MEAN_MAX_SEQUENCES || leaves * b > MEAN_MAX_LEAF_ROWS) {
            throw new IllegalStateException(String.format(java.util.Locale.ROOT, "%s of this decoder is not computed: "
                    + "its tokens are not in value order, so it needs the probability of every one of %s%d valid "
                    + "sequences for each of the %d rows, one decoder pass per sequence (bounds: %d sequences, %d "
                    + "sequence-rows; a few rare huge exponents would also dominate it). Use median() (a tree walk) or "
                    + "sampleMean(rng, n, sampling) instead, or exactMean(0) to pay for the full enumeration", what,
                    seq == null ? "more than " : "", seq == null ? options.maxLeaves() : leaves, b, MEAN_MAX_SEQUENCES,
                    MEAN_MAX_LEAF_ROWS));
        }
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
        if (!ordered || tabulate) {
            return leaves().moments();
        }
        double[] mean = new double[b];
        double[] bound = new double[b];
        double[] second = new double[b];
        DecoderState start = start();
        for (int c0 = 0; c0 < b; c0 += MEAN_CHUNK) {
            MeanExpander.expand(start, c0, Math.min(b, c0 + MEAN_CHUNK), tolerance, t, v, mean, bound, second);
        }
        return new MeanEstimate(mean, bound, second);
    }

    // ------------------------------------------------------------------ sampling

    /** Draws exact samples: a leaf by ancestral sampling, then a uniform point inside its interval. */
    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        int[][] seq = sampleSequences(rng, n, Sampling.plain());
        double[][] out = new double[n][b];
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < n; j++) {
                Interval iv = tok.interval(seq[r * n + j]);
                out[j][r] = iv.lo() + rng.nextDouble() * iv.width();
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
     * @throws IllegalArgumentException if n < 1 or rng/sampling is null
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
        double a = (n + 1) / 2.0;
        double[] wts = new double[n];
        double prev = 0;
        for (int i = 1; i <= n; i++) {
            double cur = i == n ? 1 : RegularizedBeta.value((double) i / n, a, a);
            wts[i - 1] = cur - prev;
            prev = cur;
        }
        return wts;
    }

    // ------------------------------------------------------------------ beam search, mode, votes

    /** Beam search with {@code width} beams per row; returns the most probable final sequence of each row. */
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
                        cand.add(new double[] {i, k, score[i] + row[k]});
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
                l.sort(Comparator.comparingDouble((double[] c) -> -c[2]));
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
            double ld = score[i] - Math.log(tok.interval(seq).width());
            if (best[r] == null || ld > bestLd[r]) {
                best[r] = seq;
                bestLp[r] = score[i];
                bestLd[r] = ld;
            }
        }
        return new Beam(best, bestLp, bestLd);
    }

    /** The decoded value of the highest-density sequence found by a beam search of {@link Options#beamWidth()}. */
    @Override
    public double[] mode() {
        Beam beam = beamSearch(options.beamWidth());
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = tok.decode(beam.tokens()[r]);
        }
        return out;
    }

    /**
     * Error-corrected greedy prediction for a {@link RepeatedTokenizer}: decode greedily (argmax at each position),
     * then vote per inner position: majority of the greedy tokens ({@code soft = false}) or the largest summed
     * probability ({@code soft = true}).
     *
     * @throws IllegalArgumentException if the tokenizer is not a RepeatedTokenizer
     */
    public double[] vote(boolean soft) {
        Checks.require(tok instanceof RepeatedTokenizer, "vote needs a RepeatedTokenizer, got %s", tok);
        RepeatedTokenizer rt = (RepeatedTokenizer) tok;
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
            out[r] = soft ? rt.decodeSoft(probs[r]) : rt.decode(s.prefix(r));
        }
        return out;
    }

    // ------------------------------------------------------------------ support and leaves

    /**
     * 0 for normalized digits; for an {@link UnnormalizedTokenizer} the low end of its whole number range (from
     * {@link UnnormalizedTokenizer#prefixRange}, no enumeration); otherwise the lowest interval end over all valid
     * sequences when there are at most {@link Options#maxLeaves()} of them, else {@code -Infinity} (not enumerated).
     */
    @Override
    public double[] supportLowerBound() {
        double[] out = new double[b];
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
                    + " need value-ordered tokens (NormalizedTokenizer); use sampling", dd.options.maxLeaves());
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
            for (int i = 0; i < iv.length; i++) {
                for (int r = 0; r < dd.b; r++) {
                    one[r] = seq.get(i);
                }
                double[] lp = dd.score(one)[0];
                for (int r = 0; r < dd.b; r++) {
                    prob[r][i] = Math.exp(lp[r]);
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
