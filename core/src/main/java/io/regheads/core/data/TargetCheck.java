package io.regheads.core.data;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether training targets suit min-max scaling, said before a model is fitted.
 *
 * <p>Min-max scaling maps {@code [min, max]} to [0, 1]. A few extreme values stretch that range so far that every
 * other target lands on almost the same point: one y of 1e300 among values around 10 sends them all to 0 (in double;
 * more so in float), and a histogram or decoder head can then tell none of them apart. The measure is
 * <pre>
 *   ratio = (max - min) / (y_(n-1-k) - y_(k)),   k = max(1, floor(0.01 n)),  y_(i) the sorted targets
 * </pre>
 * the full range over the spread of the central 98% (the k smallest and k largest left out). Normal data have a ratio
 * of about 2, exponential 2-3, log-normal (sigma 1) about 7, Cauchy or Pareto(1) a few hundred.
 * <ul>
 *   <li>{@code max - min} not finite (e.g. -1.7e308 and 1.7e308): refused as an overflowing range;</li>
 *   <li>{@code max - min} above {@value #MAX_RANGE}: refused, since a predictive variance in y's units (the
 *       head's variance times the squared range) would overflow double, whatever the shape of the targets (one
 *       1e300 among zeros passes the ratio test below, as the central 98% has no spread);</li>
 *   <li>ratio above {@value #REFUSE_RATIO}: refused as extreme (the central 98% would occupy less than 1/10 000 of
 *       [0, 1]);</li>
 *   <li>ratio above {@value #WARN_RATIO}: a heavy-tail warning;</li>
 *   <li>central spread 0 but range not (at least 98% of the targets equal): a warning.</li>
 * </ul>
 * The messages name the extreme values and the target transforms that carry them ({@link TargetTransform#LOG} for
 * positive right-skewed targets, {@link TargetTransform#ROBUST} otherwise: {@code ModelConfig.withTargetTransform} in
 * the model API, {@code --target-transform} on the command line), or removing the rows. Constant
 * targets are left to {@link MinMaxScaler#fit}. Cost: one sort of a copy of y.
 *
 * <p>Example: y = (1, 2, ..., 99, 1e300): k = 1, central spread 99 - 2 = 97, ratio 1.03e298: refused. Stateless and
 * thread-safe.
 */
public final class TargetCheck {
    /** Range over central-98% spread above which targets are refused. */
    public static final double REFUSE_RATIO = 1e4;
    /**
     * The widest range min-max scaling carries: below {@code sqrt(Double.MAX_VALUE) = 1.3e154}, so that the squared
     * range, by which variances in the head's units are multiplied, stays finite.
     */
    public static final double MAX_RANGE = 1e150;
    /** Range over central-98% spread above which a warning is given. */
    public static final double WARN_RATIO = 100;

    /** The advice the messages give. */
    static final String SUGGESTION = "a target transform (LOG for positive right-skewed targets, ROBUST: bounds 3 "
            + "IQR beyond the quartiles with the extremes clipped, otherwise; ModelConfig.withTargetTransform, or --target-transform "
            + "on the command line)";

    private TargetCheck() {}

    /**
     * Checks the targets that a scaler is about to be fitted on.
     *
     * @param name the targets' name for messages (e.g. {@code "y"})
     * @param y    {@code [N]} finite values, N >= 1
     * @return a one-line warning for heavy-tailed or nearly constant targets, or empty
     * @throws IllegalArgumentException if y is null, empty or not finite, its range overflows, or it is extreme (ratio
     *                                  above {@value #REFUSE_RATIO})
     */
    public static Optional<String> check(String name, double[] y) {
        Checks.allFinite(name, y);
        Checks.require(y.length > 0, "%s must not be empty, got length 0", name);
        double[] s = y.clone();
        Arrays.sort(s);
        int n = s.length;
        double min = s[0];
        double max = s[n - 1];
        double range = max - min;
        Checks.require(Double.isFinite(range), "%s has a range that overflows: max - min = %s (min %s, max %s); scale "
                + "y down (e.g. divide by 1e300) before fitting", name, range, min, max);
        Checks.require(range <= MAX_RANGE, "%s has a range too wide for min-max scaling: max - min = %s (min %s, max "
                + "%s) is above %s, where variances in y's units overflow; fit with %s, or remove the extreme rows", name,
                range, min, max, MAX_RANGE, SUGGESTION);
        if (range == 0 || n < 3) {
            return Optional.empty();
        }
        int k = Math.max(1, (int) Math.floor(0.01 * n));
        double lo = s[k];
        double hi = s[n - 1 - k];
        double inner = hi - lo;
        if (inner <= 0) {
            return Optional.of(String.format(Locale.ROOT, "%s is nearly constant: at least 98%% of the targets equal "
                    + "%.6g and the rest reach [%.6g, %.6g]; after min-max scaling they all sit at one point", name, lo,
                    min, max));
        }
        double ratio = range / inner;
        String what = String.format(Locale.ROOT, "its range [%.6g, %.6g] is %.3g times the spread of its central 98%% "
                + "[%.6g, %.6g], so after min-max scaling those targets occupy %.2g of [0, 1]", min, max, ratio, lo, hi,
                1 / ratio);
        Checks.require(!(ratio > REFUSE_RATIO), "%s has extreme values: %s; fit with %s, or remove the extreme rows", name,
                what, SUGGESTION);
        if (ratio > WARN_RATIO) {
            return Optional.of(name + " is heavy-tailed: " + what + "; consider " + SUGGESTION);
        }
        return Optional.empty();
    }
}
