package io.regheads.heads.pointwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.testing.GradientCheck;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The pointwise head's after-fit step and saved state. */
class PointwiseHeadTest {

    @Test
    void afterFitSetsTheNoiseLevelToTheRootMeanSquaredResidual() {
        PointwiseHead h = new PointwiseSpec(false).build(3, 4, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(5, 1.0, 4, 3);
        double[] pred = h.predict(phi);
        // residuals 0.3, -0.1, 0.2, -0.4 by hand: mean square (0.09 + 0.01 + 0.04 + 0.16) / 4 = 0.075
        double[] y = {pred[0] - 0.3, pred[1] + 0.1, pred[2] - 0.2, pred[3] + 0.4};
        h.afterFit(phi, y);
        assertEquals(Math.sqrt(0.075), h.noiseStd(), 1e-15);
        assertEquals(Map.of("noiseStd", h.noiseStd()), h.state());
        // the distribution reports N(pred, noiseStd^2)
        assertEquals(0.075, h.distribution(phi).variance()[2], 1e-15);
        // exact predictions: the floor sqrt(1e-12)
        h.afterFit(phi, pred);
        assertEquals(1e-6, h.noiseStd(), 1e-21);
        assertThrows(IllegalArgumentException.class, () -> h.afterFit(phi, new double[3]));
    }

    @Test
    void stateRestoresAndRefusesByName() {
        PointwiseHead h = new PointwiseSpec(false).build(2, 1, DataType.FLOAT);
        h.restoreState(Map.of("noiseStd", 0.125));
        assertEquals(0.125, h.noiseStd(), 0.0);
        assertEquals("state must hold exactly noiseStd, got [sigma]", assertThrows(IllegalArgumentException.class,
                () -> h.restoreState(Map.of("sigma", 1.0))).getMessage());
        assertEquals("noiseStd must be > 0 and finite, got -1.0", assertThrows(IllegalArgumentException.class,
                () -> h.restoreState(Map.of("noiseStd", -1.0))).getMessage());
    }
}
