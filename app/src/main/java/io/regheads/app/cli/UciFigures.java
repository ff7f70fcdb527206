package io.regheads.app.cli;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.head.Targets;
import java.util.Arrays;

/**
 * The figures {@code regheads uci} reports, as small pure functions, each pinned by a hand-computed test.
 *
 * <p><b>Paper-compatible figure</b> (what each column of Table 2 of Song and Bahri, "Decoding-based Regression",
 * arXiv:2501.19383, measures, read from the authors' public code):
 * <ul>
 *   <li>token heads (decoders, and the histogram as a one-token decoder): {@link #tokenCrossEntropy}, the
 *       cross-entropy of the target tokens <b>averaged over the T positions</b>, in nats, with no bin width, under
 *       the softmax the head was trained with. The authors' decoders train and score an unmasked softmax over the
 *       whole vocabulary; ours train with the tokenizer's mask (none for normalized digits and histograms), so the
 *       figure comparable with theirs is the masked one: scoring a masked-trained head without its mask would charge
 *       it for logits no loss ever shaped. The unmasked value is reported beside it. For a histogram (T = 1) the
 *       figure is {@code -ln P(bin)};</li>
 *   <li>continuous heads (MDN, pointwise Gaussian): the density NLL of {@code y01 - 0.5} with the {@code 2 pi}
 *       constant, which equals the density NLL of {@code y01} (a shift has Jacobian 1).</li>
 * </ul>
 *
 * <p><b>Conversions</b> to the continuous NLL of y01 ({@code NLL01}) for the same rows: a normalized decoder with
 * base B and K digits has {@code NLL01 = K x - K ln B}; a histogram with n equal bins on [0, 1] has {@code NLL01 = x
 * - ln n}; a continuous head has {@code NLL01 = x}. (An unnormalized decoder's cells have different widths, so
 * there is no constant conversion: {@code NLL01 = T x - ln width(y)} per row, with the masked softmax.)
 *
 * <p><b>Resolution NLL</b> ({@link #resolutionNll}): a discrete log loss on the data's own grid of values, which a
 * density cannot drive below 0 by piling its mass on a point.
 *
 * <p>Stateless and thread-safe.
 */
final class UciFigures {
    /** Probability floor of {@link #resolutionNll}: a cell with less mass counts {@code -ln(1e-300) = 690.8}. */
    static final double MIN_CELL_MASS = 1e-300;
    /** A density of y01 above this (mass in a cell narrower than 1e-6 of the training range) counts as a spike. */
    static final double SPIKE_DENSITY = 1e6;
    /** {@link #fewDistinct}: a target is flagged when its distinct values are fewer than this share of the rows. */
    static final double FEW_DISTINCT_SHARE = 0.05;

    private UciFigures() {}

    /**
     * Per-row mean token cross-entropy: {@code x[b] = (1 / T_b) sum_t -ln softmax(logits[b, t])[token[b, t]]} over
     * the positions t whose label is not {@link Targets#IGNORE} ({@code T_b} of them). {@code masked = false}: the
     * softmax runs over all V tokens (the authors' code); {@code masked = true}: over the tokens the output's
     * {@code validMask} allows (the distribution this library trains and scores; identical when there is no mask).
     *
     * <p>Example: logits {@code [[0, ln 3], [0, 0]]} (T = 2, V = 2), tokens {@code [1, 0]}: {@code (-ln(3/4) + ln 2)
     * / 2 = 0.490415}.
     *
     * @param out     {@code [B, T, V]} logits (with or without mask)
     * @param targets {@code [B * T]} token ids
     * @return {@code [B]} per-row means, in nats; NaN for a row without any labelled position
     * @throws IllegalArgumentException on mismatched shapes, a token outside [0, V), or a masked target token when
     *                                  {@code masked}
     */
    static double[] tokenCrossEntropy(TokenLogits out, Targets.Tokens targets, boolean masked) {
        Checks.notNull("out", out);
        Checks.notNull("targets", targets);
        int b = out.batchSize();
        int t = out.positions();
        int v = out.vocabularySize();
        Checks.require(targets.batchSize() == b && targets.positions() == t,
                "targets must have batch %d and %d positions, got batch %d and %d positions", b, t,
                targets.batchSize(), targets.positions());
        double[] logits = out.logits().ravel().toDoubleVector(); // [B, T, V] in c order
        double[] mask = masked && out.validMask() != null ? out.validMask().ravel().toDoubleVector() : null;
        int[] tokens = targets.tokens();
        double[] x = new double[b];
        for (int r = 0; r < b; r++) {
            double sum = 0;
            int counted = 0;
            for (int p = 0; p < t; p++) {
                int tk = tokens[r * t + p];
                if (tk == Targets.IGNORE) {
                    continue;
                }
                Checks.require(tk >= 0 && tk < v, "target tokens must be in [0, %d), got %d at row %d position %d", v,
                        tk, r, p);
                int o = (r * t + p) * v;
                Checks.require(mask == null || mask[o + tk] != 0,
                        "target token %d at row %d position %d is masked", tk, r, p);
                double max = Double.NEGATIVE_INFINITY;
                for (int k = 0; k < v; k++) {
                    if (mask == null || mask[o + k] != 0) {
                        max = Math.max(max, logits[o + k]);
                    }
                }
                double z = 0;
                for (int k = 0; k < v; k++) {
                    if (mask == null || mask[o + k] != 0) {
                        z += Math.exp(logits[o + k] - max);
                    }
                }
                sum += max + Math.log(z) - logits[o + tk];
                counted++;
            }
            x[r] = counted == 0 ? Double.NaN : sum / counted;
        }
        return x;
    }

