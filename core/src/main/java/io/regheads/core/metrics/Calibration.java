package io.regheads.core.metrics;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;

/**
 * Calibration diagnostics: central-interval coverage and the probability integral transform (PIT).
 *
 * <p>A calibrated model covers about {@code level} of the observations with its central {@code level} interval
 * {@code [F^-1((1 - level)/2), F^-1((1 + level)/2)]}, and its PIT values {@code F(y)} are uniform on [0, 1], so
 * the PIT histogram is flat (U-shaped: too narrow; hump: too wide; sloped: biased).
 *
 * <p>Stateless and thread-safe.
 */
public final class Calibration {
    private Calibration() {}

    /**
     * Fraction of observations inside their interval: {@code (1/N) #{i : lower_i <= y_i <= upper_i}}.
     *
     * @param lower {@code [N]}, no NaN (infinite bounds allowed)
     * @param upper {@code [N]}, no NaN, {@code >= lower}
     * @param y     {@code [N]}, finite
     */
    public static double coverage(double[] lower, double[] upper, double[] y) {
        Checks.allFinite("y", y);
        Checks.require(y.length > 0, "y must not be empty, got length 0");
        Checks.notNull("lower", lower);
        Checks.notNull("upper", upper);
        Checks.require(lower.length == y.length && upper.length == y.length,
                "lower and upper must have the length of y (%d), got %d and %d", y.length, lower.length, upper.length);
        int inside = 0;
        for (int i = 0; i < y.length; i++) {
            Checks.require(lower[i] <= upper[i], "interval %d must have lower <= upper, got [%s, %s]", i, lower[i],
                    upper[i]);
            if (lower[i] <= y[i] && y[i] <= upper[i]) {
                inside++;
            }
        }
        return (double) inside / y.length;
    }

    /**
     * Coverage of the central {@code level} interval of each row's distribution.
     *
     * @param level in (0, 1), e.g. 0.9
     * @param y     {@code [B]} with B = {@code distribution.batchSize()}, finite
     */
    public static double centralIntervalCoverage(PredictiveDistribution distribution, double[] y, double level) {
        Checks.notNull("distribution", distribution);
        Checks.require(level > 0 && level < 1, "level must be in (0, 1), got %s", level);
        Checks.allFinite("y", y);
        Checks.require(y.length == distribution.batchSize(), "y must have length %d (the batch size), got %d",
                distribution.batchSize(), y.length);
        double[] lo = distribution.inverseCumulativeProbability((1 - level) / 2);
        double[] hi = distribution.inverseCumulativeProbability((1 + level) / 2);
        return coverage(lo, hi, y);
    }

    /**
     * PIT values {@code F_b(y_b)} per row.
     *
     * @param y {@code [B]}, finite
     * @return {@code [B]} in [0, 1]
     */
    public static double[] pit(PredictiveDistribution distribution, double[] y) {
        Checks.notNull("distribution", distribution);
        Checks.allFinite("y", y);
        Checks.require(y.length == distribution.batchSize(), "y must have length %d (the batch size), got %d",
                distribution.batchSize(), y.length);
        return distribution.cumulativeProbability(y);
    }

    /**
     * Histogram of PIT values over {@code bins} equal bins of [0, 1]: value p goes to bin {@code min(floor(p *
     * bins), bins - 1)} (so p = 1 lands in the last bin). Example: PIT (0.1, 0.6, 1.0) with 2 bins gives (1, 2).
     *
     * @param pit  values in [0, 1]
     * @param bins {@code >= 1}
     * @return counts {@code [bins]} summing to {@code pit.length}
     */
    public static int[] pitHistogram(double[] pit, int bins) {
        Checks.notNull("pit", pit);
        Checks.atLeast("bins", bins, 1);
        int[] counts = new int[bins];
        for (int i = 0; i < pit.length; i++) {
            double p = pit[i];
            Checks.require(p >= 0 && p <= 1, "pit must be in [0, 1], got %s at index %d", p, i);
            counts[Math.min((int) (p * bins), bins - 1)]++;
        }
        return counts;
    }
}
