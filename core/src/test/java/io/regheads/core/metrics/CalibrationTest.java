package io.regheads.core.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.dist.PredictiveDistribution;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

class CalibrationTest {

    /** B rows of N(mu_b, 1), via commons-statistics: test-only distribution. */
    private record Normals(double[] mu) implements PredictiveDistribution {
        private static final NormalDistribution STD = NormalDistribution.of(0, 1);

        @Override
        public int batchSize() {
            return mu.length;
        }

        @Override
        public double[] logDensity(double[] y) {
            double[] out = new double[mu.length];
            for (int b = 0; b < mu.length; b++) {
                out[b] = STD.logDensity(y[b] - mu[b]);
            }
            return out;
        }

        @Override
        public double[] cumulativeProbability(double[] y) {
            double[] out = new double[mu.length];
            for (int b = 0; b < mu.length; b++) {
                out[b] = STD.cumulativeProbability(y[b] - mu[b]);
            }
            return out;
        }

        @Override
        public double[] inverseCumulativeProbability(double p) {
            double[] out = new double[mu.length];
            for (int b = 0; b < mu.length; b++) {
                out[b] = mu[b] + STD.inverseCumulativeProbability(p);
            }
            return out;
        }

        @Override
        public double[] mean() {
            return mu.clone();
        }

        @Override
        public double[] variance() {
            return new double[mu.length];
        }

        @Override
        public double[] mode() {
            return mu.clone();
        }

        @Override
        public double[][] sample(UniformRandomProvider rng, int n) {
            throw new UnsupportedOperationException("not needed here");
        }

        @Override
        public double[] supportLowerBound() {
            return new double[mu.length];
        }

        @Override
        public double[] supportUpperBound() {
            return new double[mu.length];
        }
    }

    @Test
    void coverageByHand() {
        assertEquals(0.5, Calibration.coverage(new double[] {0, 0}, new double[] {1, 1}, new double[] {1, 1.5}), 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Calibration.coverage(new double[] {2}, new double[] {1}, new double[] {1}));
        assertEquals("interval 0 must have lower <= upper, got [2.0, 1.0]", e.getMessage());
    }

    @Test
    void centralIntervalCoverageOfNormals() {
        // 90% central interval of N(mu, 1) is mu +- 1.6449 (z_0.95 = 1.644854, standard tables)
        Normals d = new Normals(new double[] {0, 1, 2, 3});
        double[] y = {1.6, 1 + 1.7, 2 - 1.64, 3 - 1.65};
        assertEquals(0.5, Calibration.centralIntervalCoverage(d, y, 0.9), 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Calibration.centralIntervalCoverage(d, y, 1.0));
        assertEquals("level must be in (0, 1), got 1.0", e.getMessage());
    }

    @Test
    void pitAndHistogram() {
        Normals d = new Normals(new double[] {0, 10});
        assertArrayEquals(new double[] {0.5, 0.8413447460685429}, Calibration.pit(d, new double[] {0, 11}), 1e-12);
        assertArrayEquals(new int[] {1, 2}, Calibration.pitHistogram(new double[] {0.1, 0.6, 1.0}, 2));
        assertArrayEquals(new int[] {1, 0, 1, 1}, Calibration.pitHistogram(new double[] {0.0, 0.5, 0.99}, 4));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Calibration.pitHistogram(new double[] {0.5, 1.2}, 4));
        assertEquals("pit must be in [0, 1], got 1.2 at index 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Calibration.pit(d, new double[] {0}));
        assertEquals("y must have length 2 (the batch size), got 1", e.getMessage());
    }
}
