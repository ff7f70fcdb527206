package io.regheads.core.head;

import io.regheads.core.check.Checks;

/**
 * How a model maps the target y to the units its head is trained in, given the training targets' minimum and
 * maximum: {@code y = scale * h + shift} for the head's value h, with {@code scale > 0}.
 *
 * <ul>
 *   <li>{@link #MIN_MAX}: {@code h = y01 = (y - min) / (max - min)}, in [0, 1] on the training rows (histogram and
 *       normalized decoder heads, whose support is [0, 1]): {@code scale = max - min}, {@code shift = min};</li>
 *   <li>{@link #CENTRED_MIN_MAX}: {@code h = y01 - 0.5} (pointwise, mixture and xVal heads):
 *       {@code scale = max - min}, {@code shift = min + (max - min) / 2};</li>
 *   <li>{@link #RAW}: {@code h = y} (the unnormalized decoder, whose tokens spell any real number):
 *       {@code scale = 1}, {@code shift = 0}.</li>
 * </ul>
 *
 * <p>A model reports densities in y's units through this map: {@code log p_y(y) = log p_h(h(y)) - log(scale)} (the
 * Jacobian), so NLL in original units is NLL in head units plus {@code log(scale)}; NaN and +-Infinity map to
 * themselves (an affine map with {@code scale > 0} keeps them).
 *
 * <p>Example: training targets in [2, 10]: y = 4 is {@code h = 0.25} (MIN_MAX), {@code -0.25} (CENTRED_MIN_MAX) and
 * {@code 4} (RAW).
 */
public enum TargetScaling {
    /** {@code h = (y - min) / (max - min)}. */
    MIN_MAX,
    /** {@code h = (y - min) / (max - min) - 0.5}. */
    CENTRED_MIN_MAX,
    /** {@code h = y}. */
    RAW;

    /**
     * The factor of {@code y = scale * h + shift}.
     *
     * @param min the training targets' minimum (finite)
     * @param max their maximum, {@code > min}
     * @return {@code max - min}, or 1 for RAW
     * @throws IllegalArgumentException unless min and max are finite with {@code max > min}
     */
    public double scale(double min, double max) {
        check(min, max);
        return this == RAW ? 1.0 : max - min;
    }

    /**
     * The offset of {@code y = scale * h + shift}.
     *
     * @param min the training targets' minimum (finite)
     * @param max their maximum, {@code > min}
     * @return {@code min}, {@code min + (max - min) / 2} or 0
     * @throws IllegalArgumentException unless min and max are finite with {@code max > min}
     */
    public double shift(double min, double max) {
        check(min, max);
        return switch (this) {
            case MIN_MAX -> min;
            case CENTRED_MIN_MAX -> min + 0.5 * (max - min);
            case RAW -> 0.0;
        };
    }

    /**
     * The head's value for each y: {@code (y - shift) / scale} (RAW: y itself, bit for bit); NaN and +-Infinity pass
     * through.
     *
     * @param y   {@code [N]} any doubles
     * @param min the training targets' minimum
     * @param max their maximum, {@code > min}
     * @return {@code [N]} a new array
     * @throws IllegalArgumentException if y is null, or min and max are not finite with {@code max > min}
     */
    public double[] toHead(double[] y, double min, double max) {
        Checks.notNull("y", y);
        double scale = scale(min, max);
        double shift = shift(min, max);
        double[] h = y.clone();
        if (this != RAW) {
            for (int i = 0; i < h.length; i++) {
                h[i] = (h[i] - shift) / scale;
            }
        }
        return h;
    }

    /**
     * The head's value for a value of y01 = (y - min) / (max - min): {@code y01}, {@code y01 - 0.5} or {@code min +
     * y01 (max - min)}.
     *
     * @throws IllegalArgumentException unless min and max are finite with {@code max > min}
     */
    public double fromUnit(double y01, double min, double max) {
        check(min, max);
        return switch (this) {
            case MIN_MAX -> y01;
            case CENTRED_MIN_MAX -> y01 - 0.5;
            case RAW -> min + y01 * (max - min);
        };
    }

    private static void check(double min, double max) {
        Checks.require(Double.isFinite(min) && Double.isFinite(max) && max - min > 0 && Double.isFinite(max - min),
                "min and max must be finite with max > min, got min %s, max %s", min, max);
    }
}
