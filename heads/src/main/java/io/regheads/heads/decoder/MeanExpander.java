package io.regheads.heads.decoder;

import io.regheads.core.token.Interval;
import io.regheads.core.token.PrefixRanges;
import java.util.Arrays;

/**
 * E[Y] of a decoder by expanding its token tree level by level under a certified error budget per row, for any
 * tokenizer whose prefixes have known value ranges ({@link Ranges}): normalized digits ({@link #NORMALIZED}, the
 * interval {@code [lo, lo + V^-L)} of a prefix of length L) and any tokenizer with prefix ranges, such as
 * sign/exponent/mantissa tokens ({@link #prefixRanges}: {@code PrefixRanges.prefixRange}, widened by the
 * detached zero cell on the zero path).
 *
 * <p>A node is a prefix of length L with known mass m (the product of its conditionals) and value range
 * {@code [lo, hi]} (every completion's value lies in it). Its contribution to the mean is {@code m E[Y | prefix]},
 * which lies in {@code m [lo, hi]}: a node that is not expanded counts at its centre and adds {@code m (hi - lo) / 2}
 * to the row's error bound; a leaf (a full sequence, or a prefix with a single completion) counts exactly at its
 * cell's centre (the density is uniform in the cell); a prefix without a value (a special token) counts nowhere.
 * Expanding a node costs one cached decoder step and yields its children's masses.
 *
 * <p>Budget: at each level the row's candidate nodes are sorted by mass and the lightest are left unexpanded while
 * their summed bound stays within the level's allowance out of the row's remaining budget (see {@link #allowance}).
 * So the reported bound never exceeds the tolerance (up to rounding in the last bit), and tolerance 0 expands
 * every node with positive mass (the exact mean, bound 0). All expanded nodes of a chunk of rows go through one
 * decoder step per level.
 *
 * <p>One expansion is one instance: the chunk's rows, their remaining budgets and the sums it adds to. Not part of
 * the public API (called by {@link FixedPointWalk} and {@link PrefixRangeWalk}); not thread-safe (each call of
 * {@link #expand} makes its own).
 */
final class MeanExpander {

    /** Largest number of prefixes advanced in one decoder step (bounds the live state: caches and activations). */
    static final int MAX_STATE_ROWS = 8192;

    /** Child kinds of {@link Ranges#child}. */
    static final int RANGE = 0;
    static final int LEAF = 1;
    static final int NONE = 2;

    /** The value range of a child prefix. */
    interface Ranges {
        /**
         * Child {@code k} of state row i (whose prefix has {@code pos} tokens and range [lo, hi)): writes the child's
         * range into {@code out[0..1]} and returns {@link #RANGE}, {@link #LEAF} (the range is the cell of the one
         * completion: exact) or {@link #NONE} (no value).
         */
        int child(DecoderState s, int i, int pos, double lo, double hi, int k, double[] out);
    }

    /** Normalized digits: child k of [lo, hi) is the k-th of V equal parts; full sequences are leaves. */
    static final Ranges NORMALIZED = (s, i, pos, lo, hi, k, out) -> {
        double cw = (hi - lo) / s.vocabulary();
        out[0] = lo + k * cw;
        out[1] = out[0] + cw;
        return pos == s.positions() - 1 ? LEAF : RANGE;
    };

    /**
     * A tokenizer with prefix ranges ({@link PrefixRanges}, e.g. sign-exponent-mantissa tokens): {@code
     * prefixRange} of the child; on the path of the detached sequence (the zero spelling) its hull with that
     * sequence's cell; a prefix whose only number completion is the detached sequence, and full sequences, are
     * leaves; sequences that decode to a special value have no value.
     */
    static Ranges prefixRanges(PrefixRanges tok) {
        int[] detached = tok.detachedSequence();
        Interval zero = detached == null ? null : tok.interval(detached);
        int t = tok.sequenceLength();
        return (s, i, pos, lo, hi, k, out) -> {
            int[] c = s.prefix(i);
            c[pos] = k;
            if (pos == t - 1) {
                if (!Double.isFinite(tok.decode(c))) {
                    return NONE;
                }
                Interval cell = tok.interval(c);
                out[0] = cell.lo();
                out[1] = cell.hi();
                return LEAF;
            }
            Interval r = tok.prefixRange(c, pos + 1);
            boolean onDetached = detached != null && Arrays.equals(c, 0, pos + 1, detached, 0, pos + 1);
            if (r == null) {
                if (!onDetached) {
                    return NONE;
                }
                out[0] = zero.lo();
                out[1] = zero.hi();
                return LEAF;
            }
            out[0] = onDetached ? Math.min(r.lo(), zero.lo()) : r.lo();
            out[1] = onDetached ? Math.max(r.hi(), zero.hi()) : r.hi();
            return RANGE;
        };
    }

