package io.regheads.core.internal;

import io.regheads.core.check.Checks;

/**
 * The distribution that L quantile knots stand for, and its exact CRPS: the one engine behind the quantile head's
 * predictive distribution and the losses on {@link io.regheads.core.head.QuantileKnots}.
 *
 * <p><b>Quantile function.</b> Levels {@code 0 < t_0 < ... < t_{L-1} < 1} (L &gt;= 2) and non-decreasing knots {@code
 * q_0 <= ... <= q_{L-1}}:
 * <pre>
 *   Q(tau) = q_i + (q_{i+1} - q_i) (tau - t_i) / (t_{i+1} - t_i)      t_i &lt;= tau &lt;= t_{i+1}   (linear between knots)
 *   Q(tau) = q_0 + bL log(tau / t_0)                                  tau &lt; t_0              (exponential left tail)
 *   Q(tau) = q_{L-1} - bR log((1 - tau) / (1 - t_{L-1}))              tau > t_{L-1}          (exponential right tail)
 *   bL = t_0 (q_1 - q_0) / (t_1 - t_0),   bR = (1 - t_{L-1}) (q_{L-1} - q_{L-2}) / (t_{L-1} - t_{L-2})
 * </pre>
 * so the cdf is piecewise linear through the knots, {@code F(y) = t_0 exp((y - q_0) / bL)} below {@code q_0} and
 * {@code 1 - (1 - t_{L-1}) exp(-(y - q_{L-1}) / bR)} above {@code q_{L-1}}: the tail scales make the density
 * continuous at the outer knots (the tail's density there equals the outer segment's {@code (t_1 - t_0) / (q_1 -
 * q_0)}). Every moment is finite: mean {@code t_0 (q_0 - bL) + sum_i (t_{i+1} - t_i)(q_i + q_{i+1}) / 2 + (1 -
 * t_{L-1})(q_{L-1} + bR)}.
 *
 * <p><b>CRPS.</b> {@code CRPS(F, y) = int (F(z) - 1{z >= y})^2 dz = 2 int_0^1 (1{tau > tau*} - tau)(Q(tau) - y) dtau}
 * with {@code tau* = F(y)} (the quantile decomposition: twice the pinball loss integrated over all levels). Q is
 * linear in the knots, {@code Q = sum_l q_l B_l(tau)} with fixed basis functions (hats between the knots, and {@code
 * 1 -+ c log} pieces in the tails), and the integrand vanishes at tau*, so {@code d CRPS / d q_l = 2 int_0^1 (1{tau >
 * tau*} - tau) B_l(tau) dtau} exactly, in closed form segment by segment (O(L) per row). The value is summed from
 * segment terms that are each non-negative away from tau* (knots taken relative to y), so there is no cancellation
 * between far-apart terms. Far from tau* an interior knot's gradient is {@code 2 (t_{l+1} - t_{l-1}) / 2 * (1{q_l > y}
 * - t_l)} up to O(segment width): twice the pinball gradient weighted by the level spacing.
 *
 * <p>Example (by hand): levels (0.25, 0.75), knots (-1, 1): bL = bR = 1, the density is 1/4 on [-1, 1] with
 * exponential tails of scale 1 and mass 1/4 each; mean 0; {@code F(0) = 0.5}; {@code CRPS(F, 0) = 17/48 = 0.3541667} (SciPy quad of {@code (F(z) - 1{z >= 0})^2} agrees).
 *
 * <p>Immutable and thread-safe; the methods allocate nothing.
 */
public final class PiecewiseQuantiles {
    private final double[] levels; // [L]
    private final double cLeft; // t_0 / (t_1 - t_0)
    private final double cRight; // (1 - t_{L-1}) / (t_{L-1} - t_{L-2})

    private PiecewiseQuantiles(double[] levels) {
        this.levels = levels;
        int n = levels.length;
        this.cLeft = levels[0] / (levels[1] - levels[0]);
        this.cRight = (1 - levels[n - 1]) / (levels[n - 1] - levels[n - 2]);
    }

    /**
     * @param levels L &gt;= 2 strictly increasing levels in (0, 1) (copied)
     * @throws IllegalArgumentException naming the first level that breaks the rule
     */
    public static PiecewiseQuantiles of(double[] levels) {
        checkLevels("levels", levels);
        return new PiecewiseQuantiles(levels.clone());
    }