    /**
     * Mean of {@code -logDensity}; {@code +Infinity} if any row has zero density.
     *
     * @throws IllegalArgumentException if empty or a value is NaN
     */
    static double meanNll(double[] logDensity) {
        Checks.notNull("logDensity", logDensity);
        Checks.require(logDensity.length > 0, "logDensity must not be empty, got length 0");
        double s = 0;
        for (double l : logDensity) {
            Checks.require(!Double.isNaN(l), "logDensity must not be NaN");
            s -= l;
        }
        return s / logDensity.length;
    }

    /** Mean of the finite-or-infinite values; NaN for an empty array. */
    static double mean(double[] v) {
        double s = 0;
        for (double e : v) {
            s += e;
        }
        return v.length == 0 ? Double.NaN : s / v.length;
    }

    /** The distinct values of {@code y}, ascending. @throws IllegalArgumentException if y is empty or not finite */
    static double[] distinctSorted(double[] y) {
        Checks.allFinite("y", y);
        Checks.require(y.length > 0, "y must not be empty, got length 0");
        double[] s = y.clone();
        Arrays.sort(s);
        int n = 1;
        for (int i = 1; i < s.length; i++) {
            if (s[i] != s[n - 1]) {
                s[n++] = s[i];
            }
        }
        return Arrays.copyOf(s, n);
    }

    /**
     * Whether a target has few distinct values for its size: {@code distinct < FEW_DISTINCT_SHARE * rows} (pol: 11
     * values in 15 000 rows, elevators 61 in 16 599, wine 65 in 1 599). On such data a density can put a point mass
     * on a common value and reach an arbitrarily low NLL, so the density NLL is not a fair comparison there.
     */
    static boolean fewDistinct(int distinct, int rows) {
        return distinct < FEW_DISTINCT_SHARE * rows;
    }

    /**
     * NLL at the data's own resolution: the grid values {@code g_0 < ... < g_{m-1}} (the training targets' distinct
     * values) split the line into cells at the midpoints, {@code c_j = [(g_{j-1} + g_j) / 2, (g_j + g_{j+1}) / 2)},
     * the outer cells open to -Infinity and +Infinity; each row scores {@code -ln P(Y in the cell holding y)} with
     * {@code P = F(hi) - F(lo)} from the predictive CDF, floored at {@link #MIN_CELL_MASS}. The cells partition the
     * line, so the figure is a proper discrete log loss: at least 0, and a point mass earns at most 0.
     *
     * <p>Example: grid {0, 10, 20}, y = 10, N(10, 5^2): cell [5, 15), {@code P = Phi(1) - Phi(-1) = 0.682689}, figure
     * {@code 0.381715}.
     *
     * @param d    B predictive distributions (in the units of y and the grid)
     * @param y    {@code [B]} finite observations
     * @param grid ascending distinct finite values, at least one
     * @return {@code [B]} per-row figures
     * @throws IllegalArgumentException on a null argument, a wrong length, or a grid that is empty, not finite or
     *                                  not strictly ascending
     */
    static double[] resolutionNll(PredictiveDistribution d, double[] y, double[] grid) {
        Checks.notNull("d", d);
        Checks.rowValues("y", y, d.batchSize());
        Checks.allFinite("y", y);
        Checks.allFinite("grid", grid);
        Checks.require(grid.length > 0, "grid must not be empty, got length 0");
        for (int i = 1; i < grid.length; i++) {
            Checks.require(grid[i] > grid[i - 1], "grid must be strictly ascending, got %s after %s at index %d",
                    grid[i], grid[i - 1], i);
        }
        int b = y.length;
        double[] lo = new double[b];
        double[] hi = new double[b];
        boolean[] openLo = new boolean[b];
        boolean[] openHi = new boolean[b];
        for (int r = 0; r < b; r++) {
            int j = nearest(grid, y[r]);
            openLo[r] = j == 0;
            openHi[r] = j == grid.length - 1;
            lo[r] = openLo[r] ? y[r] : (grid[j - 1] + grid[j]) / 2; // placeholders where open
            hi[r] = openHi[r] ? y[r] : (grid[j] + grid[j + 1]) / 2;
        }
        double[] fLo = d.cumulativeProbability(lo);
        double[] fHi = d.cumulativeProbability(hi);
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            double p = (openHi[r] ? 1 : fHi[r]) - (openLo[r] ? 0 : fLo[r]);
            out[r] = -Math.log(Math.max(p, MIN_CELL_MASS));
        }
        return out;
    }

    /** Index of the grid value whose cell holds y (ties at a midpoint go up, as the cells are closed below). */
    static int nearest(double[] grid, double y) {
        int i = Arrays.binarySearch(grid, y);
        if (i >= 0) {
            return i;
        }
        int above = -i - 1; // first index with grid > y
        if (above == 0) {
            return 0;
        }
        if (above == grid.length) {
            return grid.length - 1;
        }
        double mid = (grid[above - 1] + grid[above]) / 2;
        return y < mid ? above - 1 : above;
    }
}
