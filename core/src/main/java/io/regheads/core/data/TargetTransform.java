package io.regheads.core.data;

/**
 * How targets are mapped to the unit interval a head is trained on ({@link TargetScaler} does the mapping and maps
 * predictions back, exactly).
 *
 * <ul>
 *   <li>{@link #NONE}: min-max scaling, {@code y01 = (y - min) / (max - min)} with the training min and max;</li>
 *   <li>{@link #ROBUST}: min-max scaling between {@code max(min, Q1 - 3 IQR)} and {@code min(max, Q3 + 3 IQR)}
 *       (Tukey's outer fences; Q1, Q3 the quartiles of the training targets, IQR = Q3 - Q1), training targets
 *       clipped to those bounds; equal to NONE when no target lies beyond the fences (for normal data a target does
 *       with probability 2.4e-6, for exponential data 0.009). The predictions never leave the
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
    /** Quartile and IQR based bounds (3 IQR beyond the quartiles, inside the training range), targets clipped. */
    ROBUST,
    /** {@code log1p(y - min)}, then min-max scaling. */
    LOG
}
