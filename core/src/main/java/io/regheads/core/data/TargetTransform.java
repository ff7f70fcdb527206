package io.regheads.core.data;

/**
 * How targets are mapped to the unit interval a head is trained on ({@link TargetScaler} does the mapping and maps
 * predictions back, exactly).
 *
 * <ul>
 *   <li>{@link #NONE}: min-max scaling, {@code y01 = (y - min) / (max - min)} with the training min and max;</li>
 *   <li>{@link #ROBUST}: min-max scaling between {@code max(min, median - 10 IQR)} and {@code min(max, median + 10
 *       IQR)} (IQR the inter-quartile range of the training targets), training targets clipped to those bounds;
 *       equal to NONE when no target lies further than 10 IQR from the median. The predictions never leave the
 *       bounds' neighbourhood: the few clipped targets are treated as if they sat at the bound;</li>
 *   <li>{@link #LOG}: {@code z = log1p(y - min)} (0 at the training minimum), then min-max scaling of z; predictions
 *       map back through {@code y = min + expm1(z)}, a monotone map, so quantiles and the cdf map exactly and the
 *       density carries the Jacobian ({@link io.regheads.core.dist.Expm1Transformed}). For positive, right-skewed
 *       targets spanning orders of magnitude (prices, counts, durations).</li>
 * </ul>
 */
public enum TargetTransform {
    /** Min-max scaling with the training min and max. */
    NONE,
    /** Median and IQR based bounds (median +- 10 IQR, inside the training range), targets clipped to them. */
    ROBUST,
    /** {@code log1p(y - min)}, then min-max scaling. */
    LOG
}
