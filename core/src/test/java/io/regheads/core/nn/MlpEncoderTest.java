package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.testing.GradientCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class MlpEncoderTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 5})
    void passesTheGradientCheck(int layers) {
        MlpEncoder enc = new MlpEncoder(new MlpEncoderConfig(3, layers, 6, 13L), DataType.DOUBLE);
        INDArray x = GradientCheck.random(4, 1.0, 5, 3);
        double worst = GradientCheck.checkLayer(enc, x, 8, GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-5, "worst " + worst);
    }

    @Test
    void matchesTheNaiveLoopInFloat() {
        MlpEncoder enc = new MlpEncoder(new MlpEncoderConfig(4, 3, 16, 2L), DataType.FLOAT);
        INDArray x = GradientCheck.random(5, 1.0, 7, 4).castTo(DataType.FLOAT);
        double[] h = Naive.flat(x);
        int in = 4;
        for (Linear lin : enc.layers()) {
            h = Naive.linear(h, Naive.flat(lin.weight().value()), Naive.flat(lin.bias().value()), 7, in, 16);
            for (int i = 0; i < h.length; i++) {
                h[i] = Math.max(0, h[i]);
            }
            in = 16;
        }
        MlpEncoder.Cache c = enc.forward(x, Arena.none());
        assertArrayEquals(new long[] {7, 16}, c.output().shape());
        assertTrue(Naive.maxAbsDiff(h, Naive.flat(c.output())) < 1e-5);
    }

    /** infer gives forward's output bit for bit (signed zeros included), in both types; checks input like forward. */
    @ParameterizedTest
    @ValueSource(strings = {"FLOAT", "DOUBLE"})
    void inferEqualsForwardBitForBit(String typeName) {
        DataType type = DataType.valueOf(typeName);
        MlpEncoder enc = new MlpEncoder(new MlpEncoderConfig(6, 3, 20, 8L), type);
        INDArray x = GradientCheck.random(9, 2.0, 33, 6).castTo(type);
        INDArray phi = enc.infer(x);
        assertArrayEquals(new long[] {33, 20}, phi.shape());
        double[] expected = Naive.flat(enc.forward(x, Arena.none()).output());
        double[] got = Naive.flat(phi);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(Double.doubleToRawLongBits(expected[i]), Double.doubleToRawLongBits(got[i]), "element " + i);
        }
        x.putScalar(5, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> enc.infer(x));
        assertThrows(IllegalArgumentException.class, () -> enc.infer(Nd4j.zeros(type, 4, 5)));
    }

    /** backwardParams accumulates exactly the gradients backward does, and skips only the input gradient. */
    @Test
    void backwardParamsGivesTheSameParameterGradients() {
        MlpEncoder enc = new MlpEncoder(new MlpEncoderConfig(5, 3, 12, 4L), DataType.DOUBLE);
        INDArray x = GradientCheck.random(3, 1.0, 6, 5);
        INDArray dy = GradientCheck.random(4, 1.0, 6, 12);
        for (Param p : enc.params()) {
            p.grad().assign(0.25); // accumulation on top of what is there
        }
        enc.backward(enc.forward(x, Arena.none()), dy, Arena.none());
        java.util.List<INDArray> full = new java.util.ArrayList<>();
        for (Param p : enc.params()) {
            full.add(p.grad().dup());
            p.grad().assign(0.25);
        }
        enc.backwardParams(enc.forward(x, Arena.none()), dy, Arena.none());
        for (int i = 0; i < full.size(); i++) {
            assertEquals(full.get(i), enc.params().get(i).grad(), enc.params().get(i).name());
            assertTrue(full.get(i).sub(0.25).norm1Number().doubleValue() > 0, "gradient is not trivially zero");
        }
    }

    @Test
    void seededInitialisationIsReproducible() {
        MlpEncoderConfig cfg = MlpEncoderConfig.small(8, 42L);
        MlpEncoder a = new MlpEncoder(cfg, DataType.FLOAT);
        MlpEncoder b = new MlpEncoder(cfg, DataType.FLOAT);
        MlpEncoder c = new MlpEncoder(cfg.withSeed(43L), DataType.FLOAT);
        for (int i = 0; i < a.params().size(); i++) {
            assertEquals(a.params().get(i).value(), b.params().get(i).value());
        }
        assertNotEquals(a.params().get(0).value(), c.params().get(0).value());
        assertEquals("enc.l2.bias", a.params().get(3).name());
        // PyTorch default bounds: 1/sqrt(8) for layer 1, 1/sqrt(256) for layer 2
        assertTrue(a.params().get(0).value().amaxNumber().doubleValue() <= 1 / Math.sqrt(8));
        assertTrue(a.params().get(2).value().amaxNumber().doubleValue() <= 1 / Math.sqrt(256));
        assertEquals(256, a.outputWidth());
    }

    @Test
    void arenaReuse() {
        MlpEncoder enc = new MlpEncoder(MlpEncoderConfig.small(8, 1L), DataType.FLOAT);
        INDArray x = GradientCheck.random(1, 1.0, 32, 8).castTo(DataType.FLOAT);
        INDArray dy = GradientCheck.random(2, 1.0, 32, 256).castTo(DataType.FLOAT);
        Arena arena = Arena.create();
        MlpEncoder.Cache c = enc.forward(x, arena);
        INDArray y1 = c.output().dup();
        INDArray dx1 = enc.backward(c, dy, arena).dup();
        int size = arena.size();
        arena.reset();
        c = enc.forward(x, arena);
        INDArray dx2 = enc.backward(c, dy, arena);
        assertEquals(size, arena.size());
        assertEquals(y1, c.output());
        assertEquals(dx1, dx2);
    }

    @Test
    void configValidationAndPresets() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new MlpEncoderConfig(8, 1, 256, 0));
        assertEquals("layers must be in [2, 5], got 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new MlpEncoderConfig(8, 6, 256, 0));
        assertEquals("layers must be in [2, 5], got 6", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new MlpEncoderConfig(8, 2, 2049, 0));
        assertEquals("width must be in [1, 2048], got 2049", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new MlpEncoderConfig(0, 2, 256, 0));
        assertEquals("inputWidth must be >= 1, got 0", e.getMessage());
        assertEquals(new MlpEncoderConfig(8, 5, 2048, 3), MlpEncoderConfig.large(8, 3));
        assertEquals(new MlpEncoderConfig(8, 3, 512, 3), MlpEncoderConfig.medium(8, 3));
        assertEquals("MlpEncoderConfig[inputWidth=8, layers=2, width=256, seed=3]",
                MlpEncoderConfig.small(8, 3).toString());
    }

    @Test
    void rejectsNonFiniteAndMisshapenInput() {
        MlpEncoder enc = new MlpEncoder(new MlpEncoderConfig(3, 2, 4, 1L), DataType.FLOAT);
        INDArray x = Nd4j.zeros(DataType.FLOAT, 2, 3);
        x.putScalar(1, 2, Float.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> enc.forward(x, Arena.none()));
        assertEquals("input must be finite everywhere, got NaN at flat index 5 (shape [2, 3])", e.getMessage());
        INDArray inf = Nd4j.zeros(DataType.FLOAT, 2, 3);
        inf.putScalar(0, 0, Float.POSITIVE_INFINITY);
        e = assertThrows(IllegalArgumentException.class, () -> enc.forward(inf, Arena.none()));
        assertEquals("input must be finite everywhere, got Infinity at flat index 0 (shape [2, 3])", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> enc.forward(Nd4j.zeros(DataType.FLOAT, 2, 1, 3), Arena.none()));
        assertEquals("input must have rank 2, got shape [2, 1, 3]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> enc.forward(Nd4j.zeros(DataType.FLOAT, 0, 3), Arena.none()));
        assertEquals("input must not be empty, got shape [0, 3]", e.getMessage());
    }
}
