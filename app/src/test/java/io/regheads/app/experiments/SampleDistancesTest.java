package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class SampleDistancesTest {

    /**
     * By hand: {0, 1} vs {0.5, 1.5}: F_a - F_b is 0.5 on [0, 0.5), 0 on [0.5, 1), 0.5 on [1, 1.5); W1 = 0.25 + 0.25,
     * KS = 0.5, energy = 2 (0.25 x 0.5 + 0.25 x 0.5) = 0.5 (also 2 E|X - Y| - E|X - X'| - E|Y - Y'| = 1.5 - 0.5 - 0.5).
     */
    @Test
    void smallSamplesByHand() {
        double[] a = {1, 0};
        double[] b = {0.5, 1.5};
        assertEquals(0.5, SampleDistances.wasserstein1(a, b), 1e-15);
        assertEquals(0.5, SampleDistances.kolmogorovSmirnov(a, b), 1e-15);
        assertEquals(0.5, SampleDistances.energy(a, b), 1e-15);
        assertEquals(1.0, a[0]); // inputs untouched
    }

    /** Unequal sizes with ties: {0, 0, 1} vs {0, 2}: F_a - F_b = 2/3 - 1/2 on [0, 1), 1 - 1/2 on [1, 2). */
    @Test
    void unequalSizesWithTies() {
        double[] a = {0, 0, 1};
        double[] b = {2, 0};
        assertEquals(1.0 / 6 + 0.5, SampleDistances.wasserstein1(a, b), 1e-15);
        assertEquals(0.5, SampleDistances.kolmogorovSmirnov(a, b), 1e-15);
        assertEquals(2 * (1.0 / 36 + 0.25), SampleDistances.energy(a, b), 1e-15);
    }

    /** Naive references on random samples: W1 for equal sizes = mean |sorted a - sorted b|; energy by its pairs. */
    @Test
    void agreesWithNaiveFormulas() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(5);
        double[] a = new double[40];
        double[] b = new double[40];
        double[] c = new double[25];
        for (int i = 0; i < a.length; i++) {
            a[i] = rng.nextDouble();
            b[i] = 0.3 + 2 * rng.nextDouble();
        }
        for (int i = 0; i < c.length; i++) {
            c[i] = rng.nextDouble() * 3 - 1;
        }
        double[] sa = a.clone();
        double[] sb = b.clone();
        java.util.Arrays.sort(sa);
        java.util.Arrays.sort(sb);
        double w = 0;
        for (int i = 0; i < sa.length; i++) {
            w += Math.abs(sa[i] - sb[i]) / sa.length;
        }
        assertEquals(w, SampleDistances.wasserstein1(a, b), 1e-12);
        assertEquals(naiveEnergy(a, c), SampleDistances.energy(a, c), 1e-12);
        double ks = 0;
        for (double t : concat(a, c)) {
            ks = Math.max(ks, Math.abs(cdf(a, t) - cdf(c, t)));
        }
        assertEquals(ks, SampleDistances.kolmogorovSmirnov(a, c), 1e-15);
        assertEquals(0, SampleDistances.wasserstein1(a, a.clone()));
        assertEquals(SampleDistances.wasserstein1(a, c), SampleDistances.wasserstein1(c, a), 1e-12);
    }

    @Test
    void rejectsEmptyAndNonFinite() {
        assertThrows(IllegalArgumentException.class, () -> SampleDistances.wasserstein1(new double[0], new double[] {1}));
        assertThrows(IllegalArgumentException.class,
                () -> SampleDistances.kolmogorovSmirnov(new double[] {Double.NaN}, new double[] {1}));
    }

    private static double naiveEnergy(double[] x, double[] y) {
        return 2 * meanAbs(x, y) - meanAbs(x, x) - meanAbs(y, y);
    }

    private static double meanAbs(double[] x, double[] y) {
        double s = 0;
        for (double u : x) {
            for (double v : y) {
                s += Math.abs(u - v);
            }
        }
        return s / (x.length * (double) y.length);
    }

    private static double cdf(double[] v, double t) {
        int n = 0;
        for (double e : v) {
            n += e <= t ? 1 : 0;
        }
        return (double) n / v.length;
    }

    private static double[] concat(double[] a, double[] b) {
        double[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