    /**
     * The tree an expansion walks: child ranges and the root's range [rootLo, rootHi].
     *
     * @param ranges the child ranges
     * @param rootLo low end of every value
     * @param rootHi high end of every value
     */
    record Tree(Ranges ranges, double rootLo, double rootHi) {
        /** Normalized digits of [0, 1]. */
        static final Tree NORMALIZED = new Tree(MeanExpander.NORMALIZED, 0.0, 1.0);
    }

    /**
     * How much an expansion may do.
     *
     * @param maxRows  prefixes per decoder step (a level with more is expanded in parts, depth first)
     * @param maxNodes expanded prefixes per row and level: the lightest candidates beyond it are left unexpanded
     *                 whatever the budget, so the bound may then exceed the tolerance (reported, not certified)
     */
    record Limits(int maxRows, int maxNodes) {}

    /**
     * Per-row sums an expansion adds to: {@code mean} (mass times centre), {@code bound} (the certified error bound)
     * and {@code second} (the second moment, each unexpanded node taken as uniform on its interval).
     */
    record Sums(double[] mean, double[] bound, double[] second) {
        /** Zeros for B rows. */
        static Sums of(int b) {
            return new Sums(new double[b], new double[b], new double[b]);
        }
    }

    /** The nodes of one level: mass, and value range [lo, hi], per state row. */
    private record Nodes(double[] mass, double[] lo, double[] hi) {}

    /**
     * The children of one level that have a value range and positive mass, grouped by chunk row (state rows of one
     * source are contiguous): parent state row, token, mass, range, the chunk row that owns each, and which are kept
     * for expansion.
     */
    private record Candidates(int[] parent, int[] token, double[] mass, double[] lo, double[] hi, int[] owner,
            boolean[] keep) {
        static Candidates of(int size) {
            return new Candidates(new int[size], new int[size], new double[size], new double[size], new double[size],
                    new int[size], null);
        }

        Candidates withKeep(int count) {
            return new Candidates(parent, token, mass, lo, hi, owner, new boolean[count]);
        }
    }

    private final int from;
    private final double[] budget; // [chunk rows] what is left of each row's budget
    private final Sums sums;
    private final Tree tree;
    private final Limits limits;

    private MeanExpander(int from, double[] budget, Sums sums, Tree tree, Limits limits) {
        this.from = from;
        this.budget = budget;
        this.sums = sums;
        this.tree = tree;
        this.limits = limits;
    }

    /**
     * Expands the rows {@code from .. to-1} of {@code start} under the budget {@code tol[r]} of row r, adding to the
     * sums of those rows.
     *
     * @param start  position-0 state of every input row
     * @param tol    {@code [B]} error budget per row, >= 0
     */
    static void expand(DecoderState start, int from, int to, double[] tol, Sums sums, Tree tree, Limits limits) {
        int m = to - from;
        int[] rows = new int[m];
        double[] budget = new double[m];
        for (int i = 0; i < m; i++) {
            rows[i] = from + i;
            budget[i] = tol[from + i];
        }
        double[] mass = new double[m];
        Arrays.fill(mass, 1.0);
        double[] lo = new double[m];
        double[] hi = new double[m];
        Arrays.fill(lo, tree.rootLo());
        Arrays.fill(hi, tree.rootHi());
        new MeanExpander(from, budget, sums, tree, limits).level(start.select(rows), new Nodes(mass, lo, hi), 0);
    }

