package io.regheads.app.experiments.bbob;

import io.regheads.core.check.Checks;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * One instance of a {@link BbobFunction} in dimension D: the optimum {@code x_opt}, the rotations R and Q, and
 * {@code f_opt = 0}. Formulas of the functions and helper transformations after N. Hansen, S. Finck, R. Ros and A.
 * Auger, "Real-Parameter Black-Box Optimization Benchmarking 2009: Noiseless Functions Definitions" (INRIA RR-6829):
 * <ul>
 *   <li>{@code T_osz(t) = sign(t) exp(h + 0.049 (sin(c1 h) + sin(c2 h)))}, {@code h = ln|t|}, {@code (c1, c2) =
 *       (10, 7.9)} for t > 0 and {@code (5.5, 3.1)} for t &lt; 0, {@code T_osz(0) = 0}; elementwise;</li>
 *   <li>{@code T_asy^beta}: a positive {@code t_i} becomes {@code t_i^(1 + beta r_i sqrt(t_i))}, the others stay;</li>
 *   <li>{@code Lambda^alpha}: coordinate i times {@code alpha^(r_i / 2)}.</li>
 * </ul>
 * {@link #random} draws {@code x_opt} uniform on [-4, 4]^D rounded to 4 decimals (a 0 becomes -1e-5, as COCO
 * does; the linear slope takes {@code 5 sign(x_opt_i)}) and R, Q by Gram-Schmidt on Gaussian matrices; the seeds
 * are not COCO's, so the instances are not the official ones (COCO's legacy generator is not reproduced).
 *
 * <p>Example (sphere, D = 2, {@code x_opt = (1, -2)}): {@code value(2, 0) = 5}. Immutable and thread-safe.
 */
public final class BbobInstance {
    private final BbobFunction function;
    private final int d;
    private final double[] xOpt;
    private final double[][] r;
    private final double[][] q;

    private BbobInstance(BbobFunction function, double[] xOpt, double[][] r, double[][] q) {
        this.function = Checks.notNull("function", function);
        this.d = xOpt.length;
        Checks.atLeast("dimension", d, 2);
        this.xOpt = xOpt.clone();
        this.r = copySquare("r", r, d);
        this.q = copySquare("q", q, d);
    }

    /**
     * An instance with a given optimum and rotations (the tests' hand values use it).
     *
     * @param xOpt {@code [D]}, D >= 2 (for the linear slope only its signs count: the optimum is {@code 5
     *             sign(x_opt)})
     * @param r    {@code [D][D]} rotation R (any matrix is accepted; the suite's are orthogonal)
     * @param q    {@code [D][D]} rotation Q
     * @throws IllegalArgumentException on a null argument, D &lt; 2 or wrong matrix shapes
     */
    public static BbobInstance of(BbobFunction function, double[] xOpt, double[][] r, double[][] q) {
        Checks.notNull("xOpt", xOpt);
        Checks.allFinite("xOpt", xOpt);
        double[] opt = xOpt.clone();
        if (function == BbobFunction.LINEAR_SLOPE) {
            for (int i = 0; i < opt.length; i++) {
                opt[i] = opt[i] < 0 ? -5 : 5;
            }
        }
        return new BbobInstance(function, opt, r, q);
    }

