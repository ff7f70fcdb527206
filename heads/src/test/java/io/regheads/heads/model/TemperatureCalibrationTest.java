package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.mixture.MixtureDistribution;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TemperatureCalibrationTest {

    private static Dataset data(int n, double noise, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = r.nextDouble();
            y[i] = Math.sin(3 * x[i][0]) + noise * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    @Test
    void temperingByHand() {
        HistogramDistribution h = new HistogramDistribution(new double[] {0, 1, 2}, new double[][] {{0.2, 0.8}}, false);
        assertSame(h, h.tempered(1));
        assertArrayEquals(new double[] {1 / 3.0, 2 / 3.0}, h.tempered(2).probabilities()[0], 1e-15);
        MixtureDistribution m = new MixtureDistribution(new double[][] {{0.2, 0.8}}, new double[][] {{0, 3}},
                new double[][] {{1, 0.5}});
        assertSame(m, m.tempered(1));
        MixtureDistribution t = m.tempered(2);
        assertArrayEquals(new double[] {1 / 3.0, 2 / 3.0}, t.weights()[0], 1e-15);
        assertArrayEquals(new double[] {2, 1}, t.sigmas()[0], 0.0);
        assertArrayEquals(new double[] {0, 3}, t.means()[0], 0.0);
        assertThrows(IllegalArgumentException.class, () -> m.tempered(0));
    }

    /**
     * A pointwise model trained on noise 0.1 meets rows with noise 0.5: its Gaussians are too narrow. For Gaussians
     * with fixed means the NLL-optimal scale factor is {@code sqrt(mean(((y - mu) / sigma)^2))}, computed here from the
     * model's own means and sigma: the search must find it.
     */
    @Test
    void theNllTemperatureOfAGaussianIsTheRmsStandardisedResidual() {
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 32, new PointwiseSpec(false), null,
                TrainerConfig.defaults().withMaxEpochs(30).withSeed(3)), 1);
        m.fit(data(500, 0.1, 1));
        Dataset held = data(400, 0.5, 2);
        MixtureDistribution g = (MixtureDistribution) m.predictHeadUnits(held.x());
        double range = m.yScaler().range();
        double[] mu = m.predict(held.x()).mean();
        double sigma = g.sigmas()[0][0] * range; // the head's noise level in y's units
        double ss = 0;
        for (int i = 0; i < mu.length; i++) {
            double z = (held.y(i) - mu[i]) / sigma;
            ss += z * z;
        }
        double expected = Math.sqrt(ss / mu.length);
        double[] before = m.predict(held.x()).logDensity(held.y());
        TemperatureCalibration c = m.calibrateTemperature(held, ScoringRule.NLL);
        assertEquals(expected, c.temperature(), 1e-3 * expected);
        assertTrue(c.temperature() > 2, "much wider: " + c);
        assertTrue(c.after() < c.before(), c.toString());
        assertEquals(c.temperature(), m.temperature(), 0.0);
        double[] after = m.predict(held.x()).logDensity(held.y());
        assertTrue(mean(after) > mean(before) + 0.5, mean(before) + " -> " + mean(after));
        // kept with the model
        RegressionModel back = RegressionModel.fromBytes(m.toBytes());
        assertEquals(c.temperature(), back.temperature(), 0.0);
        assertArrayEquals(after, back.predict(held.x()).logDensity(held.y()), 0.0);
        // by CRPS: also wider, and its own score lower
        TemperatureCalibration crps = m.calibrateTemperature(held, ScoringRule.CRPS);
        assertTrue(crps.temperature() > 2 && crps.after() <= crps.before(), crps.toString());
    }

    @Test
    void aDecoderTakesNoTemperature() {
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 16, new DecoderSpec(10, 2, 8, 1, 16, 1), null,
                TrainerConfig.defaults().withMaxEpochs(1)), 1);
        m.fit(data(100, 0.1, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.calibrateTemperature(data(50, 0.1, 2), ScoringRule.NLL));
        assertTrue(e.getMessage().startsWith("calibrateTemperature needs a head whose distribution takes a temperature"),
                e.getMessage());
        assertEquals(1.0, m.temperature(), 0.0);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double e : v) {
            s += e;
        }
        return s / v.length;
    }
}
