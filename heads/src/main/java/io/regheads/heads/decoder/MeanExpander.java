package io.regheads.heads.decoder;

import java.util.Arrays;

/**
 * E[Y] of value-ordered (normalized) digit sequences by expanding the digit tree level by level under a certified
 * error budget per row.
 *
 * <p>A node is a prefix of length L with known mass m (the product of its conditionals) and interval
 * {@code [lo, lo + w)}, {@code w = V^-L}. Its contribution to the mean is {@code m E[Y | prefix]}, which lies in
 * {@code m [lo, lo + w]}: a node that is not expanded counts at its centre and adds {@code m w / 2} to the row's
 * error bound; a leaf (L = T) counts exactly at its centre (the density is uniform in the leaf). Expanding a node
 * costs one cached decoder step and yields its children's masses.
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
        int m = to - from;
        int[] rows = new int[m];
        double[] budget = new double[m];
        for (int i = 0; i < m; i++) {
            rows[i] = from + i;
            budget[i] = tol;
        }
        double[] mass = new double[m];
        Arrays.fill(mass, 1.0);
        level(start.select(rows), mass, new double[m], 0, 1.0, t, v, from, budget, mean, bound, second, maxRows);
    }

    /**
     * Expands the state rows of s (nodes at position pos, interval width {@code width}) and, recursively, their
     * kept children. More than {@code maxRows} kept children are expanded in consecutive parts (depth
     * first), so the live state stays bounded whatever the tolerance and the distributions; a part may split one
     * row's candidates, which only changes which nodes the allowance picks, never the certified bound.
     */
    private static void level(DecoderState s, double[] mass, double[] lo, int pos0, double width0, int t, int v,
            int from, double[] budget, double[] mean, double[] bound, double[] second, int maxRows) {
        double width = width0;
        double[] p = new double[v];
        for (int pos = pos0; pos < t; pos++) {
            double cw = width / v;
            int n = s.rows();
            boolean leaves = pos == t - 1;
            // candidates (children with positive mass), grouped by chunk row: state rows of one source are contiguous
            int[] par = new int[n * v];
            int[] dig = new int[n * v];
            double[] cm = new double[n * v];
            double[] cl = new double[n * v];
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
                    double l = lo[i] + k * cw;
                    if (leaves) {
                        double ctr = l + cw / 2;
                        mean[src] += q * ctr;
                        second[src] += q * (ctr * ctr + cw * cw / 12);
                        continue;
                    }
                    par[c] = i;
                    dig[c] = k;
                    cm[c] = q;
                    cl[c] = l;
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
                    all += cm[g1] * cw / 2;
                    g1++;
                }
                double allowed = allowance(budget[owner[g0]], all, v, lastChoice);
                kept += leaveLightest(g0, g1, cm, cl, cw, allowed, budget, owner[g0], from, mean, bound, second, keep);
                g0 = g1;
            }
            if (kept == 0) {
                return;
            }
            int[] kp = new int[kept];
            int[] kd = new int[kept];
            mass = new double[kept];
            lo = new double[kept];
            int j = 0;
            for (int i = 0; i < c; i++) {
                if (keep[i]) {
                    kp[j] = par[i];
                    kd[j] = dig[i];
                    mass[j] = cm[i];
                    lo[j] = cl[i];
                    j++;
                }
            }
            width = cw;
            if (kept > maxRows) {
                for (int p0 = 0; p0 < kept; p0 += maxRows) {
                    int p1 = Math.min(kept, p0 + maxRows);
                    DecoderState part = s.select(Arrays.copyOfRange(kp, p0, p1));
                    part.advance(Arrays.copyOfRange(kd, p0, p1));
                    level(part, Arrays.copyOfRange(mass, p0, p1), Arrays.copyOfRange(lo, p0, p1), pos + 1, width, t,
                            v, from, budget, mean, bound, second, maxRows);
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
     * Leaves the lightest candidates {@code g0 .. g1-1} of one row unexpanded while their bound {@code m w / 2}
     * fits in {@code allowed} (at most the row's remaining budget); marks the rest in {@code keep}; returns how
     * many are kept.
     */
    private static int leaveLightest(int g0, int g1, double[] cm, double[] cl, double cw, double allowed,
            double[] budget, int row, int from, double[] mean, double[] bound, double[] second, boolean[] keep) {
        int n = g1 - g0;
        if (!(allowed > 0)) { // nothing may be left (the whole tree, or a spent budget): no sort needed
            for (int i = g0; i < g1; i++) {
                keep[i] = true;
            }
            return n;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = g0 + i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(cm[a], cm[b]));
        double spent = 0;
        int src = from + row;
        int left = 0;
        while (left < n) {
            int i = order[left];
            double cost = cm[i] * cw / 2;
            if (spent + cost > allowed) {
                break;
            }
            spent += cost;
            double ctr = cl[i] + cw / 2;
            mean[src] += cm[i] * ctr;
            second[src] += cm[i] * (ctr * ctr + cw * cw / 12);
            bound[src] += cost;
            left++;
        }
        budget[row] -= spent;
        for (int j = left; j < n; j++) {
            keep[order[j]] = true;
        }
        return n - left;
    }
}
