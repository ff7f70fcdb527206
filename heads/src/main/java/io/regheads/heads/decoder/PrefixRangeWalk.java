package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import io.regheads.core.token.PrefixRanges;
import io.regheads.heads.decoder.DecoderDistribution.MeanEstimate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exact inference over a tokenizer with prefix ranges ({@link PrefixRanges}, e.g. sign-exponent-mantissa tokens)
 * that is not fixed point: CDF and quantiles by walking the token tree (T decoder steps for all rows per query, no
 * enumeration of the valid sequences), the density by one teacher-forced pass, and the mean by the certified
 * expansion with prefix value ranges ({@link #moments}).
 *
 * <p><b>Why a walk works.</b> Token order need not be value order (a {@code -} sign or exponent sign reverses the
 * digits after it), but every prefix still stands for one contiguous value range, disjoint from its siblings'
 * ({@link PrefixRanges#prefixRange}), with at most one exception, the detached sequence ({@link
 * PrefixRanges#detachedSequence()}; for sign-exponent-mantissa tokens the zero spelling {@code + + 0..0 0..0},
 * whose cell {@code [-B^eMin/2, B^eMin/2)} lies outside the ranges of its proper prefixes). Below it is called the
 * zero sequence. So the children of a prefix are turned into <em>pieces</em>, sorted by value: one piece per child,
 * except that the child on the zero path is split into the zero leaf (mass {@code P0 = P(zero sequence)}, from one
 * extra teacher-forced pass) and the rest of the child (its mass minus P0). A walk that enters the rest of a
 * zero-path child leaves the zero piece out from then on. Without a detached sequence every child is one piece.
 * Prefixes without a number completion (a special token: NaN, +-Inf) have no range and are left out: with special
 * tokens the walked CDF rises to the number mass {@code 1 - P(specials)}, not to 1: {@link #cdf} divides it by that
 * mass, and {@link #quantile} walks to the level {@code p} times it (the distribution of Y given Y finite).
 *
 * <ul>
 *   <li>CDF at y (leaf {@code t = encode(y)} whose cell holds y): {@code F(y) = sum over positions k of the masses of
 *       the pieces at level k that lie below the piece on y's path, + P(t) (y - lo) / width}.
 *   <li>Quantile at p: at each level take the first piece (in value order) whose mass reaches the residual level,
 *       subtract the masses before it, descend; inside the final leaf (or the zero cell) interpolate linearly.
 * </ul>
 *
 * <p>Piece lists are memoised per prefix (thread-safe map); P0 is computed once. Immutable apart from these caches;
 * thread-safe.
 */
final class PrefixRangeWalk implements DigitTree {
    /** Piece kinds: a whole child, the zero leaf inside a zero-path child, the rest of a zero-path child. */
    private static final int WHOLE = 0;
    private static final int ZERO = 1;
    private static final int REST = 2;

    /** A value-ordered part of a child's subtree: token, kind and value range [lo, hi). */
    private record Piece(int token, int kind, double lo, double hi) {}

    private final DecoderRows rows;
    private final SpecialMass specials;
    private final DecoderDistribution.Options options;
    private final PrefixRanges tok;
    private final int b;
    private final int t;
    private final int v;
    private final int[] zero; // the detached sequence, or null
    private final Interval zeroCell; // its interval, or null
    private final int[] numberPath; // a valid sequence with a value: the placeholder path of rows outside the support
    private final ConcurrentHashMap<String, Piece[]> pieces = new ConcurrentHashMap<>();
    private final Once<double[]> zeroMass;

    /** @throws IllegalArgumentException unless the tokenizer has prefix ranges */
    PrefixRangeWalk(DecoderRows rows, SpecialMass specials, DecoderDistribution.Options options) {
        Checks.require(rows.tok instanceof PrefixRanges, "the tree walk needs a tokenizer with prefix ranges, got %s",
                rows.tok);
        PrefixRanges tok = (PrefixRanges) rows.tok;
        this.rows = rows;
        this.specials = specials;
        this.options = options;
        this.tok = tok;
        this.b = rows.b;
        this.t = tok.sequenceLength();
        this.v = tok.vocabularySize();
        this.zero = tok.detachedSequence();
        this.zeroCell = zero == null ? null : tok.interval(zero);
        this.numberPath = zero != null ? zero : firstNumberPath();
        this.zeroMass = new Once<>(this::computeZeroMass);
    }

    /** Position by position the first allowed token whose prefix has a range (a number completion exists). */
    private int[] firstNumberPath() {
        int[] s = new int[t];
        for (int pos = 0; pos < t; pos++) {
            boolean[] allowed = tok.allowed(pos, s);
            int k = 0;
            while (true) {
                Checks.require(k < v, "%s has no number sequence", tok);
                if (allowed[k]) {
                    s[pos] = k;
                    if (tok.prefixRange(s, pos + 1) != null) {
                        break;
                    }
                }
                k++;
            }
        }
        return s;
    }

    @Override
    public int batchSize() {
        return b;
    }

    @Override
    public double[][] specials() {
        return specials.get();
    }

    /** One teacher-forced pass along the tokens of y ({@link DecoderRows#scoredLogDensity}). */
    @Override
    public double[] logDensity(double[] y) {
        return rows.scoredLogDensity(y, specials.finite());
    }

    /** The low end of the whole number range (from {@link PrefixRanges#prefixRange}, no enumeration). */
    @Override
    public double[] lowest() {
        double[] out = new double[b];
        Arrays.fill(out, lowestValue());
        return out;
    }

    /** The high end of the whole number range. */
    @Override
    public double[] highest() {
        double[] out = new double[b];
        Arrays.fill(out, highestValue());
        return out;
    }

    /** Lowest value of the support: the low end of the whole number range. */
    private double lowestValue() {
        double lo = tok.prefixRange(new int[0], 0).lo();
        return zeroCell == null ? lo : Math.min(zeroCell.lo(), lo);
    }

    /** Highest value of the support. */
    private double highestValue() {
        double hi = tok.prefixRange(new int[0], 0).hi();
        return zeroCell == null ? hi : Math.max(zeroCell.hi(), hi);
    }

    /** P(zero sequence) per row, one teacher-forced pass; zeros without a detached sequence. */
    private double[] computeZeroMass() {
        if (zero == null) {
            return new double[b];
        }
        int[][] seq = new int[b][];
        Arrays.fill(seq, zero);
        double[] lp = rows.score(seq).logProbability();
        double[] z = new double[b];
        for (int r = 0; r < b; r++) {
            z[r] = Math.exp(lp[r]);
        }
        return z;
    }

    /** The value-ordered pieces of the children of the first {@code len} tokens of {@code prefix}. */
    private Piece[] piecesOf(int[] prefix, int len) {
        char[] key = new char[len];
        for (int i = 0; i < len; i++) {
            key[i] = (char) prefix[i];
        }
        return pieces.computeIfAbsent(new String(key), k -> build(prefix, len));
    }

    private Piece[] build(int[] prefix, int len) {
        int[] c = Arrays.copyOf(prefix, t);
        boolean[] allowed = tok.allowed(len, c);
        List<Piece> out = new ArrayList<>();
        for (int k = 0; k < v; k++) {
            if (!allowed[k]) {
                continue;
            }
            c[len] = k;
            Interval range = tok.prefixRange(c, len + 1);
            if (zero != null && Arrays.equals(c, 0, len + 1, zero, 0, len + 1)) {
                out.add(new Piece(k, ZERO, zeroCell.lo(), zeroCell.hi()));
                if (range != null) {
                    out.add(new Piece(k, REST, range.lo(), range.hi()));
                }
            } else if (range != null) { // null: a special token
                out.add(new Piece(k, WHOLE, range.lo(), range.hi()));
            }
        }
        out.sort(Comparator.comparingDouble(Piece::lo));
        return out.toArray(new Piece[0]);
    }

    /** Mass of a piece for a row whose path so far has mass {@code path}, the child's probability q. */
    private static double mass(Piece pc, double path, double q, double p0) {
        if (pc.kind == ZERO) {
            return p0;
        }
        double m = path * q;
        return pc.kind == REST ? Math.max(0, m - p0) : m;
    }

    /** F(y) of Y given Y finite: the walked mass divided by P(finite), at most 1. */
    @Override
    public double[] cdf(double[] y) {
        double[] c = walkedCdf(y);
        double[] finite = specials.finite();
        for (int r = 0; r < b; r++) {
            c[r] = Math.min(1, c[r] / finite[r]);
        }
        return c;
    }

    /** F(y) per row; y outside the support gives 0 below it and the number mass above it. */
    private double[] walkedCdf(double[] y) {
        double[] p0 = zeroMass.get();
        int[][] leaf = new int[b][];
        boolean[] inside = new boolean[b];
        double lowest = lowestValue();
        double highest = highestValue();
        for (int r = 0; r < b; r++) {
            if (y[r] >= lowest && y[r] <= highest) { // encode may refuse values outside its domain
                int[] tk = tok.encode(y[r]); // clamps an overflow: then y is outside its cell
                Interval iv = tok.interval(tk);
                inside[r] = iv.contains(y[r]) || y[r] == iv.hi();
                leaf[r] = tk;
            }
            if (!inside[r]) {
                leaf[r] = numberPath; // any valid number path; its answer is replaced below
            }
        }
        DecoderState s = rows.start();
        double[] row = new double[v];
        double[] path = new double[b];
        double[] below = new double[b];
        double[] numberMass = new double[b];
        boolean[] excluded = new boolean[b];
        Arrays.fill(path, 1.0);
        int[] next = new int[b];
        for (int pos = 0; pos < t; pos++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row);
                int[] pre = leaf[r];
                boolean leafIsZero = zero != null && (pre == zero || Arrays.equals(pre, zero));
                Piece[] ps = piecesOf(pre, pos);
                int own = -1;
                for (int j = 0; j < ps.length; j++) {
                    Piece pc = ps[j];
                    if (pc.token == pre[pos] && (pc.kind == WHOLE || (pc.kind == ZERO) == leafIsZero)) {
                        own = j;
                    }
                }
                for (int j = 0; j < ps.length; j++) {
                    Piece pc = ps[j];
                    if (j == own || excluded[r] && pc.kind == ZERO) {
                        continue;
                    }
                    double m = mass(pc, path[r], Math.exp(row[pc.token]), p0[r]);
                    if (pos == 0) {
                        numberMass[r] += m;
                    }
                    if (pc.lo < ps[own].lo) {
                        below[r] += m;
                    }
                }
                if (pos == 0) {
                    numberMass[r] += mass(ps[own], 1.0, Math.exp(row[pre[pos]]), p0[r]);
                }
                excluded[r] |= ps[own].kind == REST;
                path[r] *= Math.exp(row[pre[pos]]);
                next[r] = pre[pos];
            }
            s.advance(next);
        }
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            if (!inside[r]) {
                out[r] = Double.isNaN(y[r]) || y[r] < lowest ? 0 : Math.min(1, numberMass[r]);
                continue;
            }
            Interval iv = tok.interval(leaf[r]);
            out[r] = Math.min(1, below[r] + path[r] * (y[r] - iv.lo()) / iv.width());
        }
        return out;
    }

    /**
     * The p-quantile of the number part per row, p in (0, 1): the walk descends at level {@code p * numberMass[r]}
     * (numberMass = 1 - P(specials), so that the quantiles are those of Y given Y finite).
     */
    @Override
    public double[] quantile(double p) {
        double[] numberMass = specials.finite();
        double[] p0 = zeroMass.get();
        DecoderState s = rows.start();
        double[] row = new double[v];
        double[] path = new double[b];
        double[] res = new double[b];
        double[] out = new double[b];
        boolean[] excluded = new boolean[b];
        boolean[] done = new boolean[b];
        Arrays.fill(path, 1.0);
        for (int r = 0; r < b; r++) {
            res[r] = p * numberMass[r];
        }
        int[] next = new int[b];
        for (int pos = 0; pos < t; pos++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row);
                if (done[r]) { // keep the finished row on some valid path
                    int k = 0;
                    while (row[k] == Double.NEGATIVE_INFINITY) {
                        k++;
                    }
                    next[r] = k;
                    continue;
                }
                Piece[] ps = piecesOf(s.prefix(r), pos);
                Piece chosen = null;
                double chosenMass = 0;
                Piece last = null;
                double lastMass = 0;
                for (Piece pc : ps) {
                    if (excluded[r] && pc.kind == ZERO) {
                        continue;
                    }
                    double m = mass(pc, path[r], Math.exp(row[pc.token]), p0[r]);
                    if (!(m > 0)) {
                        continue;
                    }
                    last = pc;
                    lastMass = m;
                    if (m >= res[r]) {
                        chosen = pc;
                        chosenMass = m;
                        break;
                    }
                    res[r] -= m;
                }
                if (chosen == null && last == null) { // every piece underflowed to mass 0: follow the likeliest
                    for (Piece pc : ps) {
                        if (!(excluded[r] && pc.kind == ZERO) && (last == null || row[pc.token] > row[last.token])) {
                            last = pc;
                        }
                    }
                }
                if (chosen == null) { // rounding (or special-token mass) left the level above the number mass
                    chosen = last;
                    chosenMass = lastMass;
                    res[r] = lastMass;
                }
                next[r] = chosen.token;
                if (chosen.kind == ZERO || pos == t - 1) {
                    double u = chosenMass > 0 ? Math.min(1, Math.max(0, res[r] / chosenMass)) : 0;
                    out[r] = u == 1 ? chosen.hi : chosen.lo + u * (chosen.hi - chosen.lo);
                    done[r] = true;
                    continue;
                }
                excluded[r] |= chosen.kind == REST;
                path[r] *= Math.exp(row[chosen.token]);
            }
            s.advance(next);
        }
        return out;
    }

    /**
     * The certified expansion with prefix value ranges ({@link MeanExpander#prefixRanges}: {@code prefixRange},
     * widened by the detached sequence's cell on its path), at most {@link DecoderDistribution.Options#maxMeanNodes()}
     * expanded prefixes per row and level; the sums are divided by P(finite).
     */
    @Override
    public MeanEstimate moments(double[] tolerance) {
        double[] finite = specials.finite();
        MeanExpander.Sums sums = MeanExpander.Sums.of(b);
        DecoderState start = rows.start();
        MeanExpander.Tree tree = new MeanExpander.Tree(MeanExpander.prefixRanges(tok), lowestValue(), highestValue());
        MeanExpander.Limits limits = new MeanExpander.Limits(MeanExpander.MAX_STATE_ROWS, options.maxMeanNodes());
        double[] scaled = new double[b]; // the sums are divided by P(finite) below
        for (int r = 0; r < b; r++) {
            scaled[r] = tolerance[r] * finite[r];
        }
        for (int c0 = 0; c0 < b; c0 += FixedPointWalk.MEAN_CHUNK) {
            MeanExpander.expand(start, c0, Math.min(b, c0 + FixedPointWalk.MEAN_CHUNK), scaled, sums, tree, limits);
        }
        double[] mean = sums.mean();
        double[] bound = sums.bound();
        double[] second = sums.second();
        for (int r = 0; r < b; r++) {
            mean[r] /= finite[r];
            bound[r] /= finite[r];
            second[r] /= finite[r];
        }
        return new MeanEstimate(mean, bound, second);
    }

    /** A {@link LeafTable} over every valid sequence. */
    @Override
    public DigitTree tabulated() {
        return new LeafTable(rows, specials, options, true);
    }
}
