package io.regheads.core.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Optional;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

class PredictionCheckTest {

    /** B rows of N(mu_b, sigma^2) (test-only; only the quantiles matter here). */
    private record Normals(double[] mu, double sigma) implements PredictiveDistribution {
        @Override
        public int batchSize() {
            return mu.length;
        }

        @Override
        public double[] inverseCumulativeProbability(double p) {
            double z = NormalDistribution.of(0, 1).inverseCumulativeProbability(p);
            return Arrays.stream(mu).map(m -> m + sigma * z).toArray();
        }

        @Override
        public double[] logDensity(double[] y) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[] cumulativeProbability(double[] y) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[] mean() {
            return mu.clone();
        }

        @Override
        public double[] variance() {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[] mode() {
            return mu.clone();
        }

        @Override
        public double[][] sample(UniformRandomProvider rng, int n) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[] supportLowerBound() {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[] supportUpperBound() {
            throw new UnsupportedOperationException();
        }
    }

    private static double[] ramp(int n) {
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = (double) i / (n - 1);
        }
        return y;
    }

    @Test
    void theSameDistributionForEveryRowIsACollapse() {
        double[] y = {0.1, 0.9};
        Optional<String> c = PredictionCheck.collapsed(new Normals(new double[] {0.3, 0.3}, 0.01), y);
        // q01, q50, q99 of N(0.3, 0.01^2): 0.3 -+ 2.326 * 0.01
        assertEquals(Optional.of("every one of the 2 rows gets the same predictive distribution (median 0.3000, 98% "
                + "interval [0.2767, 0.3233]) although the targets range over [0.1000, 0.9000]: the prediction no longer "
                + "depends on x"), c);
    }

    @Test
    void healthyAndUninformativeTargetsPass() {
        double[] y = ramp(50);
        assertEquals(Optional.empty(), PredictionCheck.collapsed(new Normals(y.clone(), 0.05), y));
        // every row the same but the targets too: nothing to tell apart
        double[] same = new double[30];
        assertEquals(Optional.empty(), PredictionCheck.collapsed(new Normals(new double[30], 1e-6), same));
        // an untrained model: wide, nearly but not exactly the same for every row
        double[] mu = new double[50];
        for (int i = 0; i < 50; i++) {
            mu[i] = 0.5 + 1e-6 * i;
        }
        assertEquals(Optional.empty(), PredictionCheck.collapsed(new Normals(mu, 1.0), y));
    }

    @Test
    void intervalsThatMissNearlyEveryTargetAreACollapse() {
        double[] y = ramp(40);
        double[] mu = new double[40];
        for (int i = 0; i < 40; i++) {
            mu[i] = y[i] + 0.2 + 1e-3 * i; // narrow and off: no target inside its interval
        }
        Optional<String> c = PredictionCheck.collapsed(new Normals(mu, 1e-3), y);
        assertEquals(Optional.of("only 0 of 40 targets lie inside their central 98% predictive intervals (a usable model "
                + "holds most): the predictive distributions have collapsed away from the data"), c);
        // fewer than 20 rows: no coverage verdict
        assertTrue(PredictionCheck.collapsed(new Normals(Arrays.copyOf(mu, 19), 1e-3), Arrays.copyOf(y, 19)).isEmpty());
    }

    @Test
    void refusesBadArguments() {
        Normals d = new Normals(new double[] {0, 1}, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PredictionCheck.collapsed(d, new double[] {0}));
        assertEquals("y must have length B = 2, got 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> PredictionCheck.collapsed(d, new double[] {0, Double.POSITIVE_INFINITY}));
        assertEquals("y must be finite everywhere, got Infinity at index 1", e.getMessage());
    }
}
