package io.regheads.core.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MetricsTest {

    @Test
    void mseAndRelativeMseByHand() {
        // errors 1 and -2: mse (1 + 4)/2 = 2.5; y (0, 4) has population variance 4
        assertEquals(2.5, Metrics.mse(new double[] {1, 2}, new double[] {0, 4}), 0.0);
        assertEquals(0.625, Metrics.relativeMse(new double[] {1, 2}, new double[] {0, 4}), 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Metrics.relativeMse(new double[] {1, 2}, new double[] {3, 3}));
        assertEquals("y must not be constant for a relative MSE (variance must be > 0), got variance 0.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Metrics.mse(new double[] {1}, new double[] {1, 2}));
        assertEquals("y must have the length of predicted (1), got 2", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Metrics.mse(new double[] {Double.NaN}, new double[] {1}));
        assertEquals("predicted must be finite everywhere, got NaN at index 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Metrics.mse(new double[0], new double[0]));
        assertEquals("predicted must not be empty, got length 0", e.getMessage());
    }

    @Test
    void kendallTauHandExamples() {
        // one discordant pair of six: (5 - 1)/6
        assertEquals(4.0 / 6, Metrics.kendallTau(new double[] {1, 2, 3, 4}, new double[] {1, 3, 2, 4}), 1e-15);
        // ties: pairs (0,1) tied in x, (1,2) tied in y, 4 concordant: 4 / sqrt(5 * 5) = 0.8 (scipy gives 0.8 too)
        assertEquals(0.8, Metrics.kendallTau(new double[] {1, 1, 2, 3}, new double[] {1, 2, 2, 3}), 1e-15);
        assertEquals(-1.0, Metrics.kendallTau(new double[] {1, 2, 3}, new double[] {3, 2, 1}), 1e-15);
        // -0.0 and 0.0 are one value: pair (0,1) tied in x, two concordant pairs: 2 / sqrt(2 * 3)
        assertEquals(2 / Math.sqrt(6), Metrics.kendallTau(new double[] {-0.0, 0.0, 1}, new double[] {1, 2, 3}), 1e-15);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Metrics.kendallTau(new double[] {1, 2}, new double[] {5, 5}));
        assertEquals("y must not be constant for Kendall's tau, got all values 5.0", e.getMessage());
    }

    /** O(n^2) tau-b straight from the definition. */
    private static double naiveTauB(double[] x, double[] y) {
        long s = 0;
        long tx = 0;
        long ty = 0;
        long n0 = 0;
        for (int i = 0; i < x.length; i++) {
            for (int j = i + 1; j < x.length; j++) {
                n0++;
                int dx = Double.compare(x[i], x[j]);
                int dy = Double.compare(y[i], y[j]);
                s += (long) Integer.signum(dx) * Integer.signum(dy);
                if (dx == 0) {
                    tx++;
                }
                if (dy == 0) {
                    ty++;
                }
            }
        }
        return s / Math.sqrt((double) (n0 - tx) * (n0 - ty));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 7, 50, 1000})
    void kendallTauMatchesNaiveOnRandomDataWithTies(int n) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(11L + n);
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        for (int rep = 0; rep < 20; rep++) {
            double[] x = new double[n];
            double[] y = new double[n];
            int levels = 2 + rng.nextInt(6); // few levels -> many ties
            for (int i = 0; i < n; i++) {
                x[i] = rng.nextInt(levels);
                y[i] = rep % 2 == 0 ? rng.nextInt(levels) + 0.3 * x[i] : gauss.sample();
            }
            x[0] = 0; // never constant
            x[1] = levels;
            y[0] = -1;
            y[1] = 100;
            assertEquals(naiveTauB(x, y), Metrics.kendallTau(x, y), 1e-12, "n " + n + " rep " + rep);
        }
    }

    @Test
    void meanNll() {
        assertEquals(1.5, Metrics.meanNll(new double[] {-1, -2}), 0.0);
        assertEquals(Double.POSITIVE_INFINITY, Metrics.meanNll(new double[] {-1, Double.NEGATIVE_INFINITY}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Metrics.meanNll(new double[] {-1, Double.NaN}));
        assertEquals("logDensities must be < +Infinity and not NaN, got NaN at index 1", e.getMessage());
    }

    /** O(n^2) energy form. */
    private static double naiveCrps(double[] x, double y) {
        double a = 0;
        double b = 0;
        for (double xi : x) {
            a += Math.abs(xi - y);
            for (double xj : x) {
                b += Math.abs(xi - xj);
            }
        }
        int n = x.length;
        return a / n - 0.5 * b / ((double) n * n);
    }

    @Test
    void crpsHandExampleAndNaiveReference() {
        // samples (0, 1), y = 0: E|X - y| = 0.5, E|X - X'| = (0 + 1 + 1 + 0)/4 = 0.5 -> 0.5 - 0.25 = 0.25
        assertEquals(0.25, Metrics.crps(new double[] {1, 0}, 0), 1e-15);
        // one sample: CRPS = |x - y|
        assertEquals(2.5, Metrics.crps(new double[] {-1}, 1.5), 0.0);
        // far from the origin: samples 1e8 + (0, 1) at y = 1e8 is the same problem as the first example
        assertEquals(0.25, Metrics.crps(new double[] {1e8 + 1, 1e8}, 1e8), 1e-15);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(3L);
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        for (int rep = 0; rep < 30; rep++) {
            int n = 1 + rng.nextInt(200);
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = rng.nextInt(4) == 0 ? Math.floor(gauss.sample() * 2) : gauss.sample() * 3; // ties too
            }
            double y = gauss.sample() * 2;
            double[] copy = x.clone();
            assertEquals(naiveCrps(x, y), Metrics.crps(x, y), 1e-12, "rep " + rep);
            assertEquals(java.util.Arrays.toString(copy), java.util.Arrays.toString(x)); // input not sorted in place
        }
    }

    @Test
    void crpsOfStandardNormalAtZeroApproachesClosedForm() {
        // closed form for N(0,1) at y = 0: y(2 Phi(y) - 1) + 2 phi(y) - 1/sqrt(pi) = 2/sqrt(2 pi) - 1/sqrt(pi)
        double exact = 2 / Math.sqrt(2 * Math.PI) - 1 / Math.sqrt(Math.PI);
        assertEquals(0.233695, exact, 1e-6);
        // quantile-grid "samples": the empirical CRPS converges at O(1/n)
        NormalDistribution normal = NormalDistribution.of(0, 1);
        int n = 20000;
        double[] grid = new double[n];
        for (int i = 0; i < n; i++) {
            grid[i] = normal.inverseCumulativeProbability((i + 0.5) / n);
        }
        assertEquals(exact, Metrics.crps(grid, 0), 1e-4);
        // random samples: the standard error is about sd|X| / sqrt(n) = 0.6 / 141 = 0.0043; allow 4 of them
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(
                RandomSource.XO_RO_SHI_RO_128_PP.create(5L));
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = gauss.sample();
        }
        assertEquals(exact, Metrics.crps(s, 0), 0.017);
    }

    @Test
    void meanCrpsOverRowsUsesSampleLayout() {
        // samples[k][b]: row 0 draws (0, 1), row 1 draws (5, 5)
        double[][] samples = {{0, 5}, {1, 5}};
        // row 0 at y = 0: 0.25 (hand example above); row 1 at y = 4: |5 - 4| - 0 = 1
        assertEquals((0.25 + 1) / 2, Metrics.meanCrps(samples, new double[] {0, 4}), 1e-15);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Metrics.meanCrps(new double[][] {{0, 1}, {1}}, new double[] {0, 4}));
        assertEquals("samples must have shape [2][2], draw 1 has length 1", e.getMessage());
    }
}
