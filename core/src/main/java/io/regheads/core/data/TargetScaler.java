package io.regheads.core.data;

import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.Expm1Transformed;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;
import java.util.Arrays;

/**
 * Maps targets to the unit interval of a head, {@code y01}, by a {@link TargetTransform}, and the head's predictions
 * back to the units of y.
 *
 * <p>{@code y01 = unit.transform(t(y))} where {@code t} is the identity ({@link TargetTransform#NONE}), clipping to
 * {@code [lo, hi]} ({@link TargetTransform#ROBUST}, with {@code lo = max(min, Q1 - }{@value #ROBUST_IQRS}{@code
 * IQR)}, {@code hi = min(max, Q3 + }{@value #ROBUST_IQRS}{@code IQR)}, Tukey's outer fences, with the quartiles Q1, Q3
 * by linear interpolation between order statistics and IQR = Q3 - Q1) or {@code log1p(y - shift)} with {@code shift} the training minimum ({@link
 * TargetTransform#LOG}), and {@code unit} the min-max scaler of {@code t(y)} over the training rows ({@code [lo, hi]}
 * for ROBUST). Predictions: {@link #distribution} turns a distribution of {@code y01 - centre} into one of y
 * (affine for NONE and ROBUST, {@link Expm1Transformed} over the affine map for LOG), {@link #inverse} maps a point.
 *
 * <p>Example: y = (1, 2, ..., 99, 1e300). NONE refuses it at fit (see {@link TargetCheck}); ROBUST has quartiles
 * 25.75 and 75.25, IQR 49.5, bounds [1, 223.75], and clips 1e300 to 223.75; LOG has shift 1 and scales
 * {@code log1p(y - 1)} over [0, 690.7755].
 *
 * <p>Immutable and thread-safe.
 */
public final class TargetScaler {
    /** ROBUST bounds lie this many inter-quartile ranges beyond the quartiles (unless the data end sooner). */
    public static final double ROBUST_IQRS = 3;

    private final TargetTransform transform;
    private final double shift;
    private final MinMaxScaler unit;

    private TargetScaler(TargetTransform transform, double shift, MinMaxScaler unit) {
        this.transform = transform;
        this.shift = shift;
        this.unit = unit;
    }

    /**
     * A scaler with known parameters (e.g. read back from a saved model).
     *
     * @param transform the transform
     * @param shift     LOG: the training minimum of y, finite; ignored (must be 0) otherwise
     * @param unit      the min-max scaler of the transformed targets (ROBUST: the clipping bounds)
     * @throws IllegalArgumentException on a null argument, a non-finite shift, or a shift other than 0 without LOG
     */
    public static TargetScaler of(TargetTransform transform, double shift, MinMaxScaler unit) {
        Checks.notNull("transform", transform);
        Checks.notNull("unit", unit);
        Checks.finite("shift", shift);
        Checks.require(transform == TargetTransform.LOG || shift == 0, "shift must be 0 without the LOG transform, "
                + "got %s with %s", shift, transform);
        return new TargetScaler(transform, shift, unit);
    }

