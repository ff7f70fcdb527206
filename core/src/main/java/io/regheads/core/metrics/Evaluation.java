package io.regheads.core.metrics;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;
import java.util.Arrays;
import java.util.Locale;

/**
 * How good a batch of predictive distributions is on observed targets: the scores a practitioner compares models
 * by, computed one way for every command and the library API.
 *
 * <ul>
 *   <li>{@code nll}: mean negative log density ({@link Metrics#meanNll}); {@code +Infinity} if some y has zero
 *       density;</li>
 *   <li>{@code crps}: mean continuous ranked probability score ({@link PredictiveDistribution#crps}: exact for
 *       Gaussian mixtures, the pointwise and xVal heads included, a 100-level quantile grid otherwise);</li>
 *   <li>{@code rmse}, {@code mae}: of the point predictions given;</li>
 *   <li>for each level L: {@code coverage[L]}, the share of y inside the central L interval {@code [F^-1((1 -
 *       L)/2), F^-1((1 + L)/2)]}, and {@code meanWidth[L]}, its mean width;</li>
 *   <li>{@code pitCounts}: the PIT histogram {@code F(y)} in 10 equal bins of [0, 1] (flat when calibrated;
 *       U-shaped: too narrow; a hump: too wide).</li>
 * </ul>
 * All in the units of y. Example: {@code Evaluation.of(model.predict(test), model.predictPoint(test), test.y(), 0.9)
 * .coverage()[0]} is the 90% coverage.
 *
 * @param rows      N, the rows scored
 * @param nll       mean negative log density
 * @param crps      mean CRPS
 * @param rmse      root mean squared error of the points
 * @param mae       mean absolute error of the points
 * @param levels    the central-interval levels, in (0, 1)
 * @param coverage  {@code [levels]} shares of y inside
 * @param meanWidth {@code [levels]} mean widths
 * @param pitCounts {@code [10]} PIT histogram counts
 */
public record Evaluation(int rows, double nll, double crps, double rmse, double mae, double[] levels,
        double[] coverage, double[] meanWidth, int[] pitCounts) {

    /** The interval levels evaluated when none are given. */
    public static final double[] DEFAULT_LEVELS = {0.5, 0.8, 0.9, 0.95};
    /** Bins of the PIT histogram. */
    public static final int PIT_BINS = 10;

    /** Copies the arrays. */
    public Evaluation {
        levels = levels.clone();
        coverage = coverage.clone();
        meanWidth = meanWidth.clone();
        pitCounts = pitCounts.clone();
    }

    /**
     * Scores {@code d} on {@code y}, with {@code point} as the point predictions.
     *
     * @param d      B distributions
     * @param point  {@code [B]} point predictions (e.g. {@code predictPoint})
     * @param y      {@code [B]} finite observations, B >= 1
     * @param levels central-interval levels in (0, 1); none: {@link #DEFAULT_LEVELS}
     * @throws IllegalArgumentException on a null argument, a wrong length, a non-finite y or a level outside (0, 1)
     */
    public static Evaluation of(PredictiveDistribution d, double[] point, double[] y, double... levels) {
        Checks.notNull("d", d);
        Checks.rowValues("y", y, d.batchSize());
        Checks.require(y.length >= 1, "y must not be empty, got length 0");
        Checks.allFinite("y", y);
        Checks.rowValues("point", point, y.length);
        double[] lv = levels == null || levels.length == 0 ? DEFAULT_LEVELS : levels.clone();
        for (double l : lv) {
            Checks.require(l > 0 && l < 1, "levels must be in (0, 1), got %s", l);
        }
        double nll = Metrics.meanNll(d.logDensity(y));
        double crps = mean(d.crps(y));
        double se = 0;
        double ae = 0;
        for (int i = 0; i < y.length; i++) {
            double e = point[i] - y[i];
            se += e * e;
            ae += Math.abs(e);
        }
        double[] tails = new double[2 * lv.length];
        for (int l = 0; l < lv.length; l++) {
            tails[2 * l] = (1 - lv[l]) / 2;
            tails[2 * l + 1] = (1 + lv[l]) / 2;
        }
        double[][] q = d.quantiles(tails);
        double[] coverage = new double[lv.length];
        double[] width = new double[lv.length];
        for (int l = 0; l < lv.length; l++) {
            double[] lo = q[2 * l];
            double[] hi = q[2 * l + 1];
            coverage[l] = Calibration.coverage(lo, hi, y);
            double w = 0;
            for (int i = 0; i < y.length; i++) {
                w += hi[i] - lo[i];
            }
            width[l] = w / y.length;
        }
        int[] pit = Calibration.pitHistogram(Calibration.pit(d, y), PIT_BINS);
        return new Evaluation(y.length, nll, crps, Math.sqrt(se / y.length), ae / y.length, lv, coverage, width,
                pit);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double e : v) {
            s += e;
        }
        return s / v.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Evaluation e && e.rows == rows && Double.compare(e.nll, nll) == 0
                && Double.compare(e.crps, crps) == 0 && Double.compare(e.rmse, rmse) == 0
                && Double.compare(e.mae, mae) == 0 && Arrays.equals(e.levels, levels)
                && Arrays.equals(e.coverage, coverage) && Arrays.equals(e.meanWidth, meanWidth)
                && Arrays.equals(e.pitCounts, pitCounts);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(rows, nll, crps, rmse, mae, Arrays.hashCode(levels), Arrays.hashCode(coverage),
                Arrays.hashCode(meanWidth), Arrays.hashCode(pitCounts));
    }

    /** {@return the central-interval levels (a copy)} */
    @Override
    public double[] levels() {
        return levels.clone();
    }

    /** {@return the coverage at each level (a copy)} */
    @Override
    public double[] coverage() {
        return coverage.clone();
    }

    /** {@return the mean interval width at each level (a copy)} */
    @Override
    public double[] meanWidth() {
        return meanWidth.clone();
    }

    /** {@return the PIT histogram counts (a copy)} */
    @Override
    public int[] pitCounts() {
        return pitCounts.clone();
    }

    /** The coverage at {@code level} (one of {@link #levels()}). */
    public double coverageAt(double level) {
        return coverage[indexOf(level)];
    }

    /** The mean interval width at {@code level} (one of {@link #levels()}). */
    public double meanWidthAt(double level) {
        return meanWidth[indexOf(level)];
    }

    private int indexOf(double level) {
        for (int l = 0; l < levels.length; l++) {
            if (levels[l] == level) {
                return l;
            }
        }
        throw new IllegalArgumentException("level must be one of " + Arrays.toString(levels) + ", got " + level);
    }

    /**
     * One line per score, e.g. {@code "rows 100  nll 1.234  crps 0.4321  rmse 0.8  mae 0.61  cov90 0.88 (width
     * 2.9)"} with four significant digits.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "rows %d  nll %.4g  crps %.4g  rmse %.4g  "
                + "mae %.4g", rows, nll, crps, rmse, mae));
        for (int l = 0; l < levels.length; l++) {
            sb.append(String.format(Locale.ROOT, "  cov%s %.3f (width %.4g)", label(levels[l]), coverage[l],
                    meanWidth[l]));
        }
        return sb.append("  pit ").append(Arrays.toString(pitCounts)).toString();
    }

    /** A level as a percentage for labels: {@code 0.9 -> "90"}, {@code 0.975 -> "97.5"}. */
    public static String label(double level) {
        double pct = level * 100;
        return pct == Math.rint(pct) ? Long.toString(Math.round(pct)) : Double.toString(pct);
    }
}
