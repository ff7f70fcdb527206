package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import io.regheads.core.token.Voting;
import io.regheads.heads.decoder.DecoderDistribution.MeanEstimate;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The distribution of the <b>voted</b> value of a decoder over a repetition code ({@link Voting}, {@link
 * Voting#repetitions()} {@code > 1}): the model spells {@code r T} tokens, {@link Voting#vote} turns them into one
 * sequence s of the {@link Voting#votedTokenizer()}, and
 * {@code P(vote = s) = sum over the full sequences q with vote(q) = s of P(q)}. The value is spread uniformly over
 * the inner interval of s, so {@code density(y) = P(vote = s(y)) / width(s(y))} is a proper density, and cdf,
 * quantiles, mean, variance, mode and samples all come from one table of (inner interval, probability) per row.
 *
 * <p><b>Enumeration and its budget.</b> The full sequences are enumerated level by level (one cached decoder step
 * for all live prefixes of a chunk of rows per position). At each level a row keeps at most {@code budget} prefixes,
 * the most probable ones; the children of the others are dropped and their mass {@code delta} (per row) is
 * reported by {@link #approximationBound()}. When nothing is dropped (every valid sequence enumerated: {@code
 * V^{rT}} at most {@code budget} per level) the table is <b>exact</b>. Otherwise the table is the enumerated part renormalised,
 * {@code Phat(s) = P_enumerated(s) / (1 - delta)}, whose total-variation distance to the true law of the vote is at
 * most {@code delta}: {@code sup_y |Fhat(y) - F(y)| <= delta}, and quantiles are exact for levels shifted by at most
 * {@code delta}.
 *
 * <p>Voted sequences that decode to a special value (NaN, +-Inf, when the inner tokenizer has such tokens) have no
 * interval: their mass is reported by {@link #specials()} and the table describes the finite part, renormalised to 1.
 *
 * <p>The table is built on first use (a vote-level query, not sampling of token sequences). Immutable apart from
 * that; thread-safe.
 */
final class VoteTable implements DigitTree {
    /**
     * The table of one batch.
     *
     * @param cells   per row, sorted by lo, positive mass only
     * @param prob    per row, sums to 1 over the finite part
     * @param cum     per row, {@code cum[i] = sum_{j < i} prob[j]}, length L + 1
     * @param value   per row, the decoded value of each cell
     * @param dropped per row, the mass left out of the enumeration
     * @param special {@code [3][B]}: NaN, +Inf, -Inf shares of the enumerated mass
     */
    record Cells(Interval[][] cells, double[][] prob, double[][] cum, double[][] value, double[] dropped,
            double[][] special) {}

    private final int b;
    private final Once<Cells> table;

    /**
     * Enumerates the votes of every row (on first use), keeping at most {@code maxLeaves} prefixes per level.
     *
     * @throws IllegalArgumentException unless the tokenizer votes ({@link Voting})
     */
    VoteTable(DecoderRows rows, DecoderDistribution.Options options) {
        Checks.require(rows.tok instanceof Voting, "the vote table needs a tokenizer that votes, got %s", rows.tok);
        Voting tok = (Voting) rows.tok;
        this.b = rows.b;
        this.table = new Once<>(() -> VoteEnumeration.build(rows.start(), tok, rows.b, options.maxLeaves()));
    }

    @Override
    public int batchSize() {
        return b;
    }

    /** Per row: the probability mass left out of the enumeration (the total-variation bound), 0 when exact. */
    @Override
    public double[] approximationBound() {
        return table.get().dropped().clone();
    }

    /** The shares of the enumerated mass whose vote is NaN, +Inf and -Inf, {@code [3][B]} (shared). */
    @Override
    public double[][] specials() {
        return table.get().special();
    }

    /** Index of the cell holding y in row r, or -1 (y in a gap or outside). */
    private static int find(Interval[] iv, double y) {
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

    @Override
    public double[] logDensity(double[] y) {
        Cells tb = table.get();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            int i = find(tb.cells()[r], y[r]);
            out[r] = i < 0 ? Double.NEGATIVE_INFINITY : Math.log(tb.prob()[r][i] / tb.cells()[r][i].width());
        }
        return out;
    }

    @Override
    public double[] cdf(double[] y) {
        Cells tb = table.get();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            Interval[] iv = tb.cells()[r];
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
            out[r] = Math.min(1, tb.cum()[r][lo] + tb.prob()[r][lo] * u);
        }
        return out;
    }

    @Override
    public double[] quantile(double p) {
        Cells tb = table.get();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            double[] c = tb.cum()[r];
            int n = tb.prob()[r].length;
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
            Interval iv = tb.cells()[r][lo];
            double u = Math.min(1, Math.max(0, (p - c[lo]) / tb.prob()[r][lo]));
            out[r] = u >= 1 ? iv.hi() : iv.lo() + u * iv.width();
        }
        return out;
    }

    /** The budget is the absolute tolerance only: the table is exact or not certified, whatever the spread. */
    @Override
    public double[] meanBudget(DecoderDistribution.Options options) {
        double[] budget = new double[b];
        Arrays.fill(budget, options.meanTolerance());
        return budget;
    }

    /** The mean of the voted value (from the table, whatever the budget). */
    @Override
    public double[] mean(DecoderDistribution.Options options) {
        return tableMean();
    }

    /** The variance of the voted value (from the table). */
    @Override
    public double[] variance(DecoderDistribution.Options options) {
        return tableVariance();
    }

    private double[] tableMean() {
        Cells tb = table.get();
        double[] m = new double[b];
        for (int r = 0; r < b; r++) {
            Interval[] cells = tb.cells()[r];
            double[] prob = tb.prob()[r];
            for (int i = 0; i < prob.length; i++) {
                m[r] += prob[i] * 0.5 * (cells[i].lo() + cells[i].hi());
            }
        }
        return m;
    }

    private double[] tableVariance() {
        Cells tb = table.get();
        double[] m = tableMean();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            Interval[] cells = tb.cells()[r];
            double[] prob = tb.prob()[r];
            double s = 0;
            for (int i = 0; i < prob.length; i++) {
                double ctr = 0.5 * (cells[i].lo() + cells[i].hi()) - m[r];
                double w = cells[i].width();
                s += prob[i] * (ctr * ctr + w * w / 12);
            }
            out[r] = s;
        }
        return out;
    }

    /**
     * The table's mean and second moment: exact (bound 0), or not certified (bound +Infinity) where mass was dropped.
     */
    @Override
    public MeanEstimate moments(double[] tolerance) {
        double[] m = tableMean();
        double[] var = tableVariance();
        double[] dropped = table.get().dropped();
        double[] bound = new double[b];
        double[] second = new double[b];
        for (int r = 0; r < b; r++) {
            bound[r] = dropped[r] > 0 ? Double.POSITIVE_INFINITY : 0;
            second[r] = var[r] + m[r] * m[r];
        }
        return new MeanEstimate(m, bound, second);
    }

    /** The decoded value of the voted sequence of highest density {@code P / width} per row. */
    @Override
    public double[] mode(DecoderSampling decoding, int beamWidth) {
        Cells tb = table.get();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            Interval[] cells = tb.cells()[r];
            double[] prob = tb.prob()[r];
            int best = 0;
            for (int i = 1; i < prob.length; i++) {
                if (prob[i] / cells[i].width() > prob[best] / cells[best].width()) {
                    best = i;
                }
            }
            out[r] = tb.value()[r][best];
        }
        return out;
    }

    @Override
    public double[] lowest() {
        Cells tb = table.get();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = tb.cells()[r][0].lo();
        }
        return out;
    }

    @Override
    public double[] highest() {
        Cells tb = table.get();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = tb.cells()[r][tb.cells()[r].length - 1].hi();
        }
        return out;
    }

    /** n draws per row by inversion of the table's cdf, {@code [n][B]}. */
    @Override
    public double[][] sample(DecoderSampling decoding, UniformRandomProvider rng, int n) {
        Cells tb = table.get();
        double[][] out = new double[n][b];
        for (int j = 0; j < n; j++) {
            for (int r = 0; r < b; r++) {
                double u = rng.nextDouble();
                double[] c = tb.cum()[r];
                int lo = 0;
                int hi = tb.prob()[r].length - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (c[mid + 1] > u) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                Interval iv = tb.cells()[r][lo];
                out[j][r] = iv.lo() + rng.nextDouble() * iv.width();
            }
        }
        return out;
    }

    /** This table: the votes are already tabulated. */
    @Override
    public DigitTree tabulated() {
        return this;
    }
}
