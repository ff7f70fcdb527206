package io.regheads.core.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.nn.Param;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

class AdamTest {

    private static Param param(DataType type, double... values) {
        return new Param("w", Nd4j.createFromArray(values).castTo(type).reshape(1, values.length));
    }

    @ParameterizedTest
    @EnumSource(AdamKernel.Path.class)
    void firstAdamStepMatchesHandComputation(AdamKernel.Path path) {
        // By hand: step 1 has m = 0.1 g, v = 0.001 g^2, bias corrections 0.1 and 0.001, so
        // p -= lr * g / (|g| + eps). lr 0.1: p=1,g=0.5 -> 1 - 0.1 * 0.5/(0.5+1e-8) = 0.900000002 (to 1e-16);
        // p=-2, g=-4 -> -2 + 0.1 * 4/(4+1e-8) = -1.90000000025; g = 0 -> unchanged.
        Param p = param(DataType.DOUBLE, 1, -2, 3);
        p.grad().assign(Nd4j.createFromArray(0.5, -4, 0).reshape(1, 3));
        Adam adam = new Adam(List.of(p), AdamConfig.adam(0.1), path);
        adam.step();
        assertEquals(0.900000002, p.value().getDouble(0), 1e-15);
        assertEquals(-1.90000000025, p.value().getDouble(1), 1e-15);
        assertEquals(3.0, p.value().getDouble(2), 0.0);
        assertEquals(1, adam.iterations());
    }

    @ParameterizedTest
    @EnumSource(AdamKernel.Path.class)
    void firstStepWithWeightDecayCoupledVersusDecoupled(AdamKernel.Path path) {
        // Adam wd 0.1 (L2): g = 0.5 + 0.1 * 1 = 0.6, p = 1 - 0.1 * 0.6/(0.6+1e-8) = 0.9 + 1.6666666389e-9.
        Param a = param(DataType.DOUBLE, 1);
        a.grad().assign(0.5);
        new Adam(List.of(a), AdamConfig.adam(0.1).withWeightDecay(0.1), path).step();
        assertEquals(0.9 + 0.1 * 1e-8 / (0.6 + 1e-8), a.value().getDouble(0), 1e-15);
        // AdamW wd 0.01: p = 1 * (1 - 0.1*0.01) - 0.1 * 0.5/(0.5+1e-8) = 0.999 - 0.099999998 = 0.899000002.
        Param w = param(DataType.DOUBLE, 1);
        w.grad().assign(0.5);
        new AdamW(List.of(w), AdamConfig.adamW(0.1), path).step();
        assertEquals(0.899000002, w.value().getDouble(0), 1e-15);
    }

    /** Textbook Adam in plain double loops (m-hat, v-hat form), independent of the kernel. */
    private static void referenceStep(double[] p, double[] g, double[] m, double[] v, int t, AdamConfig c,
            boolean decoupled) {
        for (int i = 0; i < p.length; i++) {
            double gi = decoupled ? g[i] : g[i] + c.weightDecay() * p[i];
            if (decoupled) {
                p[i] -= c.learningRate() * c.weightDecay() * p[i];
            }
            m[i] = c.beta1() * m[i] + (1 - c.beta1()) * gi;
            v[i] = c.beta2() * v[i] + (1 - c.beta2()) * gi * gi;
            double mHat = m[i] / (1 - Math.pow(c.beta1(), t));
            double vHat = v[i] / (1 - Math.pow(c.beta2(), t));
            p[i] -= c.learningRate() * mHat / (Math.sqrt(vHat) + c.epsilon());
        }
    }

