package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.token.FixedPointDigits;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.heads.decoder.DecoderDistribution.MeanEstimate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Exact inference from the full list of valid sequences: every one enumerated (at most {@link
 * DecoderDistribution.Options#maxLeaves()}), sorted by interval and scored for every row (one teacher-forced pass
 * per sequence), then the CDF, quantiles and moments are sums over the table; the probabilities are renormalised
 * over the sequences with a value (the finite part). For tokenizers without value order or prefix ranges (a Hamming
 * code) this is the only exact route; for the others it is their tabulated form ({@link DigitTree#tabulated()}:
 * fast repeated queries for small vocabularies, and an independent check of the tree algorithms).
 *
 * <p>The untabulated form answers the density by one teacher-forced pass along y's tokens, the tabulated form from
 * the table; the support is [0, 1] for fixed-point digits, else the lowest and highest interval ends of the valid
 * sequences (+-Infinity when there are too many to list). Both choices are made in the constructor. The list and the
 * table are computed on first use. Immutable apart from that; thread-safe.
 */
final class LeafTable implements DigitTree {

    /** The listed sequences sorted by interval, or null when there are more than the limit. */
    private record Listing(List<int[]> sequences) {}

    /** Every valid sequence (sorted by interval) with its probability per row. */
    private record Table(Interval[] iv, double[][] prob) {}

    /** One way to answer the density, chosen in the constructor. */
    private interface Density {
        double[] logDensity(double[] y);
    }

    private final DecoderRows rows;
    private final SpecialMass specials;
    private final DecoderDistribution.Options options;
    private final boolean tabulated;
    private final Density density;
    private final Once<double[]> support; // {lowest, highest}
    private final Once<Listing> listing;
    private final Once<Table> table;

    /**
     * @param tabulated true: the density from the table (the tabulated form); false: by a teacher-forced pass
     */
    LeafTable(DecoderRows rows, SpecialMass specials, DecoderDistribution.Options options, boolean tabulated) {
        this.rows = rows;
        this.specials = specials;
        this.options = options;
        this.tabulated = tabulated;
        this.density = tabulated ? this::tableDensity : y -> rows.scoredLogDensity(y, specials.finite());
        this.support = new Once<>(
                rows.tok instanceof FixedPointDigits ? () -> new double[] {0.0, 1.0} : this::listedSupport);
        this.listing = new Once<>(this::list);
        this.table = new Once<>(this::score);
    }

    @Override
    public int batchSize() {
        return rows.b;
    }

    @Override
    public double[][] specials() {
        return specials.get();
    }

    /** This table, tabulated. */
    @Override
    public DigitTree tabulated() {
        return tabulated ? this : new LeafTable(rows, specials, options, true);
    }

    /** Every valid sequence sorted by interval, or a null list if there are more than {@code maxLeaves}. */
    private Listing list() {
        NumberTokenizer tok = rows.tok;
        List<int[]> list = new ArrayList<>();
        if (!enumerate(tok, new int[rows.t], 0, options.maxLeaves(), list)) {
            return new Listing(null);
        }
        list.removeIf(q -> !Double.isFinite(tok.decode(q))); // special values have no interval
        list.sort(Comparator.comparingDouble((int[] q) -> tok.interval(q).lo()));
        return new Listing(list);
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

    /** Teacher-forced scoring of every leaf for every row, renormalised over the finite part. */
    private Table score() {
        NumberTokenizer tk = rows.tok;
        List<int[]> seq = listing.get().sequences();
        Checks.require(seq != null, "the tokenizer has more than %d valid sequences: exact CDF, quantiles and mean"
                + " need fixed-point digits or prefix ranges (FixedPointDigits, PrefixRanges); use sampling",
                options.maxLeaves());
        Interval[] iv = new Interval[seq.size()];
        for (int i = 0; i < iv.length; i++) {
            iv[i] = tk.interval(seq.get(i));
            Checks.require(i == 0 || iv[i].lo() >= iv[i - 1].hi(),
                    "sequence intervals must not overlap, got %s and %s", iv[Math.max(0, i - 1)], iv[i]);
        }
        int b = rows.b;
        double[][] prob = new double[b][iv.length];
        int[][] one = new int[b][];
        double[] total = new double[b];
        for (int i = 0; i < iv.length; i++) {
            for (int r = 0; r < b; r++) {
                one[r] = seq.get(i);
            }
            double[] lp = rows.score(one).logProbability();
            for (int r = 0; r < b; r++) {
                prob[r][i] = Math.exp(lp[r]);
                total[r] += prob[r][i];
            }
        }
        for (int r = 0; r < b; r++) { // the finite part (special values have no interval), renormalised
            for (int i = 0; i < iv.length; i++) {
                prob[r][i] /= total[r];
            }
        }
        return new Table(iv, prob);
    }

    @Override
    public double[] logDensity(double[] y) {
        return density.logDensity(y);
    }

    private double[] tableDensity(double[] y) {
        Table tb = table.get();
        Interval[] iv = tb.iv();
        double[] out = new double[rows.b];
        for (int r = 0; r < rows.b; r++) {
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
                out[r] = Math.log(tb.prob()[r][lo] / iv[lo].width());
            }
        }
        return out;
    }

    @Override
    public double[] cdf(double[] y) {
        Table tb = table.get();
        Interval[] iv = tb.iv();
        double[] out = new double[rows.b];
        for (int r = 0; r < rows.b; r++) {
            double[] prob = tb.prob()[r];
            double c = 0;
            for (int i = 0; i < iv.length; i++) {
                if (y[r] >= iv[i].hi()) {
                    c += prob[i];
                } else {
                    if (y[r] > iv[i].lo()) {
                        c += prob[i] * (y[r] - iv[i].lo()) / iv[i].width();
                    }
                    break;
                }
            }
            out[r] = Math.min(1, c);
        }
        return out;
    }

    @Override
    public double[] quantile(double p) {
        Table tb = table.get();
        Interval[] iv = tb.iv();
        double[] out = new double[rows.b];
        for (int r = 0; r < rows.b; r++) {
            double[] prob = tb.prob()[r];
            double c = 0;
            int last = -1;
            out[r] = iv[iv.length - 1].hi();
            for (int i = 0; i < iv.length; i++) {
                double q = prob[i];
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

    /** E[Y] and E[Y^2] over the table (exact: bound 0; the tolerance is not needed). */
    @Override
    public MeanEstimate moments(double[] tolerance) {
        Table tb = table.get();
        Interval[] iv = tb.iv();
        int b = rows.b;
        double[] m = new double[b];
        double[] s2 = new double[b];
        for (int r = 0; r < b; r++) {
            double[] prob = tb.prob()[r];
            for (int i = 0; i < iv.length; i++) {
                double c = 0.5 * (iv[i].lo() + iv[i].hi());
                double wd = iv[i].width();
                m[r] += prob[i] * c;
                s2[r] += prob[i] * (c * c + wd * wd / 12);
            }
        }
        return new MeanEstimate(m, new double[b], s2);
    }

    /**
     * 0 for fixed-point digits; otherwise the lowest interval end over all valid sequences when there are at most
     * {@code maxLeaves} of them, else {@code -Infinity} (not enumerated).
     */
    @Override
    public double[] lowest() {
        double[] out = new double[rows.b];
        Arrays.fill(out, support.get()[0]);
        return out;
    }

    /** As {@link #lowest()}: 1, the highest interval end, or +Infinity. */
    @Override
    public double[] highest() {
        double[] out = new double[rows.b];
        Arrays.fill(out, support.get()[1]);
        return out;
    }

    private double[] listedSupport() {
        List<int[]> seq = listing.get().sequences();
        return seq == null ? new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY}
                : new double[] {rows.tok.interval(seq.get(0)).lo(), rows.tok.interval(seq.get(seq.size() - 1)).hi()};
    }
}
