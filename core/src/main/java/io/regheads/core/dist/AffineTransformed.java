package io.regheads.core.dist;

import io.regheads.core.check.Checks;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The law of {@code Y = scale * X + shift} for a base distribution of X with {@code scale > 0}: how a head's
 * prediction in scaled units (e.g. y min-max scaled to [0, 1]) is reported in the original units.
 *
 * <p>{@code log p_Y(y) = log p_X((y - shift) / scale) - log(scale)} (the Jacobian correction); cdf and quantiles
 * map through the transform; {@code Var[Y] = scale^2 Var[X]}. Immutable and thread-safe if the base is.
 *
 * <p>Example: a head trained on {@code y01 = (y - ymin) / (ymax - ymin)} predicts in original units through
 * {@code new AffineTransformed(dist01, ymax - ymin, ymin)}.
 *
 * <p><b>Special values.</b> An affine map with {@code scale > 0} sends NaN to NaN and +-Infinity to themselves, so
 * P(NaN), P(+Inf) and P(-Inf) are the base's when the base reports them ({@link SpecialValues}), and 0 otherwise;
 * the other methods describe the finite part, as the base's do.
 */
public final class AffineTransformed implements SpecialValues {
    private final PredictiveDistribution base;
    private final double scale;
    private final double shift;
    private final double logScale;

    /**
     * @throws IllegalArgumentException if scale is not finite and > 0, or shift is not finite
     */
    public AffineTransformed(PredictiveDistribution base, double scale, double shift) {
        this.base = Checks.notNull("base", base);
        this.scale = Checks.positive("scale", scale);
        this.shift = Checks.finite("shift", shift);
        this.logScale = Math.log(scale);
    }

    /** The distribution in the base (scaled) units. */
    public PredictiveDistribution base() {
        return base;
    }

    private double[] toBase(double[] y) {
        Checks.require(y != null && y.length == base.batchSize(),
                "y must have length B = %d, got %s", base.batchSize(), y == null ? "null" : String.valueOf(y.length));
        double[] x = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            x[i] = (y[i] - shift) / scale;
        }
        return x;
    }

    private double[] fromBase(double[] x) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = scale * x[i] + shift;
        }
        return y;
    }

    @Override
    public int batchSize() {
        return base.batchSize();
    }

    @Override
    public double[] logDensity(double[] y) {
        double[] l = base.logDensity(toBase(y));
        for (int i = 0; i < l.length; i++) {
            l[i] -= logScale;
        }
        return l;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        return base.cumulativeProbability(toBase(y));
    }

    @Override
    public double[] inverseCumulativeProbability(double p) {
        return fromBase(base.inverseCumulativeProbability(p));
    }

    @Override
    public double[] mean() {
        return fromBase(base.mean());
    }

    @Override
    public double[] variance() {
        double[] v = base.variance();
        for (int i = 0; i < v.length; i++) {
            v[i] *= scale * scale;
        }
        return v;
    }

    @Override
    public double[] median() {
        return fromBase(base.median());
    }

    @Override
    public double[] mode() {
        return fromBase(base.mode());
    }

    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        double[][] s = base.sample(rng, n);
        for (double[] row : s) {
            for (int i = 0; i < row.length; i++) {
                row[i] = scale * row[i] + shift;
            }
        }
        return s;
    }

    /** The base's P(NaN) when it reports special values, else zeros. */
    @Override
    public double[] probabilityNaN() {
        return base instanceof SpecialValues sv ? sv.probabilityNaN() : new double[base.batchSize()];
    }

    /** The base's P(+Infinity) when it reports special values, else zeros. */
    @Override
    public double[] probabilityPositiveInfinity() {
        return base instanceof SpecialValues sv ? sv.probabilityPositiveInfinity() : new double[base.batchSize()];
    }

    /** The base's P(-Infinity) when it reports special values, else zeros. */
    @Override
    public double[] probabilityNegativeInfinity() {
        return base instanceof SpecialValues sv ? sv.probabilityNegativeInfinity() : new double[base.batchSize()];
    }

    /**
     * Exact when the base's is: {@code CRPS(a X + b, y) = a CRPS(X, (y - b) / a)} for a > 0 (in y's units).
     */
    @Override
    public double[] crps(double[] y) {
        Checks.rowValues("y", y, batchSize());
        Checks.allFinite("y", y);
        double[] base01 = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            base01[i] = (y[i] - shift) / scale;
        }
        double[] c = base.crps(base01);
        double a = scale; // > 0
        for (int i = 0; i < c.length; i++) {
            c[i] *= a;
        }
        return c;
    }

    @Override
    public double[] supportLowerBound() {
        return fromBase(base.supportLowerBound());
    }

    @Override
    public double[] supportUpperBound() {
        return fromBase(base.supportUpperBound());
    }

    /** The base's batch quantiles mapped through the transform (the base's fast path, if it has one). */
    @Override
    public double[][] quantiles(double... levels) {
        double[][] q = base.quantiles(levels);
        for (double[] row : q) { // in place: the base's arrays are ours
            for (int i = 0; i < row.length; i++) {
                row[i] = scale * row[i] + shift;
            }
        }
        return q;
    }

    @Override
    public double[][] cumulativeProbabilityGrid(double[] grid) {
        return base.cumulativeProbabilityGrid(gridToBase(grid));
    }

    @Override
    public double[][] logDensityGrid(double[] grid) {
        double[][] l = base.logDensityGrid(gridToBase(grid));
        for (double[] row : l) {
            for (int i = 0; i < row.length; i++) {
                row[i] -= logScale;
            }
        }
        return l;
    }

    private double[] gridToBase(double[] grid) {
        Checks.allFinite("grid", grid);
        double[] x = new double[grid.length];
        for (int g = 0; g < grid.length; g++) {
            x[g] = (grid[g] - shift) / scale;
        }
        return x;
    }
}
