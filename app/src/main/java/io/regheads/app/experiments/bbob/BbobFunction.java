package io.regheads.app.experiments.bbob;

import io.regheads.core.check.Checks;
import java.util.Locale;

/**
 * Ten noiseless test functions of the BBOB suite, re-implemented from N. Hansen, S. Finck, R. Ros and A. Auger,
 * "Real-Parameter Black-Box Optimization Benchmarking 2009: Noiseless Functions Definitions" (INRIA research report
 * RR-6829), as the decoding paper (Song and Bahri, arXiv:2501.19383, Table 5 and Fig. 12) uses them for curve
 * fitting: y = f(x) with x uniform on [-5, 5]^D.
 *
 * <p>Every function is {@code f(x) = g(z) + f_opt} with {@code f_opt = 0} here, z a transformation of x built from
 * {@link BbobInstance}'s optimum {@code x_opt} and rotations R, Q, and {@code r_i = (i - 1) / (D - 1)} (i = 1..D).
 * The helper transformations T_osz, T_asy^beta and Lambda^alpha are in {@link BbobInstance}. Formulas (z, then g):
 * <ul>
 *   <li>f1 sphere: {@code z = x - x_opt}, {@code g = sum z_i^2};</li>
 *   <li>f2 separable ellipsoid: {@code z = T_osz(x - x_opt)}, {@code g = sum 10^(6 r_i) z_i^2};</li>
 *   <li>f3 separable Rastrigin: {@code z = Lambda^10 T_asy^0.2(T_osz(x - x_opt))}, {@code g = 10 (D - sum cos(2 pi
 *       z_i)) + sum z_i^2};</li>
 *   <li>f5 linear slope: {@code x_opt = 5 sign} per coordinate, {@code s_i = sign(x_opt_i) 10^(r_i)}, {@code z_i =
 *       x_i} if {@code x_opt_i x_i < 25} else {@code x_opt_i}, {@code g = sum (5 |s_i| - s_i z_i)};</li>
 *   <li>f8 Rosenbrock: {@code z = c (x - 0.75 x_opt) + 1}, {@code c = max(1, sqrt(D) / 8)}, {@code g = sum_{i<D}
 *       100 (z_i^2 - z_{i+1})^2 + (z_i - 1)^2};</li>
 *   <li>f10 rotated ellipsoid: {@code z = T_osz(R (x - x_opt))}, g as f2;</li>
 *   <li>f11 discus: {@code z = T_osz(R (x - x_opt))}, {@code g = 10^6 z_1^2 + sum_{i>=2} z_i^2};</li>
 *   <li>f12 bent cigar: {@code z = R T_asy^0.5(R (x - x_opt))}, {@code g = z_1^2 + 10^6 sum_{i>=2} z_i^2};</li>
 *   <li>f14 different powers: {@code z = R (x - x_opt)}, {@code g = sqrt(sum |z_i|^(2 + 4 r_i))};</li>
 *   <li>f15 rotated Rastrigin: {@code z = R Lambda^10 Q T_asy^0.2(T_osz(R (x - x_opt)))}, g as f3.</li>
 * </ul>
 *
 * <p>Example (D = 2, x_opt = (1, -2), x = (2, 0)): the sphere gives 1 + 4 = 5; the Rosenbrock function has z =
 * (2 - 0.75 + 1, 0 + 1.5 + 1) = (2.25, 2.5) and g = 100 (5.0625 - 2.5)^2 + 1.25^2 = 658.203125.
 *
 * <p>Immutable and thread-safe.
 */
public enum BbobFunction {
    /** f1. */
    SPHERE(1, "sphere"),
    /** f2. */
    ELLIPSOID(2, "ellipsoid"),
    /** f3. */
    RASTRIGIN(3, "rastrigin"),
    /** f5. */
    LINEAR_SLOPE(5, "linear-slope"),
    /** f8. */
    ROSENBROCK(8, "rosenbrock"),
    /** f10. */
    ELLIPSOID_ROTATED(10, "ellipsoid-rotated"),
    /** f11. */
    DISCUS(11, "discus"),
    /** f12. */
    BENT_CIGAR(12, "bent-cigar"),
    /** f14. */
    DIFFERENT_POWERS(14, "different-powers"),
    /** f15. */
    RASTRIGIN_ROTATED(15, "rastrigin-rotated");

    private final int number;
    private final String label;

    BbobFunction(int number, String label) {
        this.number = number;
        this.label = label;
    }

    /** The function's number in the BBOB suite (f1, f2, ...). */
    public int number() {
        return number;
    }

    /** Name on the command line. */
    public String label() {
        return label;
    }

    /** {@code "f8 rosenbrock"}. */
    public String title() {
        return String.format(Locale.ROOT, "f%d %s", number, label);
    }

    /** The function with this label. @throws IllegalArgumentException if none */
    public static BbobFunction of(String label) {
        for (BbobFunction f : values()) {
            if (f.label.equals(label)) {
                return f;
            }
        }
        throw new IllegalArgumentException("BBOB function must be one of sphere, ellipsoid, rastrigin, linear-slope, "
                + "rosenbrock, ellipsoid-rotated, discus, bent-cigar, different-powers, rastrigin-rotated, got '"
                + label + "'");
    }

    /**
     * {@code g(z)} of an already transformed z ({@code r_i} as in the class comment).
     *
     * @param z the transformed point, length D >= 2
     */
    double g(double[] z) {
        int d = z.length;
        Checks.atLeast("z.length", d, 2);
        double s = 0;
        switch (this) {
            case SPHERE -> {
                for (double v : z) {
                    s += v * v;
                }
            }
            case ELLIPSOID, ELLIPSOID_ROTATED -> {
                for (int i = 0; i < d; i++) {
                    s += Math.pow(10, 6.0 * i / (d - 1)) * z[i] * z[i];
                }
            }
            case RASTRIGIN, RASTRIGIN_ROTATED -> {
                double cos = 0;
                for (double v : z) {
                    cos += Math.cos(2 * Math.PI * v);
                    s += v * v;
                }
                s += 10 * (d - cos);
            }
            case ROSENBROCK -> {
                for (int i = 0; i < d - 1; i++) {
                    double a = z[i] * z[i] - z[i + 1];
                    s += 100 * a * a + (z[i] - 1) * (z[i] - 1);
                }
            }
            case DISCUS -> {
                s = 1e6 * z[0] * z[0];
                for (int i = 1; i < d; i++) {
                    s += z[i] * z[i];
                }
            }
            case BENT_CIGAR -> {
                s = z[0] * z[0];
                double rest = 0;
                for (int i = 1; i < d; i++) {
                    rest += z[i] * z[i];
                }
                s += 1e6 * rest;
            }
            case DIFFERENT_POWERS -> {
                for (int i = 0; i < d; i++) {
                    s += Math.pow(Math.abs(z[i]), 2 + 4.0 * i / (d - 1));
                }
                s = Math.sqrt(s);
            }
            default -> throw new IllegalStateException("g is not defined on its own for " + this);
        }
        return s;
    }
}