    /**
     * Checks quantile levels: at least 2, each in (0, 1), strictly increasing.
     *
     * @return levels
     * @throws IllegalArgumentException naming {@code name}, the index and the value
     */
    public static double[] checkLevels(String name, double[] levels) {
        Checks.notNull(name, levels);
        Checks.require(levels.length >= 2, "%s must hold at least 2 levels, got %d", name, levels.length);
        for (int l = 0; l < levels.length; l++) {
            double t = levels[l];
            if (!(t > 0 && t < 1)) {
                throw new IllegalArgumentException(name + " must be in (0, 1), got " + t + " at index " + l);
            }
            if (l > 0 && !(t > levels[l - 1])) {
                throw new IllegalArgumentException(name + " must be strictly increasing, got " + levels[l - 1]
                        + " then " + t + " at index " + l);
            }
        }
        return levels;
    }

    /** L. */
    public int size() {
        return levels.length;
    }

    /** A copy of the levels. */
    public double[] levels() {
        return levels.clone();
    }

    /** Level {@code l}. */
    public double level(int l) {
        return levels[l];
    }

    /** The left tail's scale {@code bL} for the knots at {@code q[o, o + L)}. */
    public double leftScale(double[] q, int o) {
        return cLeft * (q[o + 1] - q[o]);
    }

    /** The right tail's scale {@code bR} for the knots at {@code q[o, o + L)}. */
    public double rightScale(double[] q, int o) {
        int n = levels.length;
        return cRight * (q[o + n - 1] - q[o + n - 2]);
    }

    /**
     * {@code F(y)} for the knots at {@code q[o, o + L)} (non-decreasing; a zero tail scale is a point mass at the
     * outer knot).
     */
    public double cdf(double[] q, int o, double y) {
        int n = levels.length;
        if (y < q[o]) {
            return levels[0] * Math.exp((y - q[o]) / leftScale(q, o)); // exp(-inf) = 0 for bL = 0
        }
        if (y >= q[o + n - 1]) {
            return 1 - upperTail(q, o, y);
        }
        int i = segment(q, o, y);
        double t = (y - q[o + i]) / (q[o + i + 1] - q[o + i]);
        return levels[i] + t * (levels[i + 1] - levels[i]);
    }

    /** {@code 1 - F(y)} for {@code y >= q_{L-1}}, without cancellation. */
    private double upperTail(double[] q, int o, double y) {
        int n = levels.length;
        double d = y - q[o + n - 1];
        if (d == 0) {
            return 1 - levels[n - 1];
        }
        return (1 - levels[n - 1]) * Math.exp(-d / rightScale(q, o)); // exp(-inf) = 0 for bR = 0
    }

