package io.regheads.core.metrics;

import io.regheads.core.check.Checks;
import java.util.Arrays;

/**
 * Point and probabilistic regression metrics over a test set of N examples: {@link #mse}, {@link
 * #relativeMse}, {@link #kendallTau} (tau-b, O(N log N)), {@link #meanNll} and {@link #crps} from samples
 * (O(n log n) per example).
 *
 * <p>Inputs must be non-empty, of equal length and finite (except where a method says otherwise); violations
 * raise {@link IllegalArgumentException} naming the argument, the rule and the value. Quantities that would be
 * undefined (the variance of a constant y, tau of a constant ranking) raise as well, never return NaN.
 *
 * <p>Stateless and thread-safe; inputs are never modified.
 */
public final class Metrics {
    private Metrics() {}

    /**
     * Mean squared error {@code (1/N) sum (predicted_i - y_i)^2}. Example: predicted (1, 2), y (0, 4) give 2.5.
     *
     * @param predicted {@code [N]}, finite
     * @param y         {@code [N]}, finite
     */
    public static double mse(double[] predicted, double[] y) {
        checkPair("predicted", predicted, "y", y);
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            double e = predicted[i] - y[i];
            s += e * e;
        }
        return s / y.length;
    }

    /**
     * Relative MSE: {@code mse(predicted, y) / var(y)} with the population variance {@code (1/N) sum (y_i -
     * mean)^2}, so predicting the test mean everywhere scores 1. Example: predicted (1, 2), y (0, 4): 2.5 / 4 =
     * 0.625.
     *
     * @throws IllegalArgumentException as {@link #mse}, or if y is constant (variance 0)
     */
    public static double relativeMse(double[] predicted, double[] y) {
        double mse = mse(predicted, y);
        double mean = 0;
        for (double v : y) {
            mean += v;
        }
        mean /= y.length;
        double ss = 0;
        for (double v : y) {
            ss += (v - mean) * (v - mean);
        }
        double var = ss / y.length;
        Checks.require(var > 0, "y must not be constant for a relative MSE (variance must be > 0), got variance %s", var);
        return mse / var;
    }

    /**
     * Kendall's tau-b rank correlation, with tie correction, as {@code scipy.stats.kendalltau} (variant 'b'):
     * <pre>
     *   tau_b = (C - D) / sqrt((n0 - n1) (n0 - n2)),  n0 = N(N-1)/2,
     * </pre>
     * C and D the concordant and discordant pairs, n1 and n2 the pairs tied in x and in y. Computed in O(N log N)
     * by Knight's algorithm: sort by (x, y), count ties, then count discordant pairs as the swaps of a merge sort
     * on y. Example: x (1, 2, 3, 4), y (1, 3, 2, 4): C = 5, D = 1, tau = 4/6 = 0.6667.
     *
     * @param x {@code [N]}, N >= 2, finite, not all equal
     * @param y {@code [N]}, finite, not all equal
     * @throws IllegalArgumentException on bad input or a constant x or y (tau undefined)
     */
    public static double kendallTau(double[] x, double[] y) {
        checkPair("x", x, "y", y);
        int n = x.length;
        Checks.require(n >= 2, "x must have at least 2 elements for Kendall's tau, got %d", n);
        double[] xs = normalizedZeros(x);
        double[] yv = normalizedZeros(y);
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> {
            int c = Double.compare(xs[a], xs[b]);
            return c != 0 ? c : Double.compare(yv[a], yv[b]);
        });
        double[] ys = new double[n]; // y in (x, y) order
        long tiedX = 0;
        long tiedXY = 0;
        long runX = 1;
        long runXY = 1;
        for (int i = 0; i < n; i++) {
            ys[i] = yv[boxed[i]];
            if (i > 0) {
                boolean sameX = xs[boxed[i]] == xs[boxed[i - 1]];
                boolean sameXY = sameX && ys[i] == ys[i - 1];
                if (sameX) {
                    runX++;
                } else {
                    tiedX += runX * (runX - 1) / 2;
                    runX = 1;
                }
                if (sameXY) {
                    runXY++;
                } else {
                    tiedXY += runXY * (runXY - 1) / 2;
                    runXY = 1;
                }
            }
        }
        tiedX += runX * (runX - 1) / 2;
        tiedXY += runXY * (runXY - 1) / 2;
        long swaps = mergeSortCountingSwaps(ys, new double[n], 0, n);
        long tiedY = 0;
        long runY = 1;
        for (int i = 1; i < n; i++) {
            if (ys[i] == ys[i - 1]) {
                runY++;
            } else {
                tiedY += runY * (runY - 1) / 2;
                runY = 1;
            }
        }
        tiedY += runY * (runY - 1) / 2;
        long n0 = (long) n * (n - 1) / 2;
        Checks.require(tiedX < n0, "x must not be constant for Kendall's tau, got all values %s", x[0]);
        Checks.require(tiedY < n0, "y must not be constant for Kendall's tau, got all values %s", y[0]);
        // C - D = (pairs untied in both) - 2 D = n0 - n1 - n2 + n3 - 2 swaps
        double numerator = (double) (n0 - tiedX - tiedY + tiedXY) - 2.0 * swaps;
        return numerator / Math.sqrt((double) (n0 - tiedX) * (double) (n0 - tiedY));
    }

    /** A copy with -0.0 turned into 0.0, so that sorting (Double.compare) and tie tests (==) agree. */
    private static double[] normalizedZeros(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] + 0.0;
        }
        return out;
    }

    /** Sorts a[lo, hi) ascending; returns the number of pairs i < j with a[i] > a[j] (strict inversions). */
    private static long mergeSortCountingSwaps(double[] a, double[] tmp, int lo, int hi) {
        if (hi - lo < 2) {
            return 0;
        }
        int mid = (lo + hi) >>> 1;
        long swaps = mergeSortCountingSwaps(a, tmp, lo, mid) + mergeSortCountingSwaps(a, tmp, mid, hi);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            if (a[i] <= a[j]) {
                tmp[k++] = a[i++];
            } else {
                swaps += mid - i; // a[j] is smaller than every remaining left element
                tmp[k++] = a[j++];
            }
        }
        while (i < mid) {
            tmp[k++] = a[i++];
        }
        while (j < hi) {
            tmp[k++] = a[j++];
        }
        System.arraycopy(tmp, lo, a, lo, hi - lo);
        return swaps;
    }

    /**
     * Mean negative log-likelihood {@code -(1/N) sum logDensity_i}. A log density of {@code -Infinity} (y outside
     * the support) is allowed and gives {@code +Infinity}. Add {@code MinMaxScaler.logJacobian()} to convert an
     * NLL on the [0, 1]-scaled target into original units.
     *
     * @param logDensities {@code [N]}, N >= 1, no NaN, no +Infinity
     */
    public static double meanNll(double[] logDensities) {
        Checks.notNull("logDensities", logDensities);
        Checks.require(logDensities.length > 0, "logDensities must not be empty, got length 0");
        double s = 0;
        for (int i = 0; i < logDensities.length; i++) {
            double v = logDensities[i];
            Checks.require(v < Double.POSITIVE_INFINITY,
                    "logDensities must be < +Infinity and not NaN, got %s at index %d", v, i);
            s += v;
        }
        return -s / logDensities.length;
    }

    /**
     * CRPS of the empirical distribution of {@code samples} at the observation {@code y}, in the energy form
     * <pre>
     *   CRPS = E|X - y| - 0.5 E|X - X'| = (1/n) sum_i |x_i - y| - (1/n^2) sum_{i} (2i - n - 1) x_(i)
     * </pre>
     * with x_(1) &lt;= ... &lt;= x_(n) the sorted samples (i 1-based), i.e. the V-statistic over all n^2 pairs, which
     * equals the integral {@code int (F_n(t) - 1[t >= y])^2 dt} of the empirical CDF F_n exactly (as {@code
     * properscoring.crps_ensemble}). O(n log n). Example: samples (0, 1), y = 0: E|X - y| = 0.5, E|X - X'| = 0.5,
     * CRPS = 0.25. For many samples of N(0, 1) at y = 0 it tends to {@code 2 phi(0) - 1/sqrt(pi) = 0.233695}.
     *
     * @param samples {@code [n]}, n >= 1, finite (not modified)
     * @param y       finite
     */
    public static double crps(double[] samples, double y) {
        Checks.allFinite("samples", samples);
        Checks.require(samples.length > 0, "samples must not be empty, got length 0");
        Checks.finite("y", y);
        double[] s = samples.clone();
        Arrays.sort(s);
        return crpsSorted(s, y);
    }

    private static double crpsSorted(double[] s, double y) {
        int n = s.length;
        double absErr = 0;
        double spread = 0;
        for (int i = 0; i < n; i++) {
            double d = s[i] - y; // shifting by y changes nothing (the weights 2i - n - 1 sum to 0) but limits cancellation
            absErr += Math.abs(d);
            spread += (2.0 * (i + 1) - n - 1) * d;
        }
        return absErr / n - spread / ((double) n * n);
    }

    /**
     * Mean CRPS over B examples from a sample matrix laid out as {@code PredictiveDistribution.sample}: {@code
     * samples[k][b]} is the k-th sample of row b.
     *
     * @param samples {@code [n][B]}, n >= 1, finite
     * @param y       {@code [B]}, finite
     */
    public static double meanCrps(double[][] samples, double[] y) {
        Checks.notNull("samples", samples);
        Checks.allFinite("y", y);
        Checks.require(samples.length > 0, "samples must have at least one draw, got 0");
        Checks.require(y.length > 0, "y must not be empty, got length 0");
        int n = samples.length;
        int b = y.length;
        double[] column = new double[n];
        double total = 0;
        for (int row = 0; row < b; row++) {
            for (int k = 0; k < n; k++) {
                Checks.require(samples[k] != null && samples[k].length == b,
                        "samples must have shape [%d][%d], draw %d has length %s", n, b, k,
                        samples[k] == null ? "null" : samples[k].length);
                double v = samples[k][row];
                Checks.require(Double.isFinite(v), "samples must be finite, got %s at [%d][%d]", v, k, row);
                column[k] = v;
            }
            Arrays.sort(column);
            total += crpsSorted(column, y[row]);
        }
        return total / b;
    }

    static void checkPair(String nameA, double[] a, String nameB, double[] b) {
        Checks.allFinite(nameA, a);
        Checks.allFinite(nameB, b);
        Checks.require(a.length > 0, "%s must not be empty, got length 0", nameA);
        Checks.require(a.length == b.length, "%s must have the length of %s (%d), got %d", nameB, nameA, a.length,
                b.length);
    }
}
