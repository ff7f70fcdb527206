package io.regheads.heads.quantile;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.PiecewiseQuantiles;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * B distributions given by L quantile knots each (the quantile head's predictive distribution): the piecewise-linear
 * cdf through {@code (q_l, t_l)} and exponential tails beyond the outer knots, {@code F(y) = t_0 exp((y - q_0) /
 * bL)} below {@code q_0} with {@code bL = t_0 (q_1 - q_0) / (t_1 - t_0)} and {@code 1 - F(y) = (1 - t_{L-1}) exp(-(y
 * - q_{L-1}) / bR)} above {@code q_{L-1}} with {@code bR = (1 - t_{L-1})(q_{L-1} - q_{L-2}) / (t_{L-1} - t_{L-2})}
 * (see {@link PiecewiseQuantiles}, which the CRPS loss shares).
 *
 * <ul>
 *   <li>density: {@code (t_{i+1} - t_i) / (q_{i+1} - q_i)} between knots, continuous at the outer knots, decaying
 *       exponentially beyond; the log density is finite everywhere (full support);</li>
 *   <li>quantile at any level in closed form (linear interpolation inside, {@code q_0 + bL log(p / t_0)} and {@code
 *       q_{L-1} - bR log((1 - p) / (1 - t_{L-1}))} in the tails), {@code +-Infinity} at p = 1 and 0;</li>
 *   <li>mean and variance exactly ({@code int_0^1 Q}, {@code int_0^1 (Q - mean)^2}, finite);</li>
 *   <li>mode: the midpoint of the segment of highest density (the tails never exceed their outer segment's);</li>
 *   <li>sampling by inversion of uniform draws.</li>
 * </ul>
 *
 * <p>Example: levels (0.25, 0.75), knots (-1, 1): density 0.25 on [-1, 1], cdf(-2) = 0.25 e^-1 = 0.09197, median
 * 0, mean 0, variance {@code 2 * 0.25 * ((1 + 1)^2 + 1) + 0.5 * (1 - 1 + 1) / 3 = 8/3} (each tail is the outer knot
 * plus or minus an Exp(1) variable: {@code E[(1 + E)^2] = 5}).
 *
 * <p>Layout: levels (shared) and one flat {@code double[B * L]} of knots; no per-row objects. Immutable (inputs are
 * copied or owned) and thread-safe.
 */
public final class QuantileDistribution implements PredictiveDistribution {
    private final PiecewiseQuantiles shape;
    private final int n;
    private final int rows;
    private final double[] knots; // [B * L]

    /**
     * @param levels {@code [L]}, L &gt;= 2 strictly increasing levels in (0, 1)
     * @param knots  {@code [B][L]}, each row finite and strictly increasing (copied)
     * @throws IllegalArgumentException on invalid levels, no rows, ragged rows, or a row that is not finite and
     *                                  strictly increasing (naming row and index)
     */
    public QuantileDistribution(double[] levels, double[][] knots) {
        this(PiecewiseQuantiles.of(levels), flat(levels.length, knots));
    }

    /** Owns {@code knots [B * L]}; checks every row. */
    QuantileDistribution(PiecewiseQuantiles shape, double[] knots) {
        this.shape = shape;
        this.n = shape.size();
        Checks.require(knots.length > 0 && knots.length % n == 0, "knots must hold B >= 1 rows of L = %d, got %d values",
                n, knots.length);
        this.rows = knots.length / n;
        this.knots = knots;
        for (int b = 0; b < rows; b++) {
            for (int l = 0; l < n; l++) {
                double v = knots[b * n + l];
                if (!Double.isFinite(v) || (l > 0 && !(v > knots[b * n + l - 1]))) { // the message only when thrown
                    throw new IllegalArgumentException("knots must be finite and strictly increasing along each row, got "
                            + (l > 0 ? knots[b * n + l - 1] + " then " : "") + v + " at [" + b + ", " + l + "]");
                }
            }
        }
    }

    private static double[] flat(int n, double[][] knots) {
        Checks.require(knots != null && knots.length > 0, "knots must have at least one row");
        double[] out = new double[knots.length * n];
        for (int b = 0; b < knots.length; b++) {
            Checks.require(knots[b] != null && knots[b].length == n, "knots row %d must have L = %d values, got %s", b,
                    n, knots[b] == null ? "null" : knots[b].length);
            System.arraycopy(knots[b], 0, out, b * n, n);
        }
        return out;
    }

    @Override
    public int batchSize() {
        return rows;
    }

    /** A copy of the levels {@code [L]}. */
    public double[] levels() {
        return shape.levels();
    }

    /** A copy of the knots {@code [B][L]}. */
    public double[][] knots() {
        double[][] c = new double[rows][];
        for (int b = 0; b < rows; b++) {
            c[b] = Arrays.copyOfRange(knots, b * n, (b + 1) * n);
        }
        return c;
    }

    @Override
    public double[] logDensity(double[] y) {
        Checks.rowValues("y", y, rows);
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = shape.logDensity(knots, b * n, y[b]);
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        Checks.rowValues("y", y, rows);
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = shape.cdf(knots, b * n, y[b]);
        }
        return out;
    }

    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.inClosedRange("p", p, 0, 1);
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = shape.quantile(knots, b * n, p);
        }
        return out;
    }

    @Override
    public double[] mean() {
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = shape.mean(knots, b * n);
        }
        return out;
    }

    @Override
    public double[] variance() {
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = shape.variance(knots, b * n, shape.mean(knots, b * n));
        }
        return out;
    }

    @Override
    public double[] mode() {
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            int o = b * n;
            double best = -1;
            for (int l = 0; l + 1 < n; l++) {
                double density = (shape.level(l + 1) - shape.level(l)) / (knots[o + l + 1] - knots[o + l]);
                if (density > best) {
                    best = density;
                    out[b] = 0.5 * (knots[o + l] + knots[o + l + 1]);
                }
            }
        }
        return out;
    }

    @Override
    public double[][] sample(UniformRandomProvider rng, int count) {
        Checks.notNull("rng", rng);
        Checks.atLeast("n", count, 0);
        double[][] out = new double[count][rows];
        for (int s = 0; s < count; s++) {
            for (int b = 0; b < rows; b++) {
                double u = rng.nextDouble(); // [0, 1): 0 would be the infinite lower end
                out[s][b] = shape.quantile(knots, b * n, u == 0 ? Double.MIN_VALUE : u);
            }
        }
        return out;
    }

    @Override
    public double[] supportLowerBound() {
        double[] v = new double[rows];
        Arrays.fill(v, Double.NEGATIVE_INFINITY);
        return v;
    }

    @Override
    public double[] supportUpperBound() {
        double[] v = new double[rows];
        Arrays.fill(v, Double.POSITIVE_INFINITY);
        return v;
    }
}
