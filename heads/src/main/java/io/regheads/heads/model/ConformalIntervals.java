package io.regheads.heads.model;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;
import java.util.Arrays;
import java.util.Locale;

/**
 * Split-conformal central intervals on a model's own quantiles (conformalized quantile regression, Romano, Patterson
 * and Candes 2019), fitted on calibration rows the model did not train on.
 *
 * <p>For a level L and each calibration row, with {@code lo = F^-1((1 - L)/2)} and {@code hi = F^-1((1 + L)/2)} of
 * the model's predictive distribution, the conformity score is {@code s = max(lo - y, y - hi)} (negative inside the
 * interval). With n rows, the offset {@code q} is the {@code ceil((n + 1) L)}-th smallest score, and the interval of
 * a new row is {@code [lo - q, hi + q]}. If the calibration rows and the new row are exchangeable (drawn from the
 * same distribution, whatever the model), the interval covers the new y with probability at least L, and at most
 * {@code L + 1/(n + 1)} when scores do not tie. It needs {@code ceil((n + 1) L) <= n}: at least 9 rows for 90%, 19
 * for 95%.
 *
 * <p>Example: n = 99 rows, L = 0.9: the 90th smallest score; if the model's own 90% intervals were too narrow by 0.3
 * on most rows, q is about 0.3 and every interval widens by 0.3 on each side.
 *
 * @param rows    n, the calibration rows
 * @param levels  the levels fitted, each in (0, 1), increasing
 * @param offsets {@code q} per level (may be negative: the model's intervals were too wide)
 */
public record ConformalIntervals(int rows, double[] levels, double[] offsets) {

    /** The levels fitted when none are given. */
    public static final double[] DEFAULT_LEVELS = {0.5, 0.8, 0.9, 0.95};

    /**
     * Validates and copies.
     *
     * @throws IllegalArgumentException on fewer than 1 row, no level, unequal lengths, a level outside (0, 1) or not
     *                                  increasing, a non-finite offset, or too few rows for a level
     */
    public ConformalIntervals {
        Checks.require(rows >= 1, "rows must be >= 1, got %d", rows);
        Checks.notNull("levels", levels);
        Checks.notNull("offsets", offsets);
        Checks.require(levels.length >= 1 && levels.length == offsets.length, "levels and offsets must have the same "
                + "length >= 1, got %d and %d", levels.length, offsets.length);
        levels = levels.clone();
        offsets = offsets.clone();
        for (int l = 0; l < levels.length; l++) {
            Checks.require(levels[l] > 0 && levels[l] < 1, "levels must be in (0, 1), got %s", levels[l]);
            Checks.require(l == 0 || levels[l] > levels[l - 1], "levels must increase, got %s", Arrays.toString(levels));
            Checks.require(Double.isFinite(offsets[l]), "offsets must be finite, got %s", offsets[l]);
            Checks.require(Math.ceil((rows + 1) * levels[l]) <= rows, "a %s interval needs at least %d calibration "
                    + "rows, got %d", levels[l], minRows(levels[l]), rows);
        }
    }

    /**
     * Fits the offsets on calibration rows.
     *
     * @param d      the model's predictive distributions of the calibration rows (in y's units)
     * @param y      {@code [n]} their finite targets
     * @param levels levels in (0, 1), increasing; none for {@link #DEFAULT_LEVELS}
     * @throws IllegalArgumentException on a wrong length, a non-finite target, or too few rows for a level (the
     *                                  message says how many it needs)
     */
    public static ConformalIntervals fit(PredictiveDistribution d, double[] y, double... levels) {
        Checks.notNull("d", d);
        Checks.rowValues("y", y, d.batchSize());
        Checks.allFinite("y", y);
        double[] lv = levels == null || levels.length == 0 ? DEFAULT_LEVELS : levels.clone();
        int n = y.length;
        double[] offsets = new double[lv.length];
        for (int l = 0; l < lv.length; l++) {
            Checks.require(lv[l] > 0 && lv[l] < 1, "levels must be in (0, 1), got %s", lv[l]);
            int k = (int) Math.ceil((n + 1) * lv[l]);
            Checks.require(k <= n, "a %s interval needs at least %d calibration rows, got %d", lv[l], minRows(lv[l]), n);
            double[][] q = d.centralInterval(lv[l]);
            double[] s = new double[n];
            for (int i = 0; i < n; i++) {
                s[i] = Math.max(q[0][i] - y[i], y[i] - q[1][i]);
            }
            Arrays.sort(s);
            offsets[l] = s[k - 1];
        }
        return new ConformalIntervals(n, lv, offsets);
    }

    /**
     * The conformal interval at {@code level} of each row of {@code d}: its own central interval widened by the
     * level's offset on both sides.
     *
     * @return {@code [2][B]}: lower ends, then upper ends
     * @throws IllegalArgumentException if level is not one of {@link #levels()}
     */
    public double[][] interval(PredictiveDistribution d, double level) {
        double q = offsets[indexOf(level)];
        double[][] c = d.centralInterval(level);
        for (int i = 0; i < c[0].length; i++) {
            c[0][i] -= q;
            c[1][i] += q;
        }
        return c;
    }

    /** The fewest rows n with {@code ceil((n + 1) level) <= n}. */
    static int minRows(double level) {
        int n = Math.max(1, (int) Math.floor(level / (1 - level)) - 1);
        while (Math.ceil((n + 1) * level) > n) {
            n++;
        }
        return n;
    }

    private int indexOf(double level) {
        for (int l = 0; l < levels.length; l++) {
            if (levels[l] == level) {
                return l;
            }
        }
        throw new IllegalArgumentException("level must be one of the calibrated levels " + Arrays.toString(levels)
                + ", got " + level);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConformalIntervals c && c.rows == rows && Arrays.equals(c.levels, levels)
                && Arrays.equals(c.offsets, offsets);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * rows + Arrays.hashCode(levels)) + Arrays.hashCode(offsets);
    }

    /** {@return the levels (a copy)} */
    @Override
    public double[] levels() {
        return levels.clone();
    }

    /** {@return the offsets (a copy)} */
    @Override
    public double[] offsets() {
        return offsets.clone();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "conformal intervals on %d rows:", rows));
        for (int l = 0; l < levels.length; l++) {
            sb.append(String.format(Locale.ROOT, " %s%% %+.4g", io.regheads.core.metrics.Evaluation.label(levels[l]),
                    offsets[l]));
        }
        return sb.toString();
    }
}
