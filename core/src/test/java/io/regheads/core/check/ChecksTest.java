package io.regheads.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

class ChecksTest {

    @Test
    void positiveRejectsNanZeroAndInfinityWithNameRuleAndValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Checks.positive("sigma", Double.NaN));
        assertEquals("sigma must be > 0 and finite, got NaN", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Checks.positive("sigma", 0.0));
        assertThrows(IllegalArgumentException.class, () -> Checks.positive("sigma", Double.POSITIVE_INFINITY));
        assertEquals(2.5, Checks.positive("sigma", 2.5));
    }

    @Test
    void shapeMessageShowsExpectedAndActual() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checks.shape("targets", Nd4j.zeros(32, 1), 32));
        assertEquals("targets must have shape [32], got [32, 1]", e.getMessage());
    }

    @Test
    void allFiniteNamesTheFirstBadIndex() {
        double[] v = {1, 2, Double.POSITIVE_INFINITY, Double.NaN};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Checks.allFinite("y", v));
        assertEquals("y must be finite everywhere, got Infinity at index 2", e.getMessage());
    }

    @Test
    void rowValuesNamesLengthAndNaN() {
        assertEquals("y must have length B = 3, got 2",
                assertThrows(IllegalArgumentException.class, () -> Checks.rowValues("y", new double[2], 3)).getMessage());
        assertEquals("y must have length B = 3, got null",
                assertThrows(IllegalArgumentException.class, () -> Checks.rowValues("y", null, 3)).getMessage());
        assertEquals("y must not be NaN, got NaN at index 1",
                assertThrows(IllegalArgumentException.class, () -> Checks.rowValues("y", new double[] {0, Double.NaN, 1}, 3)).getMessage());
        double[] ok = {Double.NEGATIVE_INFINITY, 0, 2};
        assertEquals(ok, Checks.rowValues("y", ok, 3));
    }

    @Test
    void rowsNamesTheExpectedShapeWithItsLegend() {
        org.nd4j.linalg.api.ndarray.INDArray rank3 = org.nd4j.linalg.factory.Nd4j.zeros(2, 4, 8);
        assertEquals("phi must have shape [B, D] = [B, 8] with B >= 1, got [2, 4, 8]",
                assertThrows(IllegalArgumentException.class, () -> Checks.rows("phi", rank3, "D", 8)).getMessage());
        assertEquals("phi must have shape [B, D] = [B, 8] with B >= 1, got [3, 7]", assertThrows(
                IllegalArgumentException.class, () -> Checks.rows("phi", org.nd4j.linalg.factory.Nd4j.zeros(3, 7), "D", 8))
                .getMessage());
        assertEquals("phi must have shape [B, D] = [B, 8] with B >= 1, got [0, 8]", assertThrows(
                IllegalArgumentException.class, () -> Checks.rows("phi", org.nd4j.linalg.factory.Nd4j.zeros(0, 8), "D", 8))
                .getMessage());
        org.nd4j.linalg.api.ndarray.INDArray ok = org.nd4j.linalg.factory.Nd4j.zeros(3, 8);
        assertEquals(ok, Checks.rows("phi", ok, "D", 8));
    }
}
