package io.regheads.heads.histogram;

import io.regheads.core.internal.Checks;
import io.regheads.core.internal.StdNormal;
import java.util.Arrays;

/**
 * The bins of a histogram distribution, checked once and shared by every distribution a head builds: borders
 * {@code b_0 < ... < b_n}, optional half-normal tails, and per-bin constants (width, the mean and variance of the
 * bin's component, where and how high its density peaks). Immutable; package-private.
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

    static double halfNormalLogPdf(double d, double s) {
        return Math.log(SQRT_2_OVER_PI / s) - 0.5 * (d / s) * (d / s);
    }
}