    /** The largest i in [0, L-2] with {@code q_i <= y}, for {@code q_0 <= y < q_{L-1}}. */
    private int segment(double[] q, int o, double y) {
        int lo = 0;
        int hi = levels.length - 1; // q[lo] <= y < q[hi]
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (q[o + mid] <= y) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** {@code log f(y)} for strictly increasing knots (finite far into both tails). */
    public double logDensity(double[] q, int o, double y) {
        int n = levels.length;
        if (y < q[o]) {
            double b = leftScale(q, o);
            return Math.log(levels[0] / b) + (y - q[o]) / b;
        }
        if (y >= q[o + n - 1]) {
            double b = rightScale(q, o);
            return Math.log((1 - levels[n - 1]) / b) - (y - q[o + n - 1]) / b;
        }
        int i = segment(q, o, y);
        return Math.log((levels[i + 1] - levels[i]) / (q[o + i + 1] - q[o + i]));
    }

    /** {@code Q(p)} for p in [0, 1]: {@code -Infinity} at 0, {@code +Infinity} at 1. */
    public double quantile(double[] q, int o, double p) {
        int n = levels.length;
        if (p <= levels[0]) {
            return p == 0 ? Double.NEGATIVE_INFINITY : q[o] + leftScale(q, o) * Math.log(p / levels[0]);
        }
        if (p >= levels[n - 1]) {
            return p == 1 ? Double.POSITIVE_INFINITY
                    : q[o + n - 1] - rightScale(q, o) * Math.log((1 - p) / (1 - levels[n - 1]));
        }
        int lo = 0;
        int hi = n - 1; // levels[lo] < p < levels[hi] after the checks above
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (levels[mid] <= p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double t = (p - levels[lo]) / (levels[lo + 1] - levels[lo]);
        return q[o + lo] + t * (q[o + lo + 1] - q[o + lo]);
    }

    /** {@code E[Y] = int_0^1 Q(tau) dtau}. */
    public double mean(double[] q, int o) {
        int n = levels.length;
        double m = levels[0] * (q[o] - leftScale(q, o)) + (1 - levels[n - 1]) * (q[o + n - 1] + rightScale(q, o));
        for (int i = 0; i + 1 < n; i++) {
            m += (levels[i + 1] - levels[i]) * 0.5 * (q[o + i] + q[o + i + 1]);
        }
        return m;
    }

    /**
     * {@code Var[Y] = int_0^1 (Q(tau) - m)^2 dtau} for {@code m = mean(q, o)}: {@code t_0 (d^2 - 2 d bL + 2 bL^2)}
     * for the left tail ({@code d = q_0 - m}), {@code h (d_i^2 + d_i d_{i+1} + d_{i+1}^2) / 3} per segment of level
     * width h, {@code (1 - t_{L-1})(d^2 + 2 d bR + 2 bR^2)} for the right tail; every term is non-negative.
     */
    public double variance(double[] q, int o, double mean) {
        int n = levels.length;
        double bl = leftScale(q, o);
        double br = rightScale(q, o);
        double d0 = q[o] - mean;
        double dn = q[o + n - 1] - mean;
        double v = levels[0] * ((d0 - bl) * (d0 - bl) + bl * bl) + (1 - levels[n - 1]) * ((dn + br) * (dn + br) + br * br);
        for (int i = 0; i + 1 < n; i++) {
            double a = q[o + i] - mean;
            double b = q[o + i + 1] - mean;
            v += (levels[i + 1] - levels[i]) * (a * a + a * b + b * b) / 3;
        }
        return v;
    }

    /**
     * The exact CRPS of the knots at {@code q[o, o + L)} (non-decreasing, finite) at y, adding {@code scale * d
     * CRPS / d q_l} into {@code grad[go + l]} (see the class description).
     *
     * @return {@code CRPS(F, y) >= 0}
     */
    public double crps(double[] q, int o, double y, double scale, double[] grad, int go) {
        int n = levels.length;
        // tau* = F(y) and 1 - tau*, each without cancellation
        double tStar;
        double vStar;
        if (y >= q[o + n - 1]) {
            vStar = upperTail(q, o, y);
            tStar = 1 - vStar;
        } else {
            tStar = cdf(q, o, y);
            vStar = 1 - tStar;
        }
        double value = 0;
        // left tail, tau in (0, t0]: Q - y = d0 + bL log(tau / t0); B_0 = 1 - cL log, B_1 = cL log
        double t0 = levels[0];
        double s = Math.min(tStar, t0);
        double w1 = -0.5 * s * s + (t0 - s) * (1 - 0.5 * (t0 + s)); // int (1{tau > s} - tau) dtau
        double wl = -tauLog(s, t0) + (oneLog(t0, t0) - oneLog(s, t0)) - (tauLog(t0, t0) - tauLog(s, t0));
        value += (q[o] - y) * w1 + leftScale(q, o) * wl;
        grad[go] += 2 * scale * (w1 - cLeft * wl);
        grad[go + 1] += 2 * scale * cLeft * wl;
        // segments, tau = a + h u: Q - y = d_i (1 - u) + d_{i+1} u
        for (int i = 0; i + 1 < n; i++) {
            double a = levels[i];
            double h = levels[i + 1] - a;
            double u = Math.min(1, Math.max(0, (tStar - a) / h));
            double wa = h * (0.5 * (1 - u) * (1 - u) - (0.5 * a + h / 6)); // int (1{tau > tau*} - tau)(1 - u) dtau
            double wb = h * (0.5 * (1 - u * u) - (0.5 * a + h / 3)); // int (1{tau > tau*} - tau) u dtau
            value += (q[o + i] - y) * wa + (q[o + i + 1] - y) * wb;
            grad[go + i] += 2 * scale * wa;
            grad[go + i + 1] += 2 * scale * wb;
        }
        // right tail, v = 1 - tau in (0, wR]: Q - y = dL - bR log(v / wR); B_{L-1} = 1 - cR log, B_{L-2} = cR log
        double wR = 1 - levels[n - 1];
        double vs = Math.min(vStar, wR);
        double r1 = 0.5 * vs * vs - (wR - vs) * (1 - 0.5 * (wR + vs)); // int (1{tau > tau*} - tau) dtau
        double rl = tauLog(vs, wR) - ((oneLog(wR, wR) - oneLog(vs, wR)) - (tauLog(wR, wR) - tauLog(vs, wR)));
        value += (q[o + n - 1] - y) * r1 - rightScale(q, o) * rl;
        grad[go + n - 1] += 2 * scale * (r1 - cRight * rl);
        grad[go + n - 2] += 2 * scale * cRight * rl;
        return 2 * value;
    }

    /** {@code int_0^x log(t / c) dt = x log(x / c) - x} (0 at x = 0). */
    private static double oneLog(double x, double c) {
        return x > 0 ? x * Math.log(x / c) - x : 0;
    }

    /** {@code int_0^x t log(t / c) dt = x^2 log(x / c) / 2 - x^2 / 4} (0 at x = 0). */
    private static double tauLog(double x, double c) {
        return x > 0 ? 0.5 * x * x * Math.log(x / c) - 0.25 * x * x : 0;
    }
}