    private static void runAgainstReference(DataType type, AdamKernel.Path path, boolean decoupled, double tol) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(7L);
        int n = 37;
        double[] ref = new double[n];
        double[] target = new double[n];
        for (int i = 0; i < n; i++) {
            ref[i] = rng.nextDouble() * 4 - 2;
            target[i] = rng.nextDouble() * 4 - 2;
        }
        // two params: a [5, 5] block and a [1, 12] row, so the kernel walks several tensors
        Param a = new Param("a", Nd4j.createFromArray(java.util.Arrays.copyOfRange(ref, 0, 25)).castTo(type).reshape(5, 5));
        Param b = new Param("b", Nd4j.createFromArray(java.util.Arrays.copyOfRange(ref, 25, n)).castTo(type).reshape(1, 12));
        for (int i = 0; i < n; i++) {
            ref[i] = i < 25 ? a.value().getDouble(i) : b.value().getDouble(i - 25); // same start after the cast
        }
        AdamConfig config = new AdamConfig(0.05, 0.8, 0.99, 1e-6, 0.03);
        Optimizer opt = decoupled ? new AdamW(List.of(a, b), config, path) : new Adam(List.of(a, b), config, path);
        double[] m = new double[n];
        double[] v = new double[n];
        double[] g = new double[n];
        for (int t = 1; t <= 25; t++) {
            // gradient of 0.5 * (p - target)^2 + a wobble, computed from the reference so both see the same g
            for (int i = 0; i < n; i++) {
                g[i] = ref[i] - target[i] + 0.3 * Math.sin(7 * t + i);
            }
            for (int i = 0; i < n; i++) {
                if (i < 25) {
                    a.grad().putScalar(i, g[i]);
                } else {
                    b.grad().putScalar(i - 25, g[i]);
                }
            }
            opt.step();
            referenceStep(ref, g, m, v, t, config, decoupled);
            for (int i = 0; i < n; i++) {
                double got = i < 25 ? a.value().getDouble(i) : b.value().getDouble(i - 25);
                assertEquals(ref[i], got, tol * Math.max(1, Math.abs(ref[i])), "element " + i + " at step " + t);
            }
            if (type == DataType.FLOAT) {
                // keep the reference on the float grid so rounding does not accumulate between the two
                for (int i = 0; i < n; i++) {
                    ref[i] = i < 25 ? a.value().getDouble(i) : b.value().getDouble(i - 25);
                }
            }
        }
        assertEquals(25, opt.iterations());
    }

    @ParameterizedTest
    @EnumSource(AdamKernel.Path.class)
    void manyStepsMatchDoubleReference(AdamKernel.Path path) {
        runAgainstReference(DataType.DOUBLE, path, false, 1e-12);
        runAgainstReference(DataType.DOUBLE, path, true, 1e-12);
    }

    @ParameterizedTest
    @EnumSource(AdamKernel.Path.class)
    void floatParamsTrackDoubleReference(AdamKernel.Path path) {
        runAgainstReference(DataType.FLOAT, path, false, 1e-6);
        runAgainstReference(DataType.FLOAT, path, true, 1e-6);
    }

    @Test
    void bothPathsAgreeOnFloatParams() {
        Param p1 = new Param("p", Nd4j.rand(DataType.FLOAT, 3, 40).subi(0.5));
        Param p2 = new Param("p", p1.value().dup());
        AdamW host = new AdamW(List.of(p1), AdamConfig.adamW(0.01), AdamKernel.Path.HOST_LOOP);
        AdamW ops = new AdamW(List.of(p2), AdamConfig.adamW(0.01), AdamKernel.Path.ND4J_OPS);
        for (int t = 0; t < 10; t++) {
            INDArray g = Nd4j.rand(DataType.FLOAT, 3, 40).subi(0.5);
            p1.grad().assign(g);
            p2.grad().assign(g);
            host.step();
            ops.step();
        }
        for (int i = 0; i < 120; i++) {
            assertEquals(p2.value().getDouble(i), p1.value().getDouble(i), 2e-6, "element " + i);
        }
    }

    @ParameterizedTest
    @EnumSource(AdamKernel.Path.class)
    void updatesAViewParamWithoutTouchingItsNeighbours(AdamKernel.Path path) {
        INDArray big = Nd4j.zeros(DataType.DOUBLE, 4, 3).addi(5);
        INDArray rows = big.get(NDArrayIndex.interval(1, 3), NDArrayIndex.all()); // rows 1 and 2, offset 3
        Param p = new Param("view", rows);
        p.grad().assign(1.0);
        new Adam(List.of(p), AdamConfig.adam(0.5), path).step();
        // by hand: each element moves by -lr * 1/(1 + 1e-8)
        double moved = 5 - 0.5 / (1 + 1e-8);
        for (int c = 0; c < 3; c++) {
            assertEquals(5.0, big.getDouble(0, c), 0.0);
            assertEquals(moved, big.getDouble(1, c), 1e-15);
            assertEquals(moved, big.getDouble(2, c), 1e-15);
            assertEquals(5.0, big.getDouble(3, c), 0.0);
        }
    }

    @Test
    void defaultPathOnCpuIsTheHostLoopAndLearningRateCanChange() {
        Param p = param(DataType.DOUBLE, 1);
        Adam adam = new Adam(List.of(p), 0.1);
        assertEquals(AdamKernel.Path.HOST_LOOP, adam.path());
        adam.setLearningRate(0.2);
        assertEquals(0.2, adam.learningRate());
        p.grad().assign(1);
        adam.step();
        assertEquals(1 - 0.2 / (1 + 1e-8), p.value().getDouble(0), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> adam.setLearningRate(Double.NaN));
    }

    @Test
    void rejectsBadArguments() {
        Param p = param(DataType.DOUBLE, 1, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Adam(List.of(), 0.1));
        assertEquals("params must not be empty, got 0 parameters", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new AdamW(List.of(p, p), 0.1));
        assertEquals("params must be distinct, got w twice", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> AdamConfig.adam(Double.NaN));
        assertEquals("learningRate must be > 0 and finite, got NaN", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new AdamConfig(0.1, 1.0, 0.999, 1e-8, 0));
        assertEquals("beta1 must be in [0, 1), got 1.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new AdamConfig(0.1, 0.9, 0.999, 1e-8, -1));
        assertEquals("weightDecay must be >= 0 and finite, got -1.0", e.getMessage());
        Param ints = new Param("i", Nd4j.createFromArray(1, 2, 3));
        e = assertThrows(IllegalArgumentException.class, () -> new Adam(List.of(ints), 0.1));
        assertTrue(e.getMessage().startsWith("param i must have data type FLOAT or DOUBLE, got INT"), e.getMessage());
    }
}
