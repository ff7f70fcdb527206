package io.regheads.heads.mixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.testing.DistributionContract;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MixtureDistributionTest {

    // golden values: Python's math.erfc / math.exp (Phi(z) = erfc(-z/sqrt 2)/2), see each comment
    @Test
    void singleGaussianMatchesTheNormalLaw() {
        MixtureDistribution d = MixtureDistribution.gaussian(new double[] {0, 2}, new double[] {1, 3});
        double[] cdf = d.cumulativeProbability(new double[] {1, 5});
        assertEquals(0.8413447460685429, cdf[0], 1e-15); // Phi(1)
        assertEquals(0.8413447460685429, cdf[1], 1e-15); // Phi((5-2)/3)
        double[] q = d.inverseCumulativeProbability(0.975);
        assertEquals(1.959963984540054, q[0], 1e-12);
        assertEquals(2 + 3 * 1.959963984540054, q[1], 1e-11);
        assertEquals(Math.log(0.3989422804014327), d.logDensity(new double[] {0, 2})[0], 1e-15);
        assertEquals(9.0, d.variance()[1], 1e-12);
        assertEquals(2.0, d.mode()[1], 1e-12);
    }

    @Test
    void logDensityStaysFiniteFarInTheTail() {
        MixtureDistribution d = MixtureDistribution.gaussian(new double[] {0}, new double[] {1});
        assertEquals(-800.9189385332047, d.logDensity(new double[] {40})[0], 1e-9); // -40^2/2 - log sqrt(2 pi)
    }

    @Test
    void twoComponentValuesAgreeWithHandComputation() {
        MixtureDistribution d = new MixtureDistribution(
                new double[][] {{0.3, 0.7}, {0.5, 0.5}},
                new double[][] {{0, 5}, {-1, 1}},
                new double[][] {{1, 0.5}, {1, 1}});
        double[] cdf = d.cumulativeProbability(new double[] {2.5, 0});
        assertEquals(0.29813730105836744, cdf[0], 1e-15); // 0.3 Phi(2.5) + 0.7 Phi(-5)
        assertEquals(0.5, cdf[1], 1e-15);
        double[] logp = d.logDensity(new double[] {2.5, 0});
        assertEquals(-5.247515597414909, logp[0], 1e-12); // log(0.3 phi(2.5) + 0.7 phi(-5)/0.5)
        assertEquals(Math.log(0.24197072451914337), logp[1], 1e-14); // phi(1)
        assertEquals(3.5, d.mean()[0], 1e-14);
        assertEquals(0.3 * (1 + 12.25) + 0.7 * (0.25 + 2.25), d.variance()[0], 1e-12);
        assertEquals(2.0, d.variance()[1], 1e-14);
        // 0.5 N(-1,1) + 0.5 N(1,1) is unimodal (separation = 2 sigma): its mode is 0. The top is quartic-flat
        // (p(x) = p(0)(1 - x^4/12 + ...)), so doubles cannot tell points within eps^(1/3) ~ 6e-6 of 0 apart by
        // their gradient: that is the attainable accuracy.
        assertEquals(0.0, d.mode()[1], 1e-5);
        // the taller component's mode, pulled a hair towards 0 by the other: d/dy density = 0 there
        double m = d.mode()[0];
        double h = 1e-6;
        double slope = (Math.exp(d.logDensity(new double[] {m + h, 0})[0]) - Math.exp(d.logDensity(new double[] {m - h, 0})[0])) / (2 * h);
        assertEquals(0.0, slope, 1e-6);
        assertTrue(m < 5 && m > 4.99, "mode " + m);
    }

    @Test
    void bimodalMixtureModeIsTheHigherPeak() {
        MixtureDistribution d = new MixtureDistribution(
                new double[][] {{0.45, 0.55}}, new double[][] {{-3, 3}}, new double[][] {{1, 1}});
        assertEquals(3.0, d.mode()[0], 1e-6);
    }

    @Test
    void fromLogitsIsAStableSoftmax() {
        MixtureDistribution d = MixtureDistribution.fromLogits(
                new double[][] {{1000, 1000 + Math.log(3)}}, new double[][] {{0, 1}}, new double[][] {{1, 1}});
        assertEquals(0.75, d.mean()[0], 1e-12);
    }

    @Test
    void satisfiesTheDistributionContract() {
        Random r = new Random(7);
        int b = 3;
        int k = 4;
        double[][] w = new double[b][k];
        double[][] mu = new double[b][k];
        double[][] sd = new double[b][k];
        for (int i = 0; i < b; i++) {
            double s = 0;
            for (int j = 0; j < k; j++) {
                w[i][j] = 0.1 + r.nextDouble();
                s += w[i][j];
                mu[i][j] = 4 * r.nextGaussian();
                sd[i][j] = 0.2 + r.nextDouble();
            }
            for (int j = 0; j < k; j++) {
                w[i][j] /= s;
            }
        }
        DistributionContract.verify(new MixtureDistribution(w, mu, sd), 100_000, 11);
    }

    @Test
    void rejectsBadParametersNamingThem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MixtureDistribution(new double[][] {{1}}, new double[][] {{0}}, new double[][] {{0}}));
        assertEquals("sigmas[0][0] (row 0, component 0) must be > 0 and finite, got 0.0", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new MixtureDistribution(new double[][] {{0.5, 0.6}}, new double[][] {{0, 1}}, new double[][] {{1, 1}}));
        MixtureDistribution d = MixtureDistribution.gaussian(new double[] {0}, new double[] {1});
        assertThrows(IllegalArgumentException.class, () -> d.logDensity(new double[] {Double.NaN}));
        assertThrows(IllegalArgumentException.class, () -> d.logDensity(new double[] {0, 1}));
        assertThrows(IllegalArgumentException.class, () -> d.inverseCumulativeProbability(1.5));
    }
}