    /**
     * A seeded instance (see the class comment).
     *
     * @throws IllegalArgumentException if dimension &lt; 2
     */
    public static BbobInstance random(BbobFunction function, int dimension, long seed) {
        Checks.atLeast("dimension", dimension, 2);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed * 7919 + function.number());
        double[] opt = new double[dimension];
        for (int i = 0; i < dimension; i++) {
            double v = Math.round((-4 + 8 * rng.nextDouble()) * 1e4) / 1e4;
            opt[i] = v == 0 ? -1e-5 : v;
        }
        return of(function, opt, rotation(dimension, rng), rotation(dimension, rng));
    }

    /** A random orthogonal matrix: Gram-Schmidt on the columns of a standard Gaussian matrix. */
    static double[][] rotation(int d, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] m = new double[d][d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                m[i][j] = g.sample();
            }
        }
        for (int j = 0; j < d; j++) {
            for (int k = 0; k < j; k++) {
                double dot = 0;
                for (int i = 0; i < d; i++) {
                    dot += m[i][j] * m[i][k];
                }
                for (int i = 0; i < d; i++) {
                    m[i][j] -= dot * m[i][k];
                }
            }
            double norm = 0;
            for (int i = 0; i < d; i++) {
                norm += m[i][j] * m[i][j];
            }
            norm = Math.sqrt(norm);
            for (int i = 0; i < d; i++) {
                m[i][j] /= norm;
            }
        }
        return m;
    }

    /** The function. */
    public BbobFunction function() {
        return function;
    }

    /** D. */
    public int dimension() {
        return d;
    }

    /** A copy of the optimum {@code x_opt} (for the linear slope: {@code 5 sign}). */
    public double[] optimum() {
        return xOpt.clone();
    }

    /**
     * f(x).
     *
     * @param x {@code [D]}, finite
     * @throws IllegalArgumentException on a wrong length or a non-finite entry
     */
    public double value(double[] x) {
        Checks.notNull("x", x);
        Checks.require(x.length == d, "x must have length %d, got %d", d, x.length);
        Checks.allFinite("x", x);
        double[] shifted = new double[d];
        for (int i = 0; i < d; i++) {
            shifted[i] = x[i] - xOpt[i];
        }
        double[] z;
        switch (function) {
            case SPHERE, DIFFERENT_POWERS -> z = function == BbobFunction.SPHERE ? shifted : times(r, shifted);
            case ELLIPSOID -> z = oscillate(shifted);
            case RASTRIGIN -> z = condition(asymmetric(oscillate(shifted), 0.2), 10);
            case LINEAR_SLOPE -> {
                return linearSlope(x);
            }
            case ROSENBROCK -> {
                double c = Math.max(1, Math.sqrt(d) / 8);
                z = new double[d];
                for (int i = 0; i < d; i++) {
                    z[i] = c * (x[i] - 0.75 * xOpt[i]) + 1;
                }
            }
            case ELLIPSOID_ROTATED, DISCUS -> z = oscillate(times(r, shifted));
            case BENT_CIGAR -> z = times(r, asymmetric(times(r, shifted), 0.5));
            case RASTRIGIN_ROTATED -> z = times(r, condition(times(q, asymmetric(oscillate(times(r, shifted)), 0.2)), 10));
            default -> throw new IllegalStateException("unknown function " + function);
        }
        return function.g(z);
    }

    private double linearSlope(double[] x) {
        double s = 0;
        for (int i = 0; i < d; i++) {
            double si = Math.signum(xOpt[i]) * Math.pow(10, (double) i / (d - 1));
            double zi = xOpt[i] * x[i] < 25 ? x[i] : xOpt[i];
            s += 5 * Math.abs(si) - si * zi;
        }
        return s;
    }

    /** T_osz elementwise. */
    static double[] oscillate(double[] t) {
        double[] out = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            out[i] = oscillate(t[i]);
        }
        return out;
    }

    /** T_osz of one value. */
    static double oscillate(double t) {
        if (t == 0) {
            return 0;
        }
        double h = Math.log(Math.abs(t));
        double c1 = t > 0 ? 10 : 5.5;
        double c2 = t > 0 ? 7.9 : 3.1;
        return Math.signum(t) * Math.exp(h + 0.049 * (Math.sin(c1 * h) + Math.sin(c2 * h)));
    }

    /** T_asy^beta. */
    static double[] asymmetric(double[] t, double beta) {
        int d = t.length;
        double[] out = t.clone();
        for (int i = 0; i < d; i++) {
            if (t[i] > 0) {
                out[i] = Math.pow(t[i], 1 + beta * ((double) i / (d - 1)) * Math.sqrt(t[i]));
            }
        }
        return out;
    }

    /** Lambda^alpha applied: coordinate i times alpha^(r_i / 2). */
    static double[] condition(double[] t, double alpha) {
        int d = t.length;
        double[] out = new double[d];
        for (int i = 0; i < d; i++) {
            out[i] = Math.pow(alpha, 0.5 * i / (d - 1)) * t[i];
        }
        return out;
    }

    private static double[] times(double[][] m, double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            double s = 0;
            for (int j = 0; j < v.length; j++) {
                s += m[i][j] * v[j];
            }
            out[i] = s;
        }
        return out;
    }

    private static double[][] copySquare(String name, double[][] m, int d) {
        Checks.notNull(name, m);
        Checks.require(m.length == d, "%s must have %d rows, got %d", name, d, m.length);
        double[][] c = new double[d][];
        for (int i = 0; i < d; i++) {
            Checks.require(m[i] != null && m[i].length == d, "%s row %d must have length %d", name, i, d);
            c[i] = Checks.allFinite(name, m[i]).clone();
        }
        return c;
    }
}
