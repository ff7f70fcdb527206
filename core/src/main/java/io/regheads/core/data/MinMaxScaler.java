package io.regheads.core.data;

import io.regheads.core.check.Checks;

/**
 * Min-max scaling of targets to [0, 1] with the training minimum and maximum: {@code s = (y - min) / (max -
 * min)}, inverse {@code y = min + s * (max - min)}.
 *
 * <p>Values outside the training range map outside [0, 1] (no clipping); heads with bounded support decide how
 * to treat them. For densities: if {@code p_s} is the density of the scaled target, the density in original units
 * is {@code p_y(y) = p_s(s(y)) / (max - min)}, so {@code log p_y = log p_s - logJacobian()} and NLL in original
 * units = NLL on [0, 1] {@code + logJacobian()}, with {@code logJacobian() = log(max - min)}.
 *
 * <p>Example: train targets (2, 4, 10): s(4) = 0.25, inverse(0.5) = 6, logJacobian = log 8 = 2.0794.
 *
 * <p>Immutable and thread-safe.
 */
public final class MinMaxScaler {
    private final double min;
    private final double max;

    private MinMaxScaler(double min, double max) {
        this.min = min;
        this.max = max;
    }

    /**
     * A scaler with known bounds (e.g. read back from a saved model).
     *
     * @throws IllegalArgumentException unless both are finite and {@code max > min}
     */
    public static MinMaxScaler of(double min, double max) {
        Checks.finite("min", min);
        Checks.finite("max", max);
        Checks.require(Double.isFinite(max - min), "max - min must be finite, got %s (min %s, max %s)", max - min, min,
                max);
        Checks.require(max - min > 0, "max must be > min, got min %s, max %s", min, max);
        return new MinMaxScaler(min, max);
    }

    /**
     * Fits on training targets.
     *
     * @param yTrain {@code [N]}, N >= 1, finite, not constant
     * @throws IllegalArgumentException if empty, non-finite, constant (max - min = 0: no scale exists), or if max -
     *                                  min overflows (e.g. -1.7e308 and 1.7e308; said as such)
     */
    public static MinMaxScaler fit(double[] yTrain) {
        Checks.allFinite("yTrain", yTrain);
        Checks.require(yTrain.length > 0, "yTrain must not be empty, got length 0");
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : yTrain) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        Checks.require(Double.isFinite(hi - lo), "yTrain range must be finite, got max - min = %s (min %s, max %s): it "
                + "overflows double; scale y down (e.g. divide by 1e300)", hi - lo, lo, hi);
        Checks.require(hi - lo > 0,
                "yTrain must not be constant (max - min must be > 0 and finite), got min %s, max %s", lo, hi);
        return new MinMaxScaler(lo, hi);
    }

    /** Fits on the targets of {@code train} (pass the training split). */
    public static MinMaxScaler fit(Dataset train) {
        Checks.notNull("train", train);
        return fit(train.y());
    }

    /** {@return the minimum of the fitted values} */
    public double min() {
        return min;
    }

    /** {@return the maximum of the fitted values} */
    public double max() {
        return max;
    }

    /** {@code max - min}. */
    public double range() {
        return max - min;
    }

    /** {@code log(max - min)}: add it to an NLL on the scaled target to get the NLL in original units. */
    public double logJacobian() {
        return Math.log(max - min);
    }

    /** {@code (y - min) / (max - min)}. */
    public double transform(double y) {
        return (y - min) / (max - min);
    }

    /** {@code min + s * (max - min)}. */
    public double inverseTransform(double s) {
        return min + s * (max - min);
    }

    /** Element-wise {@link #transform(double)}, {@code [N] -> [N]}. */
    public double[] transform(double[] y) {
        Checks.notNull("y", y);
        double[] out = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            out[i] = transform(y[i]);
        }
        return out;
    }

    /** Element-wise {@link #inverseTransform(double)}, {@code [N] -> [N]}. */
    public double[] inverseTransform(double[] s) {
        Checks.notNull("s", s);
        double[] out = new double[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = inverseTransform(s[i]);
        }
        return out;
    }

    /** A data set with scaled targets and the same features. */
    public Dataset transform(Dataset data) {
        Checks.notNull("data", data);
        return data.withY(transform(data.y()));
    }

    @Override
    public String toString() {
        return "MinMaxScaler[min " + min + ", max " + max + "]";
    }
}
