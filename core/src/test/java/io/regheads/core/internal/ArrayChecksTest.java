package io.regheads.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

class ArrayChecksTest {

    @Test
    void allFiniteNamesTheFirstBadFlatIndexAndShape() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ArrayChecks.allFinite("x", Nd4j.createFromArray(new double[][] {{0, 1}, {Double.NaN, 3}})));
        assertEquals("x must be finite everywhere, got NaN at flat index 2 (shape [2, 2])", e.getMessage());
        // float, a row-block view with an offset (host scan), and a strided column view (native path)
        INDArray f = Nd4j.createFromArray(new float[][] {{0, 1}, {2, 3}, {4, Float.NEGATIVE_INFINITY}});
        assertEquals("f must be finite everywhere, got -Infinity at flat index 5 (shape [3, 2])",
                assertThrows(IllegalArgumentException.class, () -> ArrayChecks.allFinite("f", f)).getMessage());
        INDArray rows = f.get(NDArrayIndex.interval(1, 3), NDArrayIndex.all());
        assertEquals("r must be finite everywhere, got -Infinity at flat index 3 (shape [2, 2])",
                assertThrows(IllegalArgumentException.class, () -> ArrayChecks.allFinite("r", rows)).getMessage());
        INDArray firstColumn = f.get(NDArrayIndex.all(), NDArrayIndex.point(0));
        assertEquals(firstColumn, ArrayChecks.allFinite("c", firstColumn));
        INDArray secondColumn = f.get(NDArrayIndex.all(), NDArrayIndex.point(1));
        assertThrows(IllegalArgumentException.class, () -> ArrayChecks.allFinite("c", secondColumn));
        INDArray fine = f.get(NDArrayIndex.interval(0, 2), NDArrayIndex.all());
        assertEquals(fine, ArrayChecks.allFinite("ok", fine));
    }
}
