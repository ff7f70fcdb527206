package io.regheads.core.nn;

import io.regheads.core.internal.Activations;
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

/** ReLU and GELU. */
class ActivationsTest {

    @Test
    void reluByHand() {
        ReLU relu = new ReLU();
        INDArray x = Nd4j.createFromArray(new double[][] {{-2, 0}, {0.5, 3}});
        ReLU.Cache c = relu.forward(x, Arena.none());
        assertArrayEquals(new double[] {0, 0, 0.5, 3}, Naive.flat(c.output()), 0);
        INDArray dx = relu.backward(c, Nd4j.createFromArray(new double[][] {{1, 2}, {3, 4}}), Arena.none());
        assertArrayEquals(new double[] {0, 0, 3, 4}, Naive.flat(dx), 0);
    }

    /** The branch-free kernels at the edges: -0, the smallest subnormals, the largest finite values. */
    @Test
    void reluIsExactAtTheEdgesInBothTypes() {
        float[] xf = {-0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE, 0f};
        float[] yf = new float[xf.length];
        FloatKernels.relu(xf, yf);
        assertArrayEquals(new float[] {0f, Float.MIN_VALUE, 0f, Float.MIN_NORMAL, Float.MAX_VALUE, 0f, 0f}, yf, 0f);
        assertEquals(0, Float.floatToRawIntBits(yf[0]), "relu(-0) is +0");
        float[] dyf = {5f, -3f, 7f, 2f, -1.5f, 9f, 4f};
        float[] dxf = new float[xf.length];
        FloatKernels.reluBackward(yf, dyf, dxf);
        assertArrayEquals(new float[] {0f, -3f, 0f, 2f, -1.5f, 0f, 0f}, dxf, 0f);

        double[] xd = {-0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -1e-300, 1e-300};
        double[] yd = new double[xd.length];
        DoubleKernels.relu(xd, yd);
        assertArrayEquals(new double[] {0, Double.MIN_VALUE, 0, Double.MIN_NORMAL, Double.MAX_VALUE, 0, 1e-300}, yd, 0);
        double[] dyd = {5, -3, 7, 2, -1.5, 9, 4};
        double[] dxd = new double[xd.length];
        DoubleKernels.reluBackward(yd, dyd, dxd);
        assertArrayEquals(new double[] {0, -3, 0, 2, -1.5, 0, 4}, dxd, 0);
    }

    @Test
    void reluPassesTheGradientCheck() {
        // values away from the kink at 0 by construction: |x| >= 0.1
        INDArray x = GradientCheck.random(3, 1.0, 3, 4, 5);
        x.assign(x.add(Nd4j.math().sign(x).mul(0.1)));
        assertTrue(GradientCheck.checkLayer(new ReLU(), x, 5, GradientCheck.Tolerance.standard()) < 1e-6);
    }

    @Test
    void geluGoldenValues() {
        INDArray x = Nd4j.createFromArray(1.0, -1.0, 2.0, 0.5);
        // tanh form: 0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))) evaluated by hand with Math.tanh;
        // PyTorch gelu(1, approximate="tanh") prints 0.8412 (float32 0.84119201)
        double[] tanhForm = {0.8411919906082768, -0.15880800939172324, 1.954597694087775, 0.34571400982514394};
        // exact form: x Phi(x); Phi(1) = 0.8413447460685429 (standard normal table), Phi(2) = 0.9772498680518208
        double[] erfForm = {0.8413447460685429, -0.15865525393145707, 2 * 0.9772498680518208, 0.5 * 0.6914624612740131};
        assertArrayEquals(tanhForm, Naive.flat(new GELU().forward(x, Arena.none()).output()), 1e-15);
        assertArrayEquals(erfForm, Naive.flat(new GELU(GELU.Form.ERF).forward(x, Arena.none()).output()), 1e-15);
        float[] f = new GELU().forward(x.castTo(DataType.FLOAT), Arena.none()).output().toFloatVector();
        for (int i = 0; i < f.length; i++) {
            assertEquals(tanhForm[i], f[i], 3e-7, "float GELU at " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(GELU.Form.class)
    void geluPassesTheGradientCheck(GELU.Form form) {
        INDArray x = GradientCheck.random(8, 2.0, 4, 3, 5);
        double worst = GradientCheck.checkLayer(new GELU(form), x, 9, GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-6, "worst " + worst);
    }

    @Test
    void floatGeluMatchesTheDoubleReferenceOverAWideRange() {
        int n = 20001;
        double[] xs = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = -10 + 20.0 * i / (n - 1);
        }
        INDArray x = Naive.array(xs, DataType.FLOAT, n);
        GELU gelu = new GELU();
        GELU.Cache c = gelu.forward(x, Arena.none());
        INDArray dy = Nd4j.ones(DataType.FLOAT, n);
        double[] y = Naive.flat(c.output());
        double[] dx = Naive.flat(gelu.backward(c, dy, Arena.none()));
        double[] xf = Naive.flat(x);
        for (int i = 0; i < n; i++) {
            double ref = Naive.geluTanh(xf[i]);
            assertEquals(ref, y[i], 1e-6 * Math.max(1, Math.abs(ref)), "GELU at " + xf[i]);
            double h = 1e-4;
            double slope = (Naive.geluTanh(xf[i] + h) - Naive.geluTanh(xf[i] - h)) / (2 * h);
            // float rounds tanh to within 6e-8 of +-1 for |x| > 4, so (1 - t^2) carries an absolute error of about
            // 1e-7 times the factor 0.5 x C (1 + 3 A x^2): up to ~3e-6 where the true slope is ~0 (as in PyTorch's
            // float32 kernel); elsewhere the float slope is within 2e-6
            assertEquals(slope, dx[i], 5e-6, "GELU' at " + xf[i]);
        }
    }

    @Test
    void fastTanhIsFloatAccurate() {
        double worst = 0;
        for (double x = -12; x <= 12; x += 1e-4) {
            float f = (float) x;
            worst = Math.max(worst, Math.abs(Activations.fastTanh(f) - Math.tanh(f)));
        }
        assertTrue(worst < 4e-7, "worst " + worst); // a few float ulps near +-1
    }

    @Test
    void rejectsBadInputs() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GELU().forward(Nd4j.zeros(DataType.INT32, 3), Arena.none()));
        assertEquals("input must be FLOAT or DOUBLE, got INT", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new ReLU().forward(Nd4j.zeros(DataType.FLOAT, 0), Arena.none()));
        assertEquals("input must not be empty, got shape [0]", e.getMessage());
        ReLU.Cache c = new ReLU().forward(Nd4j.zeros(DataType.FLOAT, 3), Arena.none());
        e = assertThrows(IllegalArgumentException.class,
                () -> new ReLU().backward(c, Nd4j.zeros(DataType.DOUBLE, 3), Arena.none()));
        assertEquals("dOut must have data type FLOAT, got DOUBLE", e.getMessage());
    }
}
