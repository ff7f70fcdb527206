package io.regheads.heads.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.testing.DistributionContract;
import java.util.Random;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class HistogramDistributionTest {

    @Test
    void javadocExampleByHand() {
        HistogramDistribution d = new HistogramDistribution(new double[] {0, 0.5, 1}, new double[][] {{0.25, 0.75}}, false);
        assertEquals(Math.log(0.5), d.logDensity(new double[] {0.2})[0], 1e-15);
        assertEquals(Math.log(1.5), d.logDensity(new double[] {1.0})[0], 1e-15); // b_n belongs to the last bin
        assertEquals(Double.NEGATIVE_INFINITY, d.logDensity(new double[] {1.0000001})[0]);
        assertEquals(0.625, d.cumulativeProbability(new double[] {0.75})[0], 1e-15);
        assertEquals(0.5 + 0.5 * 0.25 / 0.75, d.median()[0], 1e-15);
        assertEquals(0.625, d.mean()[0], 1e-15);
        // E[y^2] = 0.25 * (0 + 0.25 + 0)/3 + 0.75 * (0.25 + 1 + 0.5)/3 = 0.458333..; minus 0.625^2
        assertEquals(0.25 * 0.25 / 3 + 0.75 * 1.75 / 3 - 0.625 * 0.625, d.variance()[0], 1e-15);
        assertEquals(0.75, d.mode()[0], 1e-15);
    }

    @Test
    void modeIsHighestDensityNotHighestProbability() {
        // bin [0, 0.9) holds 0.6 (density 0.667); bin [0.9, 1] holds 0.4 (density 4)
        HistogramDistribution d = new HistogramDistribution(new double[] {0, 0.9, 1}, new double[][] {{0.6, 0.4}}, false);
        assertEquals(0.95, d.mode()[0], 1e-15);
    }

    @Test
    void tailsAreUsedInCdfQuantileAndSampling() {
        // TabPFN issue #1200: borders [-2,-1,1,2], probs [.25,.5,.25]: with half-normal tails a quarter of the mass
        // lies outside [-2, 2] (half of each tail lies within one bin width by the choice of scale)
        HistogramDistribution d = new HistogramDistribution(new double[] {-2, -1, 1, 2}, new double[][] {{0.25, 0.5, 0.25}}, true);
        assertEquals(0.125, d.cumulativeProbability(new double[] {-2})[0], 1e-12);
        assertEquals(0.875, d.cumulativeProbability(new double[] {2})[0], 1e-12);
        assertEquals(-2, d.inverseCumulativeProbability(0.125)[0], 1e-9);
        assertEquals(2, d.inverseCumulativeProbability(0.875)[0], 1e-9);
        double[][] s = d.sample(RandomSource.SPLIT_MIX_64.create(3), 20_000);
        int outside = 0;
        for (double[] row : s) {
            if (Math.abs(row[0]) > 2) {
                outside++;
            }
        }
        // binomial(20000, 0.25): sd = 61; 4 sd
        assertEquals(5000, outside, 245);
        // mean of the left tail: b_1 - s sqrt(2/pi), s = 1/Phi^-1(0.75); symmetric here, so the mean is 0
        assertEquals(0.0, d.mean()[0], 1e-12);
        double s0 = 1 / 0.6744897501960817;
        double tailSecond = s0 * s0 * (1 - 2 / Math.PI) + Math.pow(1 + s0 * Math.sqrt(2 / Math.PI), 2);
        assertEquals(0.5 * tailSecond + 0.5 * (4.0 / 12), d.variance()[0], 1e-12);
    }

    @Test
    void emptyBinsAreSkippedByQuantiles() {
        HistogramDistribution d = new HistogramDistribution(
                HistogramDistribution.equalBorders(4, 0, 1), new double[][] {{0.5, 0, 0, 0.5}}, false);
        assertEquals(0.25, d.inverseCumulativeProbability(0.5)[0], 1e-15); // smallest y with cdf >= 0.5
        assertEquals(0.75 + 0.125, d.inverseCumulativeProbability(0.75)[0], 1e-15);
        assertEquals(0.0, d.inverseCumulativeProbability(0)[0]);
    }

    @Test
    void satisfiesTheDistributionContractWithAndWithoutTails() {
        Random r = new Random(5);
        int n = 16;
        double[][] p = new double[2][n];
        for (double[] row : p) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                row[i] = Math.exp(r.nextGaussian());
                s += row[i];
            }
            for (int i = 0; i < n; i++) {
                row[i] /= s;
            }
        }
        double[] borders = HistogramDistribution.equalBorders(n, 0, 1);
        DistributionContract.verify(new HistogramDistribution(borders, p, false), 100_000, 1);
        DistributionContract.verify(new HistogramDistribution(borders, p, true), 100_000, 2);
        double[] uneven = {-1, -0.5, 0, 0.1, 0.3, 0.35, 0.5, 0.6, 0.7, 1, 1.2, 2, 2.5, 3, 3.1, 4, 6};
        DistributionContract.verify(new HistogramDistribution(uneven, p, true), 100_000, 3);
    }

    @Test
    void rejectsBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HistogramDistribution(new double[] {0, 0.5, 0.5, 1}, new double[][] {{0.2, 0.3, 0.5}}, false));
        assertEquals("borders must be strictly increasing, got 0.5 then 0.5 at index 2", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new HistogramDistribution(new double[] {0, 1}, new double[][] {{1}}, true));
        assertThrows(IllegalArgumentException.class,
                () -> new HistogramDistribution(new double[] {0, 1, 2}, new double[][] {{0.7, 0.7}}, false));
    }
}
