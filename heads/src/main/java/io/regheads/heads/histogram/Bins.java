package io.regheads.heads.histogram;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.StdNormal;
import java.util.Arrays;

/**
 * The bins of a histogram distribution, checked once and shared by every distribution a head builds: borders
 * {@code b_0 < ... < b_n}, optional half-normal tails, per-bin constants (width, the mean and variance of the bin's
 * component, where and how high its density peaks), and the tails' log density, cdf and quantile, which every query
 * of the distribution, row by row or on a grid, goes through. Immutable; package-private.
 */
final class Bins {
    /** {@code Phi^-1(0.75)}: the median of a standard half-normal. */
    static final double HALF_NORMAL_MEDIAN = StdNormal.quantile(0.75);
    static final double SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

    final double[] borders; // [n + 1]
    final int n;
    final boolean tails;
    final double sLeft;
    final double sRight;
    /** Mean of bin i's component: its centre, or the half-normal mean in a tail. [n] */
    final double[] componentMean;
    /** Variance of bin i's component: w^2 / 12, or s^2 (1 - 2/pi) in a tail. [n] */
    final double[] componentVariance;
    /** Where bin i's density peaks: its centre, or the tail's inner border. [n] */
    final double[] peakAt;
    /** The same bins as a head output states them, for losses that need the cdf (CRPS). */
    final io.regheads.core.head.TokenLogits.Bins density;

    private Bins(double[] borders, boolean tails) {
        this.borders = borders;
        this.n = borders.length - 1;
        this.tails = tails;
        this.sLeft = (borders[1] - borders[0]) / HALF_NORMAL_MEDIAN;
        this.sRight = (borders[n] - borders[n - 1]) / HALF_NORMAL_MEDIAN;
        this.componentMean = new double[n];
        this.componentVariance = new double[n];
        this.peakAt = new double[n];
        this.density = new io.regheads.core.head.TokenLogits.Bins(borders, tails ? sLeft : 0, tails ? sRight : 0);
        for (int i = 0; i < n; i++) {
            double w = borders[i + 1] - borders[i];
            if (tails && i == 0) {
                componentMean[i] = borders[1] - sLeft * SQRT_2_OVER_PI;
                componentVariance[i] = sLeft * sLeft * (1 - 2 / Math.PI);
                peakAt[i] = borders[1];
            } else if (tails && i == n - 1) {
                componentMean[i] = borders[n - 1] + sRight * SQRT_2_OVER_PI;
                componentVariance[i] = sRight * sRight * (1 - 2 / Math.PI);
                peakAt[i] = borders[n - 1];
            } else {
                componentMean[i] = 0.5 * (borders[i] + borders[i + 1]);
                componentVariance[i] = w * w / 12;
                peakAt[i] = 0.5 * (borders[i] + borders[i + 1]);
            }
        }
    }

    /**
     * @param borders strictly increasing finite borders {@code [n + 1]}, n >= 1 (copied)
     * @param tails   half-normal outer tails (needs n >= 2)
     * @throws IllegalArgumentException on any violation, naming the offending value
     */
    static Bins of(double[] borders, boolean tails) {
        Checks.require(borders != null && borders.length >= 2, "borders must have at least 2 entries");
        int n = borders.length - 1;
        for (int i = 0; i <= n; i++) {
            Checks.require(Double.isFinite(borders[i]), "borders[%d] must be finite, got %s", i, borders[i]);
            if (i > 0) {
                Checks.require(borders[i] > borders[i - 1],
                        "borders must be strictly increasing, got %s then %s at index %d", borders[i - 1], borders[i], i);
            }
        }
        Checks.require(!tails || n >= 2, "half-normal tails need at least 2 bins, got %d", n);
        return new Bins(borders.clone(), tails);
    }

    /** The bin index of y: {@code b_i <= y < b_{i+1}}, with {@code b_n} in the last bin; -1 or n outside. */
    int binOf(double y) {
        if (y < borders[0]) {
            return -1;
        }
        if (y > borders[n]) {
            return n;
        }
        if (y == borders[n]) {
            return n - 1;
        }
        int i = Arrays.binarySearch(borders, y);
        return i >= 0 ? i : -i - 2;
    }

    /** {@code log HN_s(d)}, the log density of a half-normal of scale s at distance {@code d >= 0} from its peak. */
    static double halfNormalLogPdf(double d, double s) {
        return Math.log(SQRT_2_OVER_PI / s) - 0.5 * (d / s) * (d / s);
    }

    // ------------------------------------------------------------------ the half-normal tails (when tails is set)

    /** The log density of the left tail's component (mass 1) at {@code y <= b_1}: {@code log HN_{s_0}(b_1 - y)}. */
    double leftTailLogPdf(double y) {
        return halfNormalLogPdf(borders[1] - y, sLeft);
    }

    /** The log density of the right tail's component at {@code y >= b_{n-1}}: {@code log HN_{s_1}(y - b_{n-1})}. */
    double rightTailLogPdf(double y) {
        return halfNormalLogPdf(y - borders[n - 1], sRight);
    }

    /**
     * The share of the left tail's mass at or below {@code y <= b_1}: {@code P(HN_{s_0} >= b_1 - y) = 2 Phi(-(b_1 -
     * y) / s_0)}.
     */
    double leftTailCdf(double y) {
        return 2 * StdNormal.cdf(-(borders[1] - y) / sLeft);
    }

    /**
     * The share of the right tail's mass at or below {@code y >= b_{n-1}}: {@code P(HN_{s_1} <= y - b_{n-1}) = 1 - 2
     * Phi(-(y - b_{n-1}) / s_1)}.
     */
    double rightTailCdf(double y) {
        return 1 - 2 * StdNormal.cdf(-(y - borders[n - 1]) / sRight);
    }

    /** The point below which the share r in [0, 1] of the left tail's mass lies: {@code b_1 + s_0 Phi^-1(r / 2)}. */
    double leftTailQuantile(double r) {
        return borders[1] + sLeft * StdNormal.quantile(r / 2);
    }

    /**
     * The point below which the share r in [0, 1] of the right tail's mass lies: {@code b_{n-1} + s_1 Phi^-1(1/2 + r /
     * 2)}.
     */
    double rightTailQuantile(double r) {
        return borders[n - 1] + sRight * StdNormal.quantile(0.5 + r / 2);
    }
}
