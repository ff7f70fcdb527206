package io.regheads.core.dist;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.StdNormal;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A distribution with bounded support given half-normal tails beyond it, so that every finite y has a finite log
 * density and a CDF strictly inside (0, 1). Per row, with the base's support {@code [lo, hi]} ({@link
 * PredictiveDistribution#supportLowerBound()}, {@link PredictiveDistribution#supportUpperBound()}), each finite end
 * gets a tail of mass {@code eps / 2} and scale s (an infinite end none), the base the rest, {@code w = 1 - eL - eR}:
 * <pre>{@code
 *   f(y) = eL 2 phi((lo - y) / s) / s     for y < lo
 *        = w g(y)                         on [lo, hi]   (g the base density)
 *        = eR 2 phi((y - hi) / s) / s     for y > hi
 * }</pre>
 * with phi the standard normal density. CDF {@code 2 eL Phi((y - lo)/s)} on the left, {@code eL + w G(y)} inside,
 * {@code 1 - 2 eR Phi((hi - y)/s)} on the right; quantiles invert it piece by piece (exactly where the base's are);
 * mean {@code w m + eL (lo - s sqrt(2/pi)) + eR (hi + s sqrt(2/pi))}; variance from the mixture's second moments;
 * sampling picks a tail with probability eL or eR; the mode is the base's. Use it for finite outcomes: the base's
 * NaN and infinity probabilities, if any, are not carried.
 *
 * <p>Example: eps = 0.001, s = 0.1 on [0, 1]: a target 0.01 above the range has density {@code 0.0005 * 2 phi(0.1) /
 * 0.1 = 0.00397}, log density -5.53, where the bounded base gave 0 (log density -Infinity).
 *
 * <p>Immutable and thread-safe if the base is.
 */
public final class WithTails implements PredictiveDistribution {
    private final PredictiveDistribution base;
    private final double[] lo; // [B]
    private final double[] hi; // [B]
    private final double[] eL; // [B] left tail mass, 0 where lo is infinite
    private final double[] eR; // [B]
    private final double s;

    /**
     * @param base any distribution; a row with both ends of its support infinite is passed through unchanged
     * @param eps  the tails' total mass where both ends are finite, in (0, 1)
     * @param s    the half-normal scale, > 0 and finite, in the units of y
     * @throws IllegalArgumentException on a value outside these domains
     */
    public WithTails(PredictiveDistribution base, double eps, double s) {
        this.base = Checks.notNull("base", base);
        Checks.require(eps > 0 && eps < 1, "eps must be in (0, 1), got %s", eps);
        Checks.positive("s", s);
        this.lo = base.supportLowerBound();
        this.hi = base.supportUpperBound();
        this.eL = new double[lo.length];
        this.eR = new double[lo.length];
        for (int i = 0; i < lo.length; i++) {
            eL[i] = Double.isFinite(lo[i]) ? eps / 2 : 0;
            eR[i] = Double.isFinite(hi[i]) ? eps / 2 : 0;
        }
        this.s = s;
    }

    /** Whether any row of {@code d} has a finite end of its support (so that tails change it). */
    public static boolean bounded(PredictiveDistribution d) {
        for (double v : d.supportLowerBound()) {
            if (Double.isFinite(v)) {
                return true;
            }
        }
        for (double v : d.supportUpperBound()) {
            if (Double.isFinite(v)) {
                return true;
            }
        }
        return false;
    }

    /** {@return the bounded distribution inside} */
    public PredictiveDistribution base() {
        return base;
    }

    @Override
    public int batchSize() {
        return base.batchSize();
    }

    @Override
    public double[] logDensity(double[] y) {
        double[] out = base.logDensity(y);
        double logTwoOverS = Math.log(2 / s);
        for (int i = 0; i < y.length; i++) {
            if (y[i] < lo[i]) {
                out[i] = Math.log(eL[i]) + logTwoOverS + StdNormal.logPdf((lo[i] - y[i]) / s);
            } else if (y[i] > hi[i]) {
                out[i] = Math.log(eR[i]) + logTwoOverS + StdNormal.logPdf((y[i] - hi[i]) / s);
            } else {
                out[i] += Math.log1p(-eL[i] - eR[i]);
            }
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        double[] out = base.cumulativeProbability(y);
        for (int i = 0; i < y.length; i++) {
            if (y[i] < lo[i]) {
                out[i] = 2 * eL[i] * StdNormal.cdf((y[i] - lo[i]) / s);
            } else if (y[i] > hi[i]) {
                out[i] = 1 - 2 * eR[i] * StdNormal.cdf((hi[i] - y[i]) / s);
            } else {
                out[i] = eL[i] + (1 - eL[i] - eR[i]) * out[i];
            }
        }
        return out;
    }

    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.inClosedRange("p", p, 0, 1);
        int b = batchSize();
        double[] out = new double[b];
        boolean inside = false;
        for (int i = 0; i < b; i++) {
            if (p < eL[i]) {
                out[i] = p == 0 ? Double.NEGATIVE_INFINITY : lo[i] + s * StdNormal.quantile(p / (2 * eL[i]));
            } else if (p > 1 - eR[i]) {
                out[i] = p == 1 ? Double.POSITIVE_INFINITY : hi[i] - s * StdNormal.quantile((1 - p) / (2 * eR[i]));
            } else {
                inside = true;
            }
        }
        if (inside) { // rows whose quantile lies inside: the base's at the level rescaled per row (one call per level)
            java.util.Map<Double, double[]> byLevel = new java.util.HashMap<>();
            for (int i = 0; i < b; i++) {
                if (!(p < eL[i]) && !(p > 1 - eR[i])) {
                    // symmetric tails: 0.5 + (p - 0.5) / w, which keeps the base's median exactly at p = 0.5
                    double q = eL[i] == eR[i] ? 0.5 + (p - 0.5) / (1 - eL[i] - eR[i])
                            : (p - eL[i]) / (1 - eL[i] - eR[i]);
                    q = Math.min(1, Math.max(0, q));
                    out[i] = byLevel.computeIfAbsent(q, base::inverseCumulativeProbability)[i];
                }
            }
        }
        return out;
    }

    @Override
    public double[] mean() {
        double[] m = base.mean();
        double off = s * Math.sqrt(2 / Math.PI);
        for (int i = 0; i < m.length; i++) {
            m[i] = (1 - eL[i] - eR[i]) * m[i] + (eL[i] > 0 ? eL[i] * (lo[i] - off) : 0)
                    + (eR[i] > 0 ? eR[i] * (hi[i] + off) : 0);
        }
        return m;
    }

    @Override
    public double[] variance() {
        double[] m = base.mean();
        double[] v = base.variance();
        double[] total = mean();
        // a tail's second moment: its variance s^2 (1 - 2/pi) plus its mean squared
        double off = s * Math.sqrt(2 / Math.PI);
        double tailVar = s * s * (1 - 2 / Math.PI);
        for (int i = 0; i < m.length; i++) {
            double second = (1 - eL[i] - eR[i]) * (v[i] + m[i] * m[i]);
            if (eL[i] > 0) {
                second += eL[i] * (tailVar + (lo[i] - off) * (lo[i] - off));
            }
            if (eR[i] > 0) {
                second += eR[i] * (tailVar + (hi[i] + off) * (hi[i] + off));
            }
            v[i] = Math.max(0, second - total[i] * total[i]);
        }
        return v;
    }

    @Override
    public double[] mode() {
        return base.mode();
    }

    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        double[][] out = base.sample(rng, n);
        for (double[] row : out) {
            for (int i = 0; i < row.length; i++) {
                double u = rng.nextDouble();
                if (u < eL[i] + eR[i]) {
                    double z = Math.abs(StdNormal.quantile(Math.max(Double.MIN_VALUE, rng.nextDouble())));
                    row[i] = u < eL[i] ? lo[i] - s * z : hi[i] + s * z;
                }
            }
        }
        return out;
    }

    @Override
    public double[] supportLowerBound() {
        double[] out = new double[batchSize()];
        java.util.Arrays.fill(out, Double.NEGATIVE_INFINITY);
        return out;
    }

    @Override
    public double[] supportUpperBound() {
        double[] out = new double[batchSize()];
        java.util.Arrays.fill(out, Double.POSITIVE_INFINITY);
        return out;
    }
}
