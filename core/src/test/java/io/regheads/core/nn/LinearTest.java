package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.testing.GradientCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class LinearTest {

    @Test
    void handComputedForwardAndBackward() {
        Linear lin = new Linear(2, 1, DataType.DOUBLE, 1L);
        lin.weight().value().assign(Nd4j.createFromArray(new double[][] {{1}, {2}}));
        lin.bias().value().assign(0.5);
        INDArray x = Nd4j.createFromArray(new double[][] {{3, 4}, {-1, 0.5}});
        Linear.Cache c = lin.forward(x, Arena.none());
        // by hand: 3*1 + 4*2 + 0.5 = 11.5 ; -1*1 + 0.5*2 + 0.5 = 0.5
        assertArrayEquals(new double[] {11.5, 0.5}, Naive.flat(c.output()), 1e-15);
        INDArray dy = Nd4j.createFromArray(new double[][] {{1}, {2}});
        INDArray dx = lin.backward(c, dy, Arena.none());
        // dx = dy W^T = [[1, 2], [2, 4]]; dW = x^T dy = [[3 - 2], [4 + 1]] = [[1], [5]]; db = 1 + 2 = 3
        assertArrayEquals(new double[] {1, 2, 2, 4}, Naive.flat(dx), 1e-15);
        assertArrayEquals(new double[] {1, 5}, Naive.flat(lin.weight().grad()), 1e-15);
        assertArrayEquals(new double[] {3}, Naive.flat(lin.bias().grad()), 1e-15);
        // backward adds: a second call doubles the gradients
        lin.backward(c, dy, Arena.none());
        assertArrayEquals(new double[] {2, 10}, Naive.flat(lin.weight().grad()), 1e-15);
        assertArrayEquals(new double[] {6}, Naive.flat(lin.bias().grad()), 1e-15);
    }

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "DOUBLE"})
    void matchesTheNaiveLoopOnRank3Input(DataType type) {
        int b = 3;
        int t = 4;
        int in = 7;
        int out = 5;
        Linear lin = new Linear(in, out, type, 7L);
        INDArray x = GradientCheck.random(11, 1.0, b, t, in).castTo(type);
        Linear.Cache c = lin.forward(x, Arena.none());
        assertArrayEquals(new long[] {b, t, out}, c.output().shape());
        double[] ref = Naive.linear(Naive.flat(x), Naive.flat(lin.weight().value()), Naive.flat(lin.bias().value()),
                b * t, in, out);
        double tol = type == DataType.FLOAT ? 1e-5 : 1e-13;
        assertTrue(Naive.maxAbsDiff(ref, Naive.flat(c.output())) < tol);
        // backward against the loops: dx = dy W^T, dW = x^T dy, db = column sums
        INDArray dy = GradientCheck.random(12, 1.0, b, t, out).castTo(type);
        INDArray dx = lin.backward(c, dy, Arena.none());
        double[] xv = Naive.flat(x);
        double[] dyv = Naive.flat(dy);
        double[] w = Naive.flat(lin.weight().value());
        double[] dxRef = new double[b * t * in];
        double[] dwRef = new double[in * out];
        double[] dbRef = new double[out];
        for (int r = 0; r < b * t; r++) {
            for (int o = 0; o < out; o++) {
                dbRef[o] += dyv[r * out + o];
                for (int i = 0; i < in; i++) {
                    dxRef[r * in + i] += dyv[r * out + o] * w[i * out + o];
                    dwRef[i * out + o] += xv[r * in + i] * dyv[r * out + o];
                }
            }
        }
        assertTrue(Naive.maxAbsDiff(dxRef, Naive.flat(dx)) < tol);
        assertTrue(Naive.maxAbsDiff(dwRef, Naive.flat(lin.weight().grad())) < 4 * tol);
        assertTrue(Naive.maxAbsDiff(dbRef, Naive.flat(lin.bias().grad())) < 4 * tol);
    }

    @Test
    void passesTheGradientCheck() {
        Linear lin = new Linear(5, 3, DataType.DOUBLE, 3L);
        INDArray x = GradientCheck.random(4, 1.0, 2, 3, 5);
        double worst = GradientCheck.checkLayer(lin, x, 99, GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-5, "worst " + worst);
    }

    @Test
    void acceptsANonContiguousInput() {
        Linear lin = new Linear(3, 2, DataType.DOUBLE, 5L);
        INDArray full = GradientCheck.random(6, 1.0, 4, 3);
        INDArray transposedView = full.transpose().transpose(); // same values
        INDArray columns = GradientCheck.random(7, 1.0, 3, 4).transpose(); // f-ordered view [4, 3]
        assertArrayEquals(Naive.flat(lin.forward(full, Arena.none()).output()),
                Naive.flat(lin.forward(transposedView, Arena.none()).output()), 0);
        double[] ref = Naive.linear(Naive.flat(columns), Naive.flat(lin.weight().value()),
                Naive.flat(lin.bias().value()), 4, 3, 2);
        assertTrue(Naive.maxAbsDiff(ref, Naive.flat(lin.forward(columns, Arena.none()).output())) < 1e-14);
    }

    @Test
    void initialisationIsSeededAndWithinPyTorchBounds() {
        Linear a = new Linear(16, 8, DataType.FLOAT, 42L);
        Linear b = new Linear(16, 8, DataType.FLOAT, 42L);
        Linear c = new Linear(16, 8, DataType.FLOAT, 43L);
        assertEquals(a.weight().value(), b.weight().value());
        assertTrue(!a.weight().value().equals(c.weight().value()));
        double bound = 1 / Math.sqrt(16);
        assertTrue(a.weight().value().amaxNumber().doubleValue() <= bound);
        assertTrue(a.bias().value().amaxNumber().doubleValue() <= bound);
        // 128 uniform draws on [-0.25, 0.25): the largest magnitude is above 0.2 unless the generator is broken
        assertTrue(a.weight().value().amaxNumber().doubleValue() > 0.2);
        assertEquals("linear.weight", a.params().get(0).name());
    }

    @Test
    void rejectsBadArguments() {
        Linear lin = new Linear(3, 2, DataType.FLOAT, 1L);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> lin.forward(Nd4j.zeros(DataType.FLOAT, 4, 5), Arena.none()));
        assertEquals("input must have last dimension 3, got shape [4, 5]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> lin.forward(Nd4j.zeros(DataType.DOUBLE, 4, 3), Arena.none()));
        assertEquals("input must have data type FLOAT (the parameters' type), got DOUBLE", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> lin.forward(Nd4j.zeros(DataType.FLOAT, 3), Arena.none()));
        assertEquals("input must have rank >= 2, got shape [3]", e.getMessage());
        Linear.Cache c = lin.forward(Nd4j.zeros(DataType.FLOAT, 4, 3), Arena.none());
        e = assertThrows(IllegalArgumentException.class,
                () -> lin.backward(c, Nd4j.zeros(DataType.FLOAT, 4, 3), Arena.none()));
        assertEquals("dOut must have shape [4, 2] (the forward output), got [4, 3]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Linear(0, 2, DataType.FLOAT, 1L));
        assertEquals("in must be >= 1, got 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Linear(2, 2, DataType.INT32, 1L));
        assertEquals("type must be FLOAT or DOUBLE, got INT", e.getMessage());
    }

    @Test
    void arenaReuseGivesIdenticalResultsWithoutNewBuffers() {
        Linear lin = new Linear(6, 4, DataType.FLOAT, 9L);
        INDArray x = GradientCheck.random(1, 1.0, 5, 6).castTo(DataType.FLOAT);
        INDArray dy = GradientCheck.random(2, 1.0, 5, 4).castTo(DataType.FLOAT);
        Arena arena = Arena.create();
        Linear.Cache c1 = lin.forward(x, arena);
        INDArray y1 = c1.output().dup();
        INDArray dx1 = lin.backward(c1, dy, arena).dup();
        INDArray dw1 = lin.weight().grad().dup();
        int size = arena.size();
        arena.reset();
        lin.params().forEach(Param::zeroGrad);
        Linear.Cache c2 = lin.forward(x, arena);
        INDArray dx2 = lin.backward(c2, dy, arena);
        assertEquals(size, arena.size());
        assertTrue(c1.output() == c2.output(), "the output buffer is reused");
        assertEquals(y1, c2.output());
        assertEquals(dx1, dx2);
        assertEquals(dw1, lin.weight().grad());
    }

    /**
     * One row in double by hand (2 inputs, 2 outputs): a float row that overflows gets the double values, and the
     * messages name the caller's row label.
     */
    @Test
    void inferRowInDoubleIsTheRowInDoublePrecision() {
        Linear lin = new Linear(2, 2, DataType.FLOAT, 1L);
        lin.weight().value().assign(Nd4j.createFromArray(new float[][] {{2, -1}, {2, 0.5f}}));
        lin.bias().value().assign(Nd4j.createFromArray(new float[] {0.25f, -3}));
        INDArray x = Nd4j.createFromArray(new float[][] {{1, 2}, {3e38f, 3e38f}});
        // by hand: row 1 = (3e38 * 2 + 3e38 * 2 + 0.25, -3e38 + 1.5e38 - 3) = (1.2e39, -1.5e38), beyond float's 3.4e38
        assertTrue(Double.isInfinite(Naive.flat(lin.forward(x, Arena.none()).output())[2]), "float overflows");
        double[] y = lin.inferRowInDouble("phi", x, 1, 41);
        double big = (double) 3e38f;
        assertArrayEquals(new double[] {4 * big + 0.25, -0.5 * big - 3}, y, 1e25);
        assertEquals(4 * big + 0.25, y[0], 0.0);
        assertArrayEquals(new double[] {6.25, -3}, lin.inferRowInDouble("phi", x, 0, 0), 0.0); // 2 + 4 + 0.25, -1 + 1 - 3
        x.putScalar(1, 1, Float.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> lin.inferRowInDouble("phi", x, 1, 41));
        assertEquals("phi must be finite, got NaN at row 41, column 1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> lin.inferRowInDouble("phi", x, 2, 2));
    }
}