    /**
     * Fits on training targets.
     *
     * @param transform the transform
     * @param y         {@code [N]}, N >= 1, finite
     * @throws IllegalArgumentException if y is empty or not finite, its range overflows or is 0, or (ROBUST) its
     *                                  inter-quartile range is 0 while the range is not
     */
    public static TargetScaler fit(TargetTransform transform, double[] y) {
        Checks.notNull("transform", transform);
        Checks.allFinite("y", y);
        Checks.require(y.length > 0, "y must not be empty, got length 0");
        switch (transform) {
            case NONE:
                return new TargetScaler(transform, 0, MinMaxScaler.fit(y));
            case LOG: {
                MinMaxScaler range = MinMaxScaler.fit(y); // overflow and constant checks
                double[] z = new double[y.length];
                for (int i = 0; i < y.length; i++) {
                    z[i] = Math.log1p(y[i] - range.min());
                }
                return new TargetScaler(transform, range.min(), MinMaxScaler.fit(z));
            }
            case ROBUST: {
                MinMaxScaler range = MinMaxScaler.fit(y);
                double[] s = y.clone();
                Arrays.sort(s);
                double median = quantile(s, 0.5);
                double q1 = quantile(s, 0.25);
                double q3 = quantile(s, 0.75);
                double iqr = q3 - q1;
                Checks.require(iqr > 0, "y has an inter-quartile range of 0 (at least half the targets equal %s) while "
                        + "its range is [%s, %s]: ROBUST scaling needs a spread; use NONE or LOG", median, s[0],
                        s[s.length - 1]);
                double lo = Math.max(range.min(), q1 - ROBUST_IQRS * iqr);
                double hi = Math.min(range.max(), q3 + ROBUST_IQRS * iqr);
                return new TargetScaler(transform, 0, MinMaxScaler.of(lo, hi));
            }
            default:
                throw new IllegalArgumentException("transform must be NONE, ROBUST or LOG, got " + transform);
        }
    }

    /** The quantile of sorted values by linear interpolation between order statistics (R's type 7). */
    static double quantile(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int i = (int) Math.floor(h);
        int j = Math.min(i + 1, sorted.length - 1);
        return sorted[i] + (h - i) * (sorted[j] - sorted[i]);
    }

    /** The transform. */
    public TargetTransform transform() {
        return transform;
    }

    /** LOG: the training minimum of y subtracted before {@code log1p}; 0 otherwise. */
    public double shift() {
        return shift;
    }

    /** The min-max scaler of the transformed targets onto [0, 1] (ROBUST: the clipping bounds as min and max). */
    public MinMaxScaler unit() {
        return unit;
    }

    /** {@code t(y)}: y, y clipped to the bounds, or {@code log1p(y - shift)}; NaN for LOG where {@code y <= shift - 1}. */
    public double transformed(double y) {
        switch (transform) {
            case ROBUST:
                return Math.max(unit.min(), Math.min(unit.max(), y));
            case LOG:
                return y - shift > -1 ? Math.log1p(y - shift) : Double.NaN;
            default:
                return y;
        }
    }

    /**
     * {@code y01} for each target.
     *
     * @param y {@code [N]} finite
     * @return {@code [N]}
     * @throws IllegalArgumentException if an element is not finite, or (LOG) lies at or below {@code shift - 1}, where
     *                                  {@code log1p(y - shift)} does not exist (the message names the index)
     */
    public double[] toUnit(double[] y) {
        Checks.allFinite("y", y);
        double[] out = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            double t = transformed(y[i]);
            if (Double.isNaN(t)) {
                throw new IllegalArgumentException("y[" + i + "] must be > " + (shift - 1) + " (the training minimum "
                        + shift + " minus 1) for the LOG transform, got " + y[i]);
            }
            out[i] = unit.transform(t);
        }
        return out;
    }

    /** The value of y at {@code y01}: {@code unit.inverseTransform(y01)}, through {@code shift + expm1} for LOG. */
    public double inverse(double y01) {
        double t = unit.inverseTransform(y01);
        return transform == TargetTransform.LOG ? shift + Math.expm1(t) : t;
    }

    /**
     * The distribution of y for a head's distribution of {@code y01 - centre}: {@code AffineTransformed(head, range,
     * min + centre * range)} of the unit scaler, inside {@link Expm1Transformed} with {@code shift} for LOG.
     */
    public PredictiveDistribution distribution(PredictiveDistribution head, double centre) {
        Checks.notNull("head", head);
        PredictiveDistribution t = new AffineTransformed(head, unit.range(), unit.min() + centre * unit.range());
        return transform == TargetTransform.LOG ? new Expm1Transformed(t, shift) : t;
    }

    @Override
    public String toString() {
        return "TargetScaler[" + transform + (transform == TargetTransform.LOG ? ", shift " + shift : "") + ", " + unit
                + "]";
    }
}
