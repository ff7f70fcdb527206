package io.regheads.heads.decoder;

import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The distribution of the <b>voted</b> value of a decoder over a repetition code ({@link
 * NumberTokenizer#repetitions()} {@code > 1}): the model spells {@code r T} tokens, {@link NumberTokenizer#vote}
 * turns them into one sequence s of the {@link NumberTokenizer#votedTokenizer()}, and
 * {@code P(vote = s) = sum over the full sequences q with vote(q) = s of P(q)}. The value is spread uniformly over
 * the inner interval of s, so {@code density(y) = P(vote = s(y)) / width(s(y))} is a proper density, and cdf,
 * quantiles, mean, variance, mode and samples all come from one table of (inner interval, probability) per row.
 *
 * <p><b>Enumeration and its budget.</b> The full sequences are enumerated level by level (one cached decoder step
 * for all live prefixes of a chunk of rows per position). At each level a row keeps at most {@code budget} prefixes,
 * the most probable ones; the children of the others are dropped and their mass {@code delta} (per row) is
 * reported by {@link #dropped()}. When nothing is dropped (every valid sequence enumerated: {@code V^{rT}} at most
 * {@code budget} per level) the table is <b>exact</b>. Otherwise the table is the enumerated part renormalised,
 * {@code Phat(s) = P_enumerated(s) / (1 - delta)}, whose total-variation distance to the true law of the vote is at
 * most {@code delta}: {@code sup_y |Fhat(y) - F(y)| <= delta}, and quantiles are exact for levels shifted by at most
 * {@code delta}.
 *
 * <p>Voted sequences that decode to a special value (NaN, +-Inf, when the inner tokenizer has such tokens) have no
 * interval: their mass is reported by {@link #special} and the table describes the finite part, renormalised to 1.
 *
 * <p>Immutable once built; thread-safe.
 */
final class VoteTable {
    /** Largest number of prefixes advanced in one decoder step (as {@link MeanExpander#MAX_STATE_ROWS}). */
    static final int MAX_STATE_ROWS = 8192;

    private final int b;
    private final Interval[][] cells; // per row, sorted by lo, positive mass only
    private final double[][] prob; // per row, sums to 1 over the finite part
    private final double[][] cum; // per row, cum[i] = sum_{j < i} prob[j], length L + 1
    private final double[][] value; // per row, the decoded value of each cell
    private final double[] dropped;
    private final double[][] special; // [3][B]: NaN, +Inf, -Inf shares of the enumerated mass

    private VoteTable(int b, Interval[][] cells, double[][] prob, double[][] value, double[] dropped,
            double[][] special) {
        this.b = b;
        this.cells = cells;
        this.prob = prob;
        this.value = value;
        this.dropped = dropped;
        this.special = special;
        this.cum = new double[b][];
        for (int r = 0; r < b; r++) {
            cum[r] = new double[prob[r].length + 1];
            for (int i = 0; i < prob[r].length; i++) {
                cum[r][i + 1] = cum[r][i] + prob[r][i];
            }
        }
    }

    /**
     * Enumerates the votes of every row of {@code start}.
     *
     * @param budget largest number of prefixes kept per row and level (>= 1)
     */
    static VoteTable build(DecoderState start, NumberTokenizer tok, int b, int budget) {
        List<Map<String, double[]>> acc = new ArrayList<>(b); // inner sequence -> {mass}
        for (int r = 0; r < b; r++) {
            acc.add(new HashMap<>());
        }
        double[] dropped = new double[b];
        int t = tok.sequenceLength();
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
            level(start.select(rows), mass, 0, t, v, tok, budget, acc, dropped);
        }
        Interval[][] cells = new Interval[b][];
        double[][] prob = new double[b][];
        double[][] value = new double[b][];
        double[][] special = new double[3][b];
        NumberTokenizer inner = tok.votedTokenizer();
        for (int r = 0; r < b; r++) {
            List<Object[]> finite = new ArrayList<>();
            double total = 0;
            for (Map.Entry<String, double[]> e : acc.get(r).entrySet()) {
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
            io.regheads.core.internal.Checks.require(cells[r].length > 0,
                    "row %d: no enumerated vote has a finite value (enumeration budget %d too small?)", r, budget);
        }
        return new VoteTable(b, cells, prob, value, dropped, special);
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

    /**
     * Expands the state rows of s (all at position pos0) to the leaves; more than {@link #MAX_STATE_ROWS} kept
     * children are expanded in consecutive parts (depth first), so the live state stays bounded.
     */
    private static void level(DecoderState s, double[] mass, int pos0, int t, int v, NumberTokenizer tok,
            int budget, List<Map<String, double[]>> acc, double[] dropped) {
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
            // per source row (contiguous), keep the `budget` heaviest candidates
            boolean[] keep = new boolean[c];
            int kept = 0;
            int g0 = 0;
            while (g0 < c) {
                int src = s.source(par[g0]);
                int g1 = g0;
                while (g1 < c && s.source(par[g1]) == src) {
                    g1++;
                }
                if (g1 - g0 <= budget) {
                    Arrays.fill(keep, g0, g1, true);
                    kept += g1 - g0;
                } else {
                    Integer[] order = new Integer[g1 - g0];
                    for (int i = 0; i < order.length; i++) {
                        order[i] = g0 + i;
                    }
                    Arrays.sort(order, (a, bb) -> Double.compare(cm[bb], cm[a]));
                    for (int i = 0; i < order.length; i++) {
                        if (i < budget) {
                            keep[order[i]] = true;
                            kept++;
                        } else {
                            dropped[src] += cm[order[i]];
                        }
                    }
                }
                g0 = g1;
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
                    level(part, Arrays.copyOfRange(km, p0, p1), pos + 1, t, v, tok, budget, acc, dropped);
                }
                return;
            }
            s = s.select(kp);
            s.advance(kd);
            mass = km;
        }
    }

    /** Per row: the probability mass left out of the enumeration (the total-variation bound), 0 when exact. */
    double[] dropped() {
        return dropped.clone();
    }

    /** Per row: the share of the enumerated mass whose vote is NaN (k = 0), +Inf (1) or -Inf (2). */
    double[] special(int k) {
        return special[k].clone();
    }

    /** Index of the cell holding y in row r, or -1 (y in a gap or outside). */
    private int find(int r, double y) {
        Interval[] iv = cells[r];
        int lo = 0;
        int hi = iv.length - 1;
        if (!(y >= iv[0].lo())) {
            return -1;
        }
        while (lo < hi) { // last cell with lo <= y
            int mid = (lo + hi + 1) >>> 1;
            if (iv[mid].lo() <= y) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        boolean last = lo == iv.length - 1;
        return iv[lo].contains(y) || last && y == iv[lo].hi() ? lo : -1;
    }

    double[] logDensity(double[] y) {
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            int i = find(r, y[r]);
            out[r] = i < 0 ? Double.NEGATIVE_INFINITY : Math.log(prob[r][i] / cells[r][i].width());
        }
        return out;
    }

    double[] cdf(double[] y) {
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            Interval[] iv = cells[r];
            if (!(y[r] > iv[0].lo())) {
                out[r] = 0;
                continue;
            }
            int lo = 0;
            int hi = iv.length - 1;
            while (lo < hi) { // last cell with lo < y
                int mid = (lo + hi + 1) >>> 1;
                if (iv[mid].lo() < y[r]) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            double u = Math.min(1, (y[r] - iv[lo].lo()) / iv[lo].width());
            out[r] = Math.min(1, cum[r][lo] + prob[r][lo] * u);
        }
        return out;
    }

    double[] quantile(double p) {
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            double[] c = cum[r];
            int n = prob[r].length;
            int lo = 0;
            int hi = n - 1;
            while (lo < hi) { // first cell with cum[i + 1] >= p
                int mid = (lo + hi) >>> 1;
                if (c[mid + 1] >= p) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            Interval iv = cells[r][lo];
            double u = Math.min(1, Math.max(0, (p - c[lo]) / prob[r][lo]));
            out[r] = u >= 1 ? iv.hi() : iv.lo() + u * iv.width();
        }
        return out;
    }

    double[] mean() {
        double[] m = new double[b];
        for (int r = 0; r < b; r++) {
            for (int i = 0; i < prob[r].length; i++) {
                m[r] += prob[r][i] * 0.5 * (cells[r][i].lo() + cells[r][i].hi());
            }
        }
        return m;
    }

    double[] variance() {
        double[] m = mean();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            double s = 0;
            for (int i = 0; i < prob[r].length; i++) {
                double ctr = 0.5 * (cells[r][i].lo() + cells[r][i].hi()) - m[r];
                double w = cells[r][i].width();
                s += prob[r][i] * (ctr * ctr + w * w / 12);
            }
            out[r] = s;
        }
        return out;
    }

    /** The decoded value of the voted sequence of highest density {@code P / width} per row. */
    double[] mode() {
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            int best = 0;
            for (int i = 1; i < prob[r].length; i++) {
                if (prob[r][i] / cells[r][i].width() > prob[r][best] / cells[r][best].width()) {
                    best = i;
                }
            }
            out[r] = value[r][best];
        }
        return out;
    }

    double[] lowest() {
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = cells[r][0].lo();
        }
        return out;
    }

    double[] highest() {
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = cells[r][cells[r].length - 1].hi();
        }
        return out;
    }

    /** n draws per row by inversion of the table's cdf, {@code [n][B]}. */
    double[][] sample(UniformRandomProvider rng, int n) {
        double[][] out = new double[n][b];
        for (int j = 0; j < n; j++) {
            for (int r = 0; r < b; r++) {
                double u = rng.nextDouble();
                double[] c = cum[r];
                int lo = 0;
                int hi = prob[r].length - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (c[mid + 1] > u) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                Interval iv = cells[r][lo];
                out[j][r] = iv.lo() + rng.nextDouble() * iv.width();
            }
        }
        return out;
    }
}
