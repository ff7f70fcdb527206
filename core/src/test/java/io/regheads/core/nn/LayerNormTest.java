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

class LayerNormTest {

    @Test
    void byHand() {
        LayerNorm ln = new LayerNorm(2, DataType.DOUBLE);
        // x = [1, 3]: mean 2, biased variance 1 -> [-1, 1] / sqrt(1 + 1e-5); constant row -> bias (0), not NaN
        INDArray x = Nd4j.createFromArray(new double[][] {{1, 3}, {5, 5}});
        double s = 1 / Math.sqrt(1 + 1e-5);
        assertArrayEquals(new double[] {-s, s, 0, 0}, Naive.flat(ln.forward(x, Arena.none()).output()), 1e-15);
    }

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "DOUBLE"})
    void matchesTheNaiveLoop(DataType type) {
        int d = 12;
        LayerNorm ln = new LayerNorm(d, type);
        ln.gain().value().assign(GradientCheck.random(1, 1.0, d).castTo(type));
        ln.bias().value().assign(GradientCheck.random(2, 1.0, d).castTo(type));
        INDArray x = GradientCheck.random(3, 3.0, 4, 5, d).castTo(type);
        double[] ref = Naive.layerNorm(Naive.flat(x), Naive.flat(ln.gain().value()), Naive.flat(ln.bias().value()), d);
        double tol = type == DataType.FLOAT ? 2e-6 : 1e-13;
        assertTrue(Naive.maxAbsDiff(ref, Naive.flat(ln.forward(x, Arena.none()).output())) < tol);
    }

    @Test
    void passesTheGradientCheckWithNonTrivialGainAndBias() {
        int d = 6;
        LayerNorm ln = new LayerNorm("ln", d, DataType.DOUBLE);
        ln.gain().value().assign(GradientCheck.random(4, 1.0, d));
        ln.bias().value().assign(GradientCheck.random(5, 1.0, d));
        INDArray x = GradientCheck.random(6, 2.0, 3, 2, d);
        double worst = GradientCheck.checkLayer(ln, x, 7, Tolerances.NOISE_FLOORED);
        assertTrue(worst < 1e-5, "worst " + worst);
    }

    @Test
    void backwardMatchesTheExplicitJacobian() {
        // dx_i = sum_j dy_j gain_j dxhat_j/dx_i with dxhat_j/dx_i = r (delta_ij - 1/d - xhat_i xhat_j / d)
        int d = 5;
        LayerNorm ln = new LayerNorm(d, DataType.DOUBLE);
        ln.gain().value().assign(GradientCheck.random(8, 1.0, d));
        INDArray x = GradientCheck.random(9, 2.0, 3, d);
        INDArray dy = GradientCheck.random(10, 1.0, 3, d);
        double[] dx = Naive.flat(ln.backward(ln.forward(x, Arena.none()), dy, Arena.none()));
        double[] xv = Naive.flat(x);
        double[] dyv = Naive.flat(dy);
        double[] gain = Naive.flat(ln.gain().value());
        for (int r = 0; r < 3; r++) {
            double mean = 0;
            for (int j = 0; j < d; j++) {
                mean += xv[r * d + j] / d;
            }
            double var = 0;
            for (int j = 0; j < d; j++) {
                var += Math.pow(xv[r * d + j] - mean, 2) / d;
            }
            double rs = 1 / Math.sqrt(var + 1e-5);
            for (int i = 0; i < d; i++) {
                double xi = (xv[r * d + i] - mean) * rs;
                double want = 0;
                for (int j = 0; j < d; j++) {
                    double xj = (xv[r * d + j] - mean) * rs;
                    want += dyv[r * d + j] * gain[j] * rs * ((i == j ? 1 : 0) - 1.0 / d - xi * xj / d);
                }
                assertEquals(want, dx[r * d + i], 1e-12, "dx at row " + r + ", column " + i);
            }
        }
    }

    @Test
    void arenaReuse() {
        LayerNorm ln = new LayerNorm(8, DataType.FLOAT);
        INDArray x = GradientCheck.random(1, 1.0, 5, 8).castTo(DataType.FLOAT);
        INDArray dy = GradientCheck.random(2, 1.0, 5, 8).castTo(DataType.FLOAT);
        Arena arena = Arena.create();
        LayerNorm.Cache c = ln.forward(x, arena);
        INDArray y1 = c.output().dup();
        INDArray dx1 = ln.backward(c, dy, arena).dup();
        int size = arena.size();
        arena.reset();
        c = ln.forward(x, arena);
        INDArray dx2 = ln.backward(c, dy, arena);
        assertEquals(size, arena.size());
        assertEquals(y1, c.output());
        assertEquals(dx1, dx2);
    }

    @Test
    void rejectsBadArguments() {
        LayerNorm ln = new LayerNorm(4, DataType.FLOAT);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ln.forward(Nd4j.zeros(DataType.FLOAT, 2, 3), Arena.none()));
        assertEquals("input must have last dimension 4, got shape [2, 3]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new LayerNorm(0, DataType.FLOAT));
        assertEquals("d must be >= 1, got 0", e.getMessage());
    }
}
