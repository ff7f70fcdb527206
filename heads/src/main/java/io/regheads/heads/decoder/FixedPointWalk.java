package io.regheads.heads.decoder;

import io.regheads.core.token.Interval;
import io.regheads.core.token.FixedPointDigits;
import io.regheads.heads.decoder.DecoderDistribution.MeanEstimate;
import java.util.Arrays;

/**
 * Exact inference over fixed-point digits of [0, 1] ({@link FixedPointDigits}: value order is lexicographic token
 * order, as for normalized digits), without enumerating the tree:
 * <ul>
 *   <li>{@link #logDensity} and {@link #cdf}: one teacher-forced pass along the tokens of y; {@code F(y) = sum_k
 *       P(t_<k) sum_{d < t_k} p(d | t_<k) + P(t) u}, u the position of y inside its leaf.
 *   <li>{@link #quantile}: walks the digit tree, T decoder steps for all rows: at each position the first digit
 *       whose cumulative mass reaches the residual level.
 *   <li>{@link #moments}: the certified expansion ({@link MeanExpander#NORMALIZED}), rows in chunks of {@value
 *       #MEAN_CHUNK}.
 * </ul>
 * Immutable; thread-safe.
 */
final class FixedPointWalk implements DigitTree {

    /**
     * Input rows whose trees are expanded together by {@link #moments} (the expansion splits a level into parts
     * when it has more live prefixes than {@link MeanExpander#MAX_STATE_ROWS}).
     */
    static final int MEAN_CHUNK = 256;

    private final DecoderRows rows;
    private final SpecialMass specials;
    private final DecoderDistribution.Options options;

    FixedPointWalk(DecoderRows rows, SpecialMass specials, DecoderDistribution.Options options) {
        this.rows = rows;
        this.specials = specials;
        this.options = options;
    }

    @Override
    public int batchSize() {
        return rows.b;
    }

    @Override
    public double[][] specials() {
        return specials.get();
    }

    @Override
    public double[] logDensity(double[] y) {
        return rows.scoredLogDensity(y, specials.finite());
    }

    @Override
    public double[] cdf(double[] y) {
        boolean[] inside = new boolean[rows.b];
        int[][] tk = rows.tokensOf(y, inside);
        DecoderRows.Scores sc = rows.score(tk);
        double[] out = new double[rows.b];
        for (int r = 0; r < rows.b; r++) {
            if (!inside[r]) {
                out[r] = y[r] < 0.5 ? 0 : 1;
                continue;
            }
            Interval iv = rows.tok.interval(tk[r]);
            double u = (y[r] - iv.lo()) / iv.width();
            out[r] = Math.min(1, sc.below()[r] + Math.exp(sc.logProbability()[r]) * u);
        }
        return out;
    }

    @Override
    public double[] quantile(double p) {
        int b = rows.b;
        DecoderState s = rows.start();
        double[] r = new double[b];
        Arrays.fill(r, p);
        double[] row = new double[rows.v];
        int[] next = new int[b];
        for (int pos = 0; pos < rows.t; pos++) {
            for (int i = 0; i < b; i++) {
                s.logProbabilities(i, 1.0, row);
                double c = 0;
                int chosen = -1;
                int last = -1;
                for (int k = 0; k < rows.v; k++) {
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
            Interval iv = rows.tok.interval(s.prefix(i));
            out[i] = iv.lo() + r[i] * iv.width();
        }
        return out;
    }

    /** 0. */
    @Override
    public double[] lowest() {
        double[] out = new double[rows.b];
        Arrays.fill(out, 0.0);
        return out;
    }

    /** 1. */
    @Override
    public double[] highest() {
        double[] out = new double[rows.b];
        Arrays.fill(out, 1.0);
        return out;
    }

    @Override
    public MeanEstimate moments(double[] tolerance) {
        MeanExpander.Sums sums = MeanExpander.Sums.of(rows.b);
        DecoderState start = rows.start();
        MeanExpander.Limits limits = new MeanExpander.Limits(MeanExpander.MAX_STATE_ROWS, Integer.MAX_VALUE);
        for (int c0 = 0; c0 < rows.b; c0 += MEAN_CHUNK) {
            MeanExpander.expand(start, c0, Math.min(rows.b, c0 + MEAN_CHUNK), tolerance, sums,
                    MeanExpander.Tree.NORMALIZED, limits);
        }
        return new MeanEstimate(sums.mean(), sums.bound(), sums.second());
    }

    /** A {@link LeafTable} over every valid sequence. */
    @Override
    public DigitTree tabulated() {
        return new LeafTable(rows, specials, options, true);
    }
}
