package io.regheads.heads.decoder;

import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import java.util.Arrays;

/**
 * E[Y] of a decoder by expanding its token tree level by level under a certified error budget per row, for any
 * tokenizer whose prefixes have known value ranges ({@link Ranges}): normalized digits ({@link #NORMALIZED}, the
 * interval {@code [lo, lo + V^-L)} of a prefix of length L) and any tokenizer with prefix ranges, such as
 * sign/exponent/mantissa tokens ({@link #prefixRanges}: {@code NumberTokenizer.prefixRange}, widened by the
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
 * <p>Stateless; not part of the public API (called by {@link DecoderDistribution#exactMean}).
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
        int child(DecoderState s, int i, int pos, double lo, double hi, int k, int v, int t, double[] out);
    }

    /** Normalized digits: child k of [lo, hi) is the k-th of V equal parts; full sequences are leaves. */
    static final Ranges NORMALIZED = (s, i, pos, lo, hi, k, v, t, out) -> {
        double cw = (hi - lo) / v;
        out[0] = lo + k * cw;
        out[1] = out[0] + cw;
        return pos == t - 1 ? LEAF : RANGE;
    };

    /**
     * A tokenizer with prefix ranges ({@link NumberTokenizer#hasPrefixRanges()}, e.g. sign-exponent-mantissa tokens):
     * {@code prefixRange} of the child; on the path of the detached sequence (the zero spelling) its hull with that
     * sequence's cell; a prefix whose only number completion is the detached sequence, and full sequences, are
     * leaves; sequences that decode to a special value have no value.
     */
    static Ranges prefixRanges(NumberTokenizer tok) {
        int[] detached = tok.detachedSequence();
        Interval zero = detached == null ? null : tok.interval(detached);
        return (s, i, pos, lo, hi, k, v, t, out) -> {
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

    private MeanExpander() {}

    /**
     * Expands the rows {@code from .. to-1} of {@code start}; adds to {@code mean}, {@code bound}, {@code second}
     * (second moment, each unexpanded node taken as uniform on its interval).
     */
    static void expand(DecoderState start, int from, int to, double tol, int t, int v, double[] mean, double[] bound,
            double[] second) {
        expand(start, from, to, tol, t, v, mean, bound, second, MAX_STATE_ROWS);
    }

    /** As above with at most {@code maxRows} prefixes per decoder step (tests exercise the splitting with few). */
    static void expand(DecoderState start, int from, int to, double tol, int t, int v, double[] mean, double[] bound,
            double[] second, int maxRows) {
        double[] tols = new double[to];
        Arrays.fill(tols, tol);
        expand(start, from, to, tols, t, v, mean, bound, second, maxRows, NORMALIZED, 0.0, 1.0, Integer.MAX_VALUE);
    }

    /**
     * The general expansion: root range [rootLo, rootHi], child ranges from {@code ranges}, the error budget of row
     * r {@code tol[r]}, and at most {@code maxNodes} expanded prefixes per row and level (the lightest candidates
     * beyond it are left unexpanded whatever the budget, so the bound may then exceed the tolerance: reported, not
     * certified to it).
     */
    static void expand(DecoderState start, int from, int to, double[] tol, int t, int v, double[] mean,
            double[] bound, double[] second, int maxRows, Ranges ranges, double rootLo, double rootHi, int maxNodes) {
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
        Arrays.fill(lo, rootLo);
        Arrays.fill(hi, rootHi);
        level(start.select(rows), mass, lo, hi, 0, t, v, from, budget, mean, bound, second, maxRows, ranges, maxNodes);
    }

    /**
     * Expands the state rows of s (nodes at position pos, interval width {@code width}) and, recursively, their
     * kept children. More than {@code maxRows} kept children are expanded in consecutive parts (depth
     * first), so the live state stays bounded whatever the tolerance and the distributions; a part may split one
     * row's candidates, which only changes which nodes the allowance picks, never the certified bound.
     */
    private static void level(DecoderState s, double[] mass, double[] lo, double[] hi, int pos0, int t, int v,
            int from, double[] budget, double[] mean, double[] bound, double[] second, int maxRows, Ranges ranges,
            int maxNodes) {
        double[] p = new double[v];
        double[] range = new double[2];
        for (int pos = pos0; pos < t; pos++) {
            int n = s.rows();
            // candidates (children with positive mass and a value range), grouped by chunk row: state rows of one
            // source are contiguous
            int[] par = new int[n * v];
            int[] dig = new int[n * v];
            double[] cm = new double[n * v];
            double[] cl = new double[n * v];
            double[] ch = new double[n * v];
            int[] owner = new int[n * v];
            int c = 0;
            for (int i = 0; i < n; i++) {
                int src = s.source(i);
                s.probabilities(i, 1.0, p);
                for (int k = 0; k < v; k++) {
                    double q = mass[i] * p[k];
                    if (q <= 0) {
                        continue;
                    }
                    int kind = ranges.child(s, i, pos, lo[i], hi[i], k, v, t, range);
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
                    par[c] = i;
                    dig[c] = k;
                    cm[c] = q;
                    cl[c] = range[0];
                    ch[c] = range[1];
                    owner[c] = src - from;
                    c++;
                }
            }
            if (c == 0) {
                return;
            }
            boolean[] keep = new boolean[c];
            boolean lastChoice = pos + 1 == t - 1; // the candidates' children are leaves
            int kept = 0;
            int g0 = 0;
            while (g0 < c) { // one group of candidates per chunk row
                int g1 = g0;
                double all = 0; // the bound if every candidate of the row were left
                while (g1 < c && owner[g1] == owner[g0]) {
                    all += cm[g1] * (ch[g1] - cl[g1]) / 2;
                    g1++;
                }
                double allowed = allowance(budget[owner[g0]], all, v, lastChoice);
                kept += leaveLightest(g0, g1, cm, cl, ch, allowed, budget, owner[g0], from, mean, bound, second, keep,
                        maxNodes);
                g0 = g1;
            }
            if (kept == 0) {
                return;
            }
            int[] kp = new int[kept];
            int[] kd = new int[kept];
            mass = new double[kept];
            lo = new double[kept];
            hi = new double[kept];
            int j = 0;
            for (int i = 0; i < c; i++) {
                if (keep[i]) {
                    kp[j] = par[i];
                    kd[j] = dig[i];
                    mass[j] = cm[i];
                    lo[j] = cl[i];
                    hi[j] = ch[i];
                    j++;
                }
            }
            if (kept > maxRows) {
                for (int p0 = 0; p0 < kept; p0 += maxRows) {
                    int p1 = Math.min(kept, p0 + maxRows);
                    DecoderState part = s.select(Arrays.copyOfRange(kp, p0, p1));
                    part.advance(Arrays.copyOfRange(kd, p0, p1));
                    level(part, Arrays.copyOfRange(mass, p0, p1), Arrays.copyOfRange(lo, p0, p1),
                            Arrays.copyOfRange(hi, p0, p1), pos + 1, t, v, from, budget, mean, bound, second, maxRows,
                            ranges, maxNodes);
                }
                return;
            }
            s = s.select(kp);
            s.advance(kd);
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
     * Leaves the candidates {@code g0 .. g1-1} of one row with the smallest bound {@code m (hi - lo) / 2}
     * unexpanded while their bound fits in {@code allowed} (at most the row's remaining budget), and beyond that as
     * many more as needed to keep at most {@code maxNodes}; marks the rest in {@code keep}; returns how many are
     * kept.
     */
    private static int leaveLightest(int g0, int g1, double[] cm, double[] cl, double[] ch, double allowed,
            double[] budget, int row, int from, double[] mean, double[] bound, double[] second, boolean[] keep,
            int maxNodes) {
        int n = g1 - g0;
        if (!(allowed > 0) && n <= maxNodes) { // nothing may be left (the whole tree, or a spent budget): no sort
            for (int i = g0; i < g1; i++) {
                keep[i] = true;
            }
            return n;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = g0 + i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(cm[a] * (ch[a] - cl[a]), cm[b] * (ch[b] - cl[b])));
        double spent = 0;
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
            mean[src] += cm[i] * ctr;
            second[src] += cm[i] * (ctr * ctr + w * w / 12);
            bound[src] += cost;
            left++;
        }
        budget[row] = Math.max(0, budget[row] - spent);
        for (int j = left; j < n; j++) {
            keep[order[j]] = true;
        }
        return n - left;
    }
}
