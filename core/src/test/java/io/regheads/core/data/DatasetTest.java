package io.regheads.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

class DatasetTest {

    private static Dataset small() {
        return Dataset.of(new double[][] {{1, 2}, {3, 4}, {5, 6}}, new double[] {10, 20, 30});
    }

    @Test
    void accessorsCopyAndNames() {
        Dataset d = small();
        assertEquals(List.of("x0", "x1"), d.featureNames());
        assertEquals("Dataset[3 x 2, target y]", d.toString());
        double[] y = d.y();
        y[0] = 99;
        assertEquals(10.0, d.y(0), 0.0); // defensive copy
        Dataset s = d.subset(new int[] {2, 0});
        assertArrayEquals(new double[] {5, 6}, s.row(0), 0.0);
        assertArrayEquals(new double[] {30, 10}, s.y(), 0.0);
        INDArray m = d.featureMatrix(DataType.FLOAT);
        assertEquals(DataType.FLOAT, m.dataType());
        assertEquals(4.0, m.getDouble(1, 1), 0.0);
    }

    @Test
    void fromAnIndArray() {
        INDArray x = Nd4j.createFromArray(new float[][] {{1.5f, 2}, {3, 4}});
        Dataset d = Dataset.of(x, new double[] {7, 8}, List.of("a", "b"), "t");
        assertArrayEquals(new double[] {3, 4}, d.row(1), 0.0);
        assertEquals("t", d.targetName());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(Nd4j.zeros(DataType.DOUBLE, 2), new double[] {1, 2}, List.of("a"), "t"));
        assertEquals("x must have rank 2, got shape [2]", e.getMessage());
    }

    @Test
    void copyRowsFillsFloatDoubleAndViewBuffers() {
        Dataset d = small();
        int[] order = {2, 1, 0};
        INDArray f = Nd4j.zeros(DataType.FLOAT, 2, 2);
        d.copyRows(order, 1, 2, f); // rows 1 and 0
        assertArrayEquals(new float[] {3, 4, 1, 2}, f.data().asFloat(), 0f);
        INDArray big = Nd4j.zeros(DataType.DOUBLE, 4, 2).addi(-1);
        INDArray view = big.get(NDArrayIndex.interval(1, 3), NDArrayIndex.all());
        d.copyRows(order, 0, 2, view); // rows 2 and 1 into rows 1..2 of big
        assertArrayEquals(new double[] {-1, -1, 5, 6, 3, 4, -1, -1}, big.data().asDouble(), 0.0);
        double[] yb = new double[3];
        d.copyTargets(order, 0, 3, yb);
        assertArrayEquals(new double[] {30, 20, 10}, yb, 0.0);
    }

    @Test
    void rejectsBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{1, 2}, {3}}, new double[] {1, 2}));
        assertEquals("x must be rectangular: row 0 has 2 columns, row 1 has 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{1}, {Double.POSITIVE_INFINITY}}, new double[] {1, 2}));
        assertEquals("x must be finite everywhere, got Infinity at row 1, column 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[][] {{1}}, new double[] {1, 2}));
        assertEquals("y must have one value per row of x (1), got length 2", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[0][], new double[0]));
        assertEquals("x must have at least one row, got 0 rows", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> small().copyRows(new int[] {0, 1}, 0, 2, Nd4j.zeros(DataType.FLOAT, 2, 3)));
        assertEquals("dest must have shape [2, 2], got [2, 3]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> small().subset(new int[] {0, 3}));
        assertEquals("order[1] must be in [0, 2], got 3", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{1, 2}}, new double[] {1}, List.of("a", "a"), "y"));
        assertEquals("featureNames must be distinct, got 'a' twice", e.getMessage());
    }
}
