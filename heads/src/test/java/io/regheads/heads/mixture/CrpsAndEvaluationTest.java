package io.regheads.heads.mixture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.metrics.Evaluation;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

/**
 * The CRPS of predictive distributions (exact for Gaussian mixtures and their affine maps, a quantile grid by
 * default) against numerical integration of its definition, and {@link Evaluation} against hand computation.
 */
class CrpsAndEvaluationTest {

    /**
     * {@code int (F(z) - 1{z >= y})^2 dz} as {@code int_lo^y F^2 + int_y^hi (1 - F)^2}, each by the trapezoid rule on
     * 200 000 steps (the integrand jumps at y, so the grid ends there: error O(h^2) on smooth pieces).
     */
    private static double integrated(PredictiveDistribution d, int row, double y, double lo, double hi) {
        return piece(d, row, lo, y, false) + piece(d, row, y, hi, true);
    }

    private static double piece(PredictiveDistribution d, int row, double a, double b, boolean above) {
        int n = 200_000;
        double h = (b - a) / n;
        double[] z = new double[d.batchSize()];
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            java.util.Arrays.fill(z, a + i * h);
            double f = d.cumulativeProbability(z)[row] - (above ? 1 : 0);
            sum += (i == 0 || i == n ? 0.5 : 1) * f * f;
        }
        return sum * h;
    }

    /** The same distribution without its closed form: the interface's default quantile grid. */
    private static PredictiveDistribution gridOnly(PredictiveDistribution d) {
        return new PredictiveDistribution() {
            public int batchSize() {
                return d.batchSize();
            }

            public double[] logDensity(double[] y) {
                return d.logDensity(y);
            }

            public double[] cumulativeProbability(double[] y) {
                return d.cumulativeProbability(y);
            }

            public double[] inverseCumulativeProbability(double p) {
                return d.inverseCumulativeProbability(p);
            }

            public double[] mean() {
                return d.mean();
            }

            public double[] variance() {
                return d.variance();
            }

            public double[] mode() {
                return d.mode();
            }

            public double[][] sample(UniformRandomProvider rng, int n) {
                return d.sample(rng, n);
            }

            public double[] supportLowerBound() {
                return d.supportLowerBound();
            }

            public double[] supportUpperBound() {
                return d.supportUpperBound();
            }
        };
    }

    @Test
    void mixtureCrpsIsTheIntegralOfItsDefinition() {
        // rows of 1, 2 and 3 components (padded to three with zero weight)
        MixtureDistribution d = new MixtureDistribution(new double[][] {{1, 0, 0}, {0.3, 0.7, 0}, {0.5, 0.2, 0.3}},
                new double[][] {{0, 0, 0}, {-1, 2, 0}, {0, 0.1, 5}}, new double[][] {{1, 1, 1}, {0.5, 1.5, 1},
                    {2, 0.05, 1}});
        double[] y = {0, 3.2, -0.7};
        double[] exact = d.crps(y);
        // the textbook value: N(0, 1) at 0 is 2 phi(0) - 1/sqrt(pi)
        assertEquals(2 / Math.sqrt(2 * Math.PI) - 1 / Math.sqrt(Math.PI), exact[0], 1e-15);
        for (int r = 0; r < 3; r++) {
            // trapezoid error on a 1e-4 step of a smooth integrand: far below 1e-7
            assertEquals(integrated(d, r, y[r], -60, 60), exact[r], 1e-7, "row " + r);
        }
        // the default grid agrees within its stated error (3e-4 relative for a normal; a few 1e-3 for mixtures)
        double[] grid = gridOnly(d).crps(y);
        for (int r = 0; r < 3; r++) {
            assertEquals(exact[r], grid[r], 5e-3 * exact[r], "grid row " + r);
        }
        // the grid by Python's statistics.NormalDist with the same midpoint rule (K = 100): N(0, 1) at 0 gives
        // 0.23376265073242286 (the figure the Javadoc states), N(1, 2^2) at 0.3 gives 0.564229659939641
        double[] g = gridOnly(MixtureDistribution.gaussian(new double[] {0, 1}, new double[] {1, 2}))
                .crps(new double[] {0, 0.3});
        assertEquals(0.23376265073242286, g[0], 1e-9);
        assertEquals(0.564229659939641, g[1], 1e-9);
    }

    @Test
    void anAffineMapScalesTheCrps() {
        MixtureDistribution base = new MixtureDistribution(new double[][] {{0.4, 0.6}, {1, 0}},
                new double[][] {{0, 1}, {0.3, 0}}, new double[][] {{0.2, 0.3}, {0.1, 1}});
        AffineTransformed d = new AffineTransformed(base, 250.0, 1000.0);
        double[] y = {900, 1010};
        double[] c = d.crps(y);
        for (int r = 0; r < 2; r++) {
            assertEquals(integrated(d, r, y[r], 600, 1800), c[r], 1e-5 * c[r] + 1e-9, "row " + r);
        }
        assertThrows(IllegalArgumentException.class, () -> d.crps(new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> d.crps(new double[] {1, Double.NaN}));
    }

    /**
     * Two N(mu, 1) rows: coverage and width of the central 90% interval are known in closed form (width 2 z_0.95 =
     * 3.2897), the point errors by hand, and the PIT values Phi(y - mu) fall in known bins.
     */
    @Test
    void evaluationScoresByHand() {
        MixtureDistribution d = MixtureDistribution.gaussian(new double[] {0, 10}, new double[] {1, 1});
        double[] y = {0.5, 12}; // inside, outside the 90% interval [mu - 1.645, mu + 1.645]
        double[] point = {0, 11};
        Evaluation e = Evaluation.of(d, point, y, 0.9, 0.5);
        assertEquals(2, e.rows());
        double nll = 0.5 * Math.log(2 * Math.PI) + 0.5 * (0.25 + 4) / 2;
        assertEquals(nll, e.nll(), 1e-12);
        assertEquals((d.crps(y)[0] + d.crps(y)[1]) / 2, e.crps(), 1e-15);
        assertEquals(Math.sqrt((0.25 + 1) / 2.0), e.rmse(), 1e-15);
        assertEquals(0.75, e.mae(), 1e-15);
        assertEquals(0.5, e.coverageAt(0.9), 0.0);
        assertEquals(2 * 1.6448536269514722, e.meanWidthAt(0.9), 1e-9);
        assertEquals(0.5, e.coverageAt(0.5), 0.0); // 0.5 is inside [-0.674, 0.674]
        assertEquals(2 * 0.6744897501960817, e.meanWidthAt(0.5), 1e-9);
        // PIT: Phi(0.5) = 0.691 -> bin 6; Phi(2) = 0.977 -> bin 9
        int[] pit = new int[10];
        pit[6] = 1;
        pit[9] = 1;
        assertArrayEquals(pit, e.pitCounts());
        assertArrayEquals(Evaluation.DEFAULT_LEVELS, Evaluation.of(d, point, y).levels(), 0.0);
        assertThrows(IllegalArgumentException.class, () -> Evaluation.of(d, point, y, 1.0));
        assertThrows(IllegalArgumentException.class, () -> e.coverageAt(0.8));
    }
}
