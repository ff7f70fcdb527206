package io.regheads.core.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.PredictiveDistribution;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

/** The contract accepts a correct distribution and catches each kind of mistake. */
class DistributionContractTest {

    /** Uniform(0, 1) per row, with switches that break one part of the contract each. */
    private record Uniform(int rows, double densityFactor, double meanShift, double sampleShift) implements PredictiveDistribution {
        @Override public int batchSize() { return rows; }
        @Override public double[] logDensity(double[] y) {
            return Arrays.stream(y).map(v -> v >= 0 && v <= 1 ? Math.log(densityFactor) : Double.NEGATIVE_INFINITY).toArray();
        }
        @Override public double[] cumulativeProbability(double[] y) {
            return Arrays.stream(y).map(v -> Math.min(1, Math.max(0, v))).toArray();
        }
        @Override public double[] inverseCumulativeProbability(double p) { return fill(p); }
        @Override public double[] mean() { return fill(0.5 + meanShift); }
        @Override public double[] variance() { return fill(1.0 / 12); }
        @Override public double[] mode() { return fill(0.5); }
        @Override public double[][] sample(UniformRandomProvider rng, int n) {
            double[][] s = new double[n][rows];
            for (double[] row : s) {
                for (int b = 0; b < rows; b++) {
                    row[b] = Math.min(1, rng.nextDouble() + sampleShift);
                }
            }
            return s;
        }
        @Override public double[] supportLowerBound() { return fill(0); }
        @Override public double[] supportUpperBound() { return fill(1); }
        private double[] fill(double v) {
            double[] a = new double[rows];
            Arrays.fill(a, v);
            return a;
        }
    }

    @Test
    void acceptsACorrectDistributionAndItsAffineImage() {
        DistributionContract.verify(new Uniform(2, 1, 0, 0), 100_000, 1);
        DistributionContract.verify(new AffineTransformed(new Uniform(2, 1, 0, 0), 3.5, -2), 100_000, 1);
    }

    @Test
    void catchesADensityThatDoesNotIntegrateToOne() {
        assertThrows(AssertionError.class, () -> DistributionContract.verify(new Uniform(1, 2, 0, 0), 10_000, 1));
    }

    @Test
    void catchesAWrongMean() {
        assertThrows(AssertionError.class, () -> DistributionContract.verify(new Uniform(1, 1, 0.01, 0), 100_000, 1));
    }

    @Test
    void catchesSamplesFromAnotherLaw() {
        assertThrows(AssertionError.class, () -> DistributionContract.verify(new Uniform(1, 1, 0, 0.02), 100_000, 1));
    }
}