    /**
     * Expands the state rows of s (nodes at position pos0) and, recursively, their kept children. More than {@code
     * maxRows} kept children are expanded in consecutive parts (depth first), so the live state stays bounded
     * whatever the tolerance and the distributions; a part may split one row's candidates, which only changes which
     * nodes the allowance picks, never the certified bound.
     */
    private void level(DecoderState s, Nodes nodes, int pos0) {
        int t = s.positions();
        int v = s.vocabulary();
        double[] p = new double[v];
        double[] range = new double[2];
        double[] mean = sums.mean();
        double[] second = sums.second();
        for (int pos = pos0; pos < t; pos++) {
            int n = s.rows();
            Candidates cands = Candidates.of(n * v);
            int c = 0;
            for (int i = 0; i < n; i++) {
                int src = s.source(i);
                s.probabilities(i, 1.0, p);
                for (int k = 0; k < v; k++) {
                    double q = nodes.mass()[i] * p[k];
                    if (q <= 0) {
                        continue;
                    }
                    int kind = tree.ranges().child(s, i, pos, nodes.lo()[i], nodes.hi()[i], k, range);
                    if (kind == NONE) {
                        continue;
                    }
                    if (kind == LEAF) {
                        double ctr = 0.5 * (range[0] + range[1]);
                        double w = range[1] - range[0];
                        mean[src] += q * ctr;
                        second[src] += q * (ctr * ctr + w * w / 12);
                        continue;
                    }
                    cands.parent()[c] = i;
                    cands.token()[c] = k;
                    cands.mass()[c] = q;
                    cands.lo()[c] = range[0];
                    cands.hi()[c] = range[1];
                    cands.owner()[c] = src - from;
                    c++;
                }
            }
            if (c == 0) {
                return;
            }
            cands = cands.withKeep(c);
            boolean lastChoice = pos + 1 == t - 1; // the candidates' children are leaves
            int kept = 0;
            int g0 = 0;
            while (g0 < c) { // one group of candidates per chunk row
                int g1 = g0;
                double all = 0; // the bound if every candidate of the row were left
                while (g1 < c && cands.owner()[g1] == cands.owner()[g0]) {
                    all += cands.mass()[g1] * (cands.hi()[g1] - cands.lo()[g1]) / 2;
                    g1++;
                }
                double allowed = allowance(budget[cands.owner()[g0]], all, v, lastChoice);
                kept += leaveLightest(cands, g0, g1, allowed);
                g0 = g1;
            }
            if (kept == 0) {
                return;
            }
            int[] kp = new int[kept];
            int[] kd = new int[kept];
            Nodes next = new Nodes(new double[kept], new double[kept], new double[kept]);
            int j = 0;
            for (int i = 0; i < c; i++) {
                if (cands.keep()[i]) {
                    kp[j] = cands.parent()[i];
                    kd[j] = cands.token()[i];
                    next.mass()[j] = cands.mass()[i];
                    next.lo()[j] = cands.lo()[i];
                    next.hi()[j] = cands.hi()[i];
                    j++;
                }
            }
            int maxRows = limits.maxRows();
            if (kept > maxRows) {
                for (int p0 = 0; p0 < kept; p0 += maxRows) {
                    int p1 = Math.min(kept, p0 + maxRows);
                    DecoderState part = s.select(Arrays.copyOfRange(kp, p0, p1));
                    part.advance(Arrays.copyOfRange(kd, p0, p1));
                    level(part, new Nodes(Arrays.copyOfRange(next.mass(), p0, p1), Arrays.copyOfRange(next.lo(), p0,
                            p1), Arrays.copyOfRange(next.hi(), p0, p1)), pos + 1);
                }
                return;
            }
            s = s.select(kp);
            s.advance(kd);
            nodes = next;
        }
    }

    /**
     * How much of a row's remaining budget the current level may spend on unexpanded candidates, whose bounds sum
     * to {@code all} if every one is left. Cheap deep levels are preferred the way a best-first expansion (largest
     * {@code mass * width} first) would: the last choice may use everything; if leaving every child of the expanded
     * candidates at the next level ({@code (all - x) / V}) still fits, leave the most {@code x} that keeps it so
     * (the next level then leaves all); otherwise spend a tenth here and keep the rest for deeper levels.
     */
    static double allowance(double budget, double all, int v, boolean lastChoice) {
        if (lastChoice || all <= budget) {
            return budget;
        }
        if (all / v <= budget) {
            return (budget - all / v) / (1 - 1.0 / v);
        }
        return 0.1 * budget;
    }

    /**
     * Leaves the candidates {@code g0 .. g1-1} of one chunk row with the smallest bound {@code m (hi - lo) / 2}
     * unexpanded while their bound fits in {@code allowed} (at most the row's remaining budget), and beyond that as
     * many more as needed to keep at most {@code maxNodes}; marks the rest in {@code keep}; returns how many are
     * kept.
     */
    private int leaveLightest(Candidates cands, int g0, int g1, double allowed) {
        int n = g1 - g0;
        int maxNodes = limits.maxNodes();
        boolean[] keep = cands.keep();
        if (!(allowed > 0) && n <= maxNodes) { // nothing may be left (the whole tree, or a spent budget): no sort
            for (int i = g0; i < g1; i++) {
                keep[i] = true;
            }
            return n;
        }
        double[] cm = cands.mass();
        double[] cl = cands.lo();
        double[] ch = cands.hi();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = g0 + i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(cm[a] * (ch[a] - cl[a]), cm[b] * (ch[b] - cl[b])));
        double spent = 0;
        int row = cands.owner()[g0];
        int src = from + row;
        int left = 0;
        while (left < n) {
            int i = order[left];
            double w = ch[i] - cl[i];
            double cost = cm[i] * w / 2;
            if (spent + cost > allowed && n - left <= maxNodes) {
                break;
            }
            spent += cost;
            double ctr = 0.5 * (cl[i] + ch[i]);
            sums.mean()[src] += cm[i] * ctr;
            sums.second()[src] += cm[i] * (ctr * ctr + w * w / 12);
            sums.bound()[src] += cost;
            left++;
        }
        budget[row] = Math.max(0, budget[row] - spent);
        for (int j = left; j < n; j++) {
            keep[order[j]] = true;
        }
        return n - left;
    }
}
