package io.regheads.app.experiments;

import io.regheads.core.check.Checks;
import java.util.Arrays;

/**
 * Distances between two one-dimensional samples, through their empirical CDFs {@code F_a} and {@code F_b}.
 *
 * <ul>
 *   <li>{@link #wasserstein1}: {@code W1 = int |F_a(t) - F_b(t)| dt}, in the units of the values (for equal sizes the
 *       mean absolute difference of the sorted samples). Example: {0, 1} vs {0.5, 1.5}: 0.5.</li>
 *   <li>{@link #kolmogorovSmirnov}: {@code sup_t |F_a(t) - F_b(t)|}, in [0, 1], blind to how far off a stray value is
 *       (robust to the rare huge draws of an unnormalized decoder). Example: {0, 1} vs {0.5, 1.5}: 0.5.</li>
 *   <li>{@link #energy}: the energy distance {@code 2 E|X - Y| - E|X - X'| - E|Y - Y'| = 2 int (F_a - F_b)^2 dt}
 *       (Szekely and Rizzo), in the units of the values. Example: {0, 1} vs {0.5, 1.5}: 2 x 0.75 - 0.5 - 0.5 = 0.5.</li>
 * </ul>
 *
 * <p>All are 0 for identical samples, symmetric, and computed in O((n + m) log(n + m)) by one sweep over the merged
 * sorted values. Inputs are not modified. Stateless and thread-safe.
 */
public final class SampleDistances {
    private SampleDistances() {}

    /**
     * 1-Wasserstein distance of the empirical distributions of {@code a} and {@code b}.
     *
     * @throws IllegalArgumentException if either is null, empty or has a non-finite value
     */
    public static double wasserstein1(double[] a, double[] b) {
        return sweep(a, b, 1);
    }

    /**
     * Kolmogorov-Smirnov statistic of {@code a} and {@code b}.
     *
     * @throws IllegalArgumentException as {@link #wasserstein1}
     */
    public static double kolmogorovSmirnov(double[] a, double[] b) {
        return sweep(a, b, 0);
    }

    /**
     * Energy distance of {@code a} and {@code b} ({@code 2 int (F_a - F_b)^2 dt}).
     *
     * @throws IllegalArgumentException as {@link #wasserstein1}
     */
    public static double energy(double[] a, double[] b) {
        return 2 * sweep(a, b, 2);
    }

    /** power 0: sup |F_a - F_b|; 1: int |F_a - F_b|; 2: int (F_a - F_b)^2. */
    private static double sweep(double[] a, double[] b, int power) {
        double[] x = sorted("a", a);
        double[] y = sorted("b", b);
        int i = 0;
        int j = 0;
        double out = 0;
        double prev = Math.min(x[0], y[0]);
        while (i < x.length || j < y.length) {
            double t = j >= y.length || (i < x.length && x[i] <= y[j]) ? x[i] : y[j];
            double gap = (double) i / x.length - (double) j / y.length; // F_a - F_b on [prev, t)
            if (power == 1) {
                out += Math.abs(gap) * (t - prev);
            } else if (power == 2) {
                out += gap * gap * (t - prev);
            }
            while (i < x.length && x[i] == t) {
                i++;
            }
            while (j < y.length && y[j] == t) {
                j++;
            }
            if (power == 0) {
                out = Math.max(out, Math.abs((double) i / x.length - (double) j / y.length));
            }
            prev = t;
        }
        return out;
    }

    private static double[] sorted(String name, double[] v) {
        Checks.notNull(name, v);
        Checks.require(v.length > 0, "%s must not be empty", name);
        Checks.allFinite(name, v);
        double[] s = v.clone();
        Arrays.sort(s);
        return s;
    }
}
