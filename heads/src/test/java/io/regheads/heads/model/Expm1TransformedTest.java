package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.Expm1Transformed;
import io.regheads.core.testing.DistributionContract;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.mixture.MixtureDistribution;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Expm1Transformed (the LOG target transform's map back to y) against closed forms: over a Gaussian base, Y - shift +
 * 1 is log-normal; over a one-bin histogram, Z is uniform. And the shared distribution contract over a Gaussian, a
 * mixture and histograms with and without tails.
 */
class Expm1TransformedTest {

    /** Standard normal cdf, Phi(z) = erfc(-z / sqrt 2) / 2. */
    private static double phi(double z) {
        return 0.5 * org.apache.commons.numbers.gamma.Erfc.value(-z / Math.sqrt(2));
    }

    @Test
    void overAGaussianBaseItIsTheShiftedLogNormal() {
        double mu = 1.2;
        double sigma = 0.4;
        double shift = -3;
        Expm1Transformed d = new Expm1Transformed(MixtureDistribution.gaussian(new double[] {mu}, new double[] {sigma}),
                shift);
        // Y = shift + expm1(Z) = -4 + exp(Z), exp(Z) log-normal(1.2, 0.4)
        double y = 0.5; // exp(Z) = 4.5
        double z = Math.log(4.5);
        assertEquals(phi((z - mu) / sigma), d.cumulativeProbability(new double[] {y})[0], 1e-12);
        double logPdf = -Math.log(4.5 * sigma * Math.sqrt(2 * Math.PI)) - (z - mu) * (z - mu) / (2 * sigma * sigma);
        assertEquals(logPdf, d.logDensity(new double[] {y})[0], 1e-12);
        assertEquals(-4 + Math.exp(mu), d.median()[0], 1e-12);
        assertEquals(-4 + Math.exp(mu + 1.6448536269514722 * sigma), d.inverseCumulativeProbability(0.95)[0], 1e-8);
        // mean exp(mu + sigma^2 / 2), variance (exp(sigma^2) - 1) exp(2 mu + sigma^2), mode exp(mu - sigma^2)
        assertEquals(-4 + Math.exp(mu + sigma * sigma / 2), d.mean()[0], 1e-5);
        assertEquals((Math.exp(sigma * sigma) - 1) * Math.exp(2 * mu + sigma * sigma), d.variance()[0], 1e-4);
        assertEquals(-4 + Math.exp(mu - sigma * sigma), d.mode()[0], 1e-7);
        assertEquals(-4, d.supportLowerBound()[0], 0);
        assertEquals(Double.POSITIVE_INFINITY, d.supportUpperBound()[0]);
        // at and below shift - 1 there is no mass
        assertEquals(0, d.cumulativeProbability(new double[] {-4})[0], 0);
        assertEquals(Double.NEGATIVE_INFINITY, d.logDensity(new double[] {-7})[0]);
    }

    @Test
    void overAUniformBaseItMatchesTheHandValues() {
        // Z uniform on [0, log 101] (one histogram bin), shift 0: the class description's example
        double top = Math.log(101);
        Expm1Transformed d = new Expm1Transformed(
                new HistogramDistribution(new double[] {0, top}, new double[][] {{1}}, false), 0);
        assertEquals(Math.log(10) / top, d.cumulativeProbability(new double[] {9})[0], 1e-14); // 0.49892
        assertEquals(0.4989220, d.cumulativeProbability(new double[] {9})[0], 1e-7);
        assertEquals(Math.expm1(top / 2), d.median()[0], 1e-12); // 9.0499
        assertEquals(1 / (top * 10), Math.exp(d.logDensity(new double[] {9})[0]), 1e-14); // 0.021668
        assertEquals(100 / top - 1, d.mean()[0], 1e-4); // 20.667
        // E[Y^2] = E[(e^Z - 1)^2] = (101^2 - 1) / (2 log 101) - 2 * 100 / log 101 + 1
        double m2 = (101.0 * 101 - 1) / (2 * top) - 2 * 100 / top + 1;
        assertEquals(m2 - Math.pow(100 / top - 1, 2), d.variance()[0], 1e-2);
        assertEquals(0, d.mode()[0], 1e-9); // density 1 / (log 101 (1 + y)): highest at the bottom of the support
        assertEquals(100, d.supportUpperBound()[0], 1e-12);
    }

    @Test
    void meetsTheDistributionContract() {
        DistributionContract.verify(new Expm1Transformed(MixtureDistribution.gaussian(new double[] {0.5, 2, -1},
                new double[] {0.3, 0.05, 1}), 7), 100_000, 1);
        DistributionContract.verify(new Expm1Transformed(new MixtureDistribution(new double[][] {{0.3, 0.7}},
                new double[][] {{0, 1.5}}, new double[][] {{0.2, 0.4}}), -2), 100_000, 2);
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
        // as the model builds it: the head's y01 distribution, affinely mapped to log units (range 3), then expm1
        DistributionContract.verify(new Expm1Transformed(new AffineTransformed(
                new HistogramDistribution(borders, p, false), 3, 0), 10), 100_000, 3);
        DistributionContract.verify(new Expm1Transformed(new AffineTransformed(
                new HistogramDistribution(borders, p, true), 3, 0), 10), 100_000, 4);
    }

    @Test
    void refusesBadArguments() {
        MixtureDistribution g = MixtureDistribution.gaussian(new double[] {0}, new double[] {1});
        assertEquals("shift must be finite, got NaN", assertThrows(IllegalArgumentException.class,
                () -> new Expm1Transformed(g, Double.NaN)).getMessage());
        assertEquals("y must have length B = 1, got 2", assertThrows(IllegalArgumentException.class,
                () -> new Expm1Transformed(g, 0).logDensity(new double[2])).getMessage());
        assertEquals("y must not be NaN, got NaN at index 0", assertThrows(IllegalArgumentException.class,
                () -> new Expm1Transformed(g, 0).cumulativeProbability(new double[] {Double.NaN})).getMessage());
    }
}
