package io.regheads.heads.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.heads.mixture.MixtureDistribution;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The point heads' shared noise level: the after-fit estimate by hand, its floor, state and distribution. */
class NoiseLevelTest {

    private static String refusal(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void fitIsTheRootMeanSquaredResidualByHand() {
        NoiseLevel n = new NoiseLevel();
        assertEquals(1.0, n.std(), 0.0); // before any fit
        n.fit(new double[] {1.6, 0.2}, new double[] {1.0, 1.0}); // residuals 0.6 and -0.8
        assertEquals(Math.sqrt((0.6 * 0.6 + 0.8 * 0.8) / 2), n.std(), 1e-15); // 0.7071
        // the same arithmetic as the loop the heads and the data-parallel trainer ran before: bit for bit
        double s = 0;
        for (double r : new double[] {1.6 - 1.0, 0.2 - 1.0}) {
            s += r * r;
        }
        assertEquals(Math.sqrt(Math.max(s / 2, 1e-12)), n.std(), 0.0);
        n.fit(new double[] {3.0}, new double[] {3.0}); // a perfect fit: the floor
        assertEquals(1e-6, n.std(), 0.0);
        assertEquals("y must have length B = 2, got 1", refusal(() -> n.fit(new double[2], new double[1])));
        assertEquals(1e-6, n.std(), 0.0); // unchanged by a refused fit
    }

    @Test
    void stateRoundTripsAndRefusesOtherEntries() {
        NoiseLevel n = new NoiseLevel();
        n.set(0.25);
        assertEquals(Map.of("noiseStd", 0.25), n.state());
        NoiseLevel m = new NoiseLevel();
        m.restore(n.state());
        assertEquals(0.25, m.std(), 0.0);
        assertEquals("state must hold exactly noiseStd, got [sigma]", refusal(() -> m.restore(Map.of("sigma", 1.0))));
        assertEquals("noiseStd must be > 0 and finite, got NaN", refusal(() -> m.set(Double.NaN)));
    }

    @Test
    void distributionIsAGaussianAroundEachPrediction() {
        NoiseLevel n = new NoiseLevel();
        n.set(0.5);
        MixtureDistribution d = n.around(new double[] {1.0, -2.0});
        assertArrayEquals(new double[] {1.0, -2.0}, d.mean(), 0.0);
        assertArrayEquals(new double[] {0.25, 0.25}, d.variance(), 1e-15);
    }
}
