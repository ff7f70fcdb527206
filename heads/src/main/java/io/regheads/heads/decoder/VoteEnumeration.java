package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.core.token.Voting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link VoteTable}: enumerates the full sequences of a repetition code level by level (one cached decoder
 * step for all live prefixes of a chunk of rows per position), keeping at most {@code budget} prefixes per row and
 * level, the most probable ones, and sums the mass of every full sequence into its vote ({@link
 * Voting#vote}). The children of the prefixes it drops are not enumerated; their mass per row is the
 * table's {@code dropped} (the total-variation bound). Stateless; not part of the public API.
 */
final class VoteEnumeration {
    /** Largest number of prefixes advanced in one decoder step (as {@link MeanExpander#MAX_STATE_ROWS}). */
    static final int MAX_STATE_ROWS = 8192;

    private VoteEnumeration() {}

    /**
     * Enumerates the votes of every row of {@code start}.
     *
     * @param budget largest number of prefixes kept per row and level (>= 1)
     */
    static VoteTable.Cells build(DecoderState start, Voting tok, int b, int budget) {
        Enumeration en = new Enumeration(tok, budget, b);
        int v = tok.vocabularySize();
        int chunk = Math.max(1, MAX_STATE_ROWS / Math.max(1, v));
        for (int r0 = 0; r0 < b; r0 += chunk) {
            int r1 = Math.min(b, r0 + chunk);
            int[] rows = new int[r1 - r0];
            for (int i = 0; i < rows.length; i++) {
                rows[i] = r0 + i;
            }
            double[] mass = new double[rows.length];
            Arrays.fill(mass, 1.0);
            en.level(start.select(rows), mass, 0);
        }
        Interval[][] cells = new Interval[b][];
        double[][] prob = new double[b][];
        double[][] value = new double[b][];
        double[][] special = new double[3][b];
        NumberTokenizer inner = tok.votedTokenizer();
        for (int r = 0; r < b; r++) {
            List<Object[]> finite = new ArrayList<>();
            double total = 0;
            for (Map.Entry<String, double[]> e : en.acc.get(r).entrySet()) {
                int[] s = decodeKey(e.getKey());
                double m = e.getValue()[0];
                total += m;
                double x = inner.decode(s);
                if (Double.isNaN(x)) {
                    special[0][r] += m;
                } else if (x == Double.POSITIVE_INFINITY) {
                    special[1][r] += m;
                } else if (x == Double.NEGATIVE_INFINITY) {
                    special[2][r] += m;
                } else {
                    finite.add(new Object[] {inner.interval(s), m, x});
                }
            }
            finite.sort((a, c) -> Double.compare(((Interval) a[0]).lo(), ((Interval) c[0]).lo()));
            double finiteMass = 0;
            for (Object[] f : finite) {
                finiteMass += (double) f[1];
            }
            cells[r] = new Interval[finite.size()];
            prob[r] = new double[finite.size()];
            value[r] = new double[finite.size()];
            for (int i = 0; i < cells[r].length; i++) {
                cells[r][i] = (Interval) finite.get(i)[0];
                prob[r][i] = (double) finite.get(i)[1] / finiteMass;
                value[r][i] = (double) finite.get(i)[2];
            }
            for (int k = 0; k < 3; k++) {
                special[k][r] = total > 0 ? special[k][r] / total : 0;
            }
            Checks.require(cells[r].length > 0,
                    "row %d: no enumerated vote has a finite value (enumeration budget %d too small?)", r, budget);
        }
        double[][] cum = new double[b][];
        for (int r = 0; r < b; r++) {
            cum[r] = new double[prob[r].length + 1];
            for (int i = 0; i < prob[r].length; i++) {
                cum[r][i + 1] = cum[r][i] + prob[r][i];
            }
        }
        return new VoteTable.Cells(cells, prob, cum, value, en.dropped, special);
    }

    private static String key(int[] s) {
        char[] c = new char[s.length];
        for (int i = 0; i < s.length; i++) {
            c[i] = (char) s[i];
        }
        return new String(c);
    }

    private static int[] decodeKey(String k) {
        int[] s = new int[k.length()];
        for (int i = 0; i < s.length; i++) {
            s[i] = k.charAt(i);
        }
        return s;
    }

    /** One enumeration: the vote masses found so far per row, the mass dropped per row, and the limits. */
    private static final class Enumeration {
        final Voting tok;
        final int budget;
        final List<Map<String, double[]>> acc; // per row: inner sequence -> {mass}
        final double[] dropped;

        Enumeration(Voting tok, int budget, int b) {
            this.tok = tok;
            this.budget = budget;
            this.acc = new ArrayList<>(b);
            for (int r = 0; r < b; r++) {
                acc.add(new HashMap<>());
            }
            this.dropped = new double[b];
        }

        /**
         * Expands the state rows of s (all at position pos0, prefix masses {@code mass}) to the leaves; more than
         * {@link #MAX_STATE_ROWS} kept children are expanded in consecutive parts (depth first), so the live state
         * stays bounded.
         */
        void level(DecoderState s, double[] mass, int pos0) {
            int t = s.positions();
            int v = s.vocabulary();
            double[] p = new double[v];
            for (int pos = pos0; pos < t; pos++) {
                int n = s.rows();
                boolean leaves = pos == t - 1;
                int[] par = new int[n * v];
                int[] dig = new int[n * v];
                double[] cm = new double[n * v];
                int c = 0;
                for (int i = 0; i < n; i++) {
                    s.probabilities(i, 1.0, p);
                    int[] seq = leaves ? s.prefix(i) : null;
                    for (int k = 0; k < v; k++) {
                        double q = mass[i] * p[k];
                        if (!(q > 0)) {
                            continue;
                        }
                        if (leaves) {
                            seq[t - 1] = k;
                            acc.get(s.source(i)).computeIfAbsent(key(tok.vote(seq)), x -> new double[1])[0] += q;
                            continue;
                        }
                        par[c] = i;
                        dig[c] = k;
                        cm[c] = q;
                        c++;
                    }
                }
                if (c == 0) {
                    return;
                }
                boolean[] keep = keepHeaviest(s, par, cm, c);
                int kept = 0;
                for (int i = 0; i < c; i++) {
                    kept += keep[i] ? 1 : 0;
                }
                int[] kp = new int[kept];
                int[] kd = new int[kept];
                double[] km = new double[kept];
                for (int i = 0, j = 0; i < c; i++) {
                    if (keep[i]) {
                        kp[j] = par[i];
                        kd[j] = dig[i];
                        km[j] = cm[i];
                        j++;
                    }
                }
                if (kept > MAX_STATE_ROWS) {
                    for (int p0 = 0; p0 < kept; p0 += MAX_STATE_ROWS) {
                        int p1 = Math.min(kept, p0 + MAX_STATE_ROWS);
                        DecoderState part = s.select(Arrays.copyOfRange(kp, p0, p1));
                        part.advance(Arrays.copyOfRange(kd, p0, p1));
                        level(part, Arrays.copyOfRange(km, p0, p1), pos + 1);
                    }
                    return;
                }
                s = s.select(kp);
                s.advance(kd);
                mass = km;
            }
        }

        /**
         * Per source row (contiguous among the c candidates), which of the {@code budget} heaviest candidates are
         * kept; adds the mass of the others to {@link #dropped}.
         */
        private boolean[] keepHeaviest(DecoderState s, int[] par, double[] cm, int c) {
            boolean[] keep = new boolean[c];
            int g0 = 0;
            while (g0 < c) {
                int src = s.source(par[g0]);
                int g1 = g0;
                while (g1 < c && s.source(par[g1]) == src) {
                    g1++;
                }
                if (g1 - g0 <= budget) {
                    Arrays.fill(keep, g0, g1, true);
                } else {
                    Integer[] order = new Integer[g1 - g0];
                    for (int i = 0; i < order.length; i++) {
                        order[i] = g0 + i;
                    }
                    Arrays.sort(order, (a, bb) -> Double.compare(cm[bb], cm[a]));
                    for (int i = 0; i < order.length; i++) {
                        if (i < budget) {
                            keep[order[i]] = true;
                        } else {
                            dropped[src] += cm[order[i]];
                        }
                    }
                }
                g0 = g1;
            }
            return keep;
        }
    }
}
