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

    /** A correct distribution whose batch quantiles are off by one ulp. */
    private static final class OffByOneUlpQuantiles implements PredictiveDistribution {
        private final Uniform u = new Uniform(2, 1, 0, 0);
        @Override public int batchSize() { return u.batchSize(); }
        @Override public double[] logDensity(double[] y) { return u.logDensity(y); }
        @Override public double[] cumulativeProbability(double[] y) { return u.cumulativeProbability(y); }
        @Override public double[] inverseCumulativeProbability(double p) { return u.inverseCumulativeProbability(p); }
        @Override public double[] mean() { return u.mean(); }
        @Override public double[] variance() { return u.variance(); }
        @Override public double[] mode() { return u.mode(); }
        @Override public double[][] sample(UniformRandomProvider rng, int n) { return u.sample(rng, n); }
        @Override public double[] supportLowerBound() { return u.supportLowerBound(); }
        @Override public double[] supportUpperBound() { return u.supportUpperBound(); }
        @Override public double[][] quantiles(double... levels) {
            double[][] q = PredictiveDistribution.super.quantiles(levels);
            q[q.length - 1][0] = Math.nextUp(q[q.length - 1][0]);
            return q;
        }
    }

    @Test
    void catchesBatchQueriesThatDisagreeWithTheSingleValueMethods() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> DistributionContract.batchQueriesAgree(new OffByOneUlpQuantiles(), new double[][] {{0.5, 0.5}}));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().startsWith("quantiles level 1.0, row 0"), e.getMessage());
    }

    @Test
    void catchesSamplesFromAnotherLaw() {
        assertThrows(AssertionError.class, () -> DistributionContract.verify(new Uniform(1, 1, 0, 0.02), 100_000, 1));
    }
}
