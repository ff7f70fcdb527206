package io.regheads.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.internal.ArrayChecks;
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
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> ArrayChecks.allFinite("x", Nd4j.createFromArray(new double[][] {{0, 1}, {Double.NaN, 3}})));
        assertEquals("x must be finite everywhere, got NaN at flat index 2 (shape [2, 2])", e2.getMessage());
        // float, a row-block view with an offset (host scan), and a strided column view (native path)
        org.nd4j.linalg.api.ndarray.INDArray f = Nd4j.createFromArray(new float[][] {{0, 1}, {2, 3}, {4, Float.NEGATIVE_INFINITY}});
        assertEquals("f must be finite everywhere, got -Infinity at flat index 5 (shape [3, 2])",
                assertThrows(IllegalArgumentException.class, () -> ArrayChecks.allFinite("f", f)).getMessage());
        org.nd4j.linalg.api.ndarray.INDArray rows = f.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(1, 3),
                org.nd4j.linalg.indexing.NDArrayIndex.all());
        assertEquals("r must be finite everywhere, got -Infinity at flat index 3 (shape [2, 2])",
                assertThrows(IllegalArgumentException.class, () -> ArrayChecks.allFinite("r", rows)).getMessage());
        org.nd4j.linalg.api.ndarray.INDArray firstColumn = f.get(org.nd4j.linalg.indexing.NDArrayIndex.all(),
                org.nd4j.linalg.indexing.NDArrayIndex.point(0));
        assertEquals(firstColumn, ArrayChecks.allFinite("c", firstColumn));
        org.nd4j.linalg.api.ndarray.INDArray secondColumn = f.get(org.nd4j.linalg.indexing.NDArrayIndex.all(),
                org.nd4j.linalg.indexing.NDArrayIndex.point(1));
        assertThrows(IllegalArgumentException.class, () -> ArrayChecks.allFinite("c", secondColumn));
        org.nd4j.linalg.api.ndarray.INDArray fine = f.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, 2),
                org.nd4j.linalg.indexing.NDArrayIndex.all());
        assertEquals(fine, ArrayChecks.allFinite("ok", fine));
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
