package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.metrics.Calibration;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.mixture.MixtureDistribution;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ConformalIntervalsTest {

    /** y = sin(3 x) + noise * e, x uniform on [0, 1]. */
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

    /** The offset is the ceil((n + 1) L)-th smallest score, by hand on five rows. */
    @Test
    void theOffsetIsTheRightOrderStatistic() {
        // N(0, 1) rows: the 50% interval is [-0.6745, 0.6745]; scores max(lo - y, y - hi)
        MixtureDistribution d = MixtureDistribution.gaussian(new double[5], new double[] {1, 1, 1, 1, 1});
        double[] y = {0, 1, -2, 0.5, 3};
        ConformalIntervals c = ConformalIntervals.fit(d, y, 0.5);
        double h = 0.6744897501960817;
        double[] scores = {-h, 1 - h, 2 - h, 0.5 - h, 3 - h}; // sorted: -h, 0.5-h, 1-h, 2-h, 3-h
        // ceil(6 * 0.5) = 3: the third smallest
        assertEquals(1 - h, c.offsets()[0], 1e-12);
        assertEquals(scores.length, c.rows());
        double[][] iv = c.interval(d, 0.5);
        assertEquals(-h - (1 - h), iv[0][0], 1e-12);
        assertEquals(h + (1 - h), iv[1][0], 1e-12);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConformalIntervals.fit(d, y,
                0.9));
        assertEquals("a 0.9 interval needs at least 9 calibration rows, got 5", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.interval(d, 0.9));
    }

    /**
     * A model trained on noise 0.1 meets data with noise 0.5: its own 90% intervals cover far too little, the
     * conformal ones 90% of fresh rows. With n calibration rows, the coverage of a fixed calibration is Beta(k, n + 1
     * - k), k = ceil(0.9 (n + 1)), of standard deviation about sqrt(0.09 / n); m test rows add a binomial sd of
     * sqrt(0.09 / m): the test allows 4 of the two combined.
     */
    @Test
    void conformalIntervalsCoverFreshRowsAtTheirLevel() {
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 32, new PointwiseSpec(false), null,
                TrainerConfig.defaults().withMaxEpochs(40).withSeed(3)), 1);
        m.fit(data(600, 0.1, 1));
        Dataset calibration = data(500, 0.5, 2);
        Dataset test = data(3000, 0.5, 3);
        double raw = Calibration.centralIntervalCoverage(m.predict(test), test.y(), 0.9);
        assertTrue(raw < 0.5, "the model's own 90% intervals are far too narrow here: " + raw);
        ConformalIntervals c = m.calibrateIntervals(calibration);
        assertArrayEquals(ConformalIntervals.DEFAULT_LEVELS, c.levels(), 0.0);
        double[][] iv = m.conformalInterval(test, 0.9);
        double covered = Calibration.coverage(iv[0], iv[1], test.y());
        double bound = 4 * Math.sqrt(0.09 / 500 + 0.09 / 3000);
        assertEquals(0.9, covered, bound, "conformal 90% coverage");
        double[][] half = m.conformalInterval(test, 0.5);
        assertEquals(0.5, Calibration.coverage(half[0], half[1], test.y()), 4 * Math.sqrt(0.25 / 500 + 0.25 / 3000));
        // saved with the model, and the same intervals after loading
        RegressionModel back = RegressionModel.fromBytes(m.toBytes());
        assertEquals(c, back.conformalIntervals().orElseThrow());
        assertArrayEquals(iv[1], back.conformalInterval(test, 0.9)[1], 0.0);
    }
}
