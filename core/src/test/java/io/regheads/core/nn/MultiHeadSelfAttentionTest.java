package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.nn.MultiHeadSelfAttention.Kernel;
import io.regheads.core.testing.GradientCheck;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class MultiHeadSelfAttentionTest {

    /** Presents forward(x, mask) as a plain Layer, so GradientCheck.checkLayer can drive it. */
    record Masked(MultiHeadSelfAttention attn, INDArray mask) implements Layer<MultiHeadSelfAttention.Cache> {
        @Override
        public List<Param> params() {
            return attn.params();
        }

        @Override
        public MultiHeadSelfAttention.Cache forward(INDArray input, Arena arena) {
            return attn.forward(input, mask, arena);
        }

        @Override
        public INDArray backward(MultiHeadSelfAttention.Cache cache, INDArray dOut, Arena arena) {
            return attn.backward(cache, dOut, arena);
        }
    }

    static MultiHeadSelfAttention layer(int d, int heads, Kernel kernel, DataType type) {
        return new MultiHeadSelfAttention("attn", d, heads, kernel, type, Tensors.rng(17));
    }

    /** [T, T] mask with a finite penalty and a -inf removal below the diagonal (position 0 always stays). */
    static INDArray sharedMask(int t, DataType type) {
        INDArray m = GradientCheck.random(21, 1.0, t, t);
        m.putScalar(t - 1, 1, Double.NEGATIVE_INFINITY);
        return m.castTo(type);
    }

    static INDArray perExampleMask(int b, int t, DataType type) {
        INDArray m = GradientCheck.random(22, 1.0, b, t, t);
        m.putScalar(new long[] {b - 1, t - 1, 0}, Double.NEGATIVE_INFINITY);
        return m.castTo(type);
    }

    static List<Arguments> cases() {
        return List.of(Arguments.of(Kernel.JAVA, 1, "none"), Arguments.of(Kernel.JAVA, 2, "shared"),
                Arguments.of(Kernel.JAVA, 2, "perExample"), Arguments.of(Kernel.ND4J, 1, "none"),
                Arguments.of(Kernel.ND4J, 2, "shared"), Arguments.of(Kernel.ND4J, 2, "perExample"));
    }

    static INDArray mask(String kind, int b, int t, DataType type) {
        return switch (kind) {
            case "shared" -> sharedMask(t, type);
            case "perExample" -> perExampleMask(b, t, type);
            default -> null;
        };
    }

    @ParameterizedTest
    @MethodSource("cases")
    void passesTheGradientCheck(Kernel kernel, int heads, String maskKind) {
        int b = 2;
        int t = 4;
        int d = 4;
        MultiHeadSelfAttention attn = layer(d, heads, kernel, DataType.DOUBLE);
        INDArray x = GradientCheck.random(5, 1.0, b, t, d);
        double worst = GradientCheck.checkLayer(new Masked(attn, mask(maskKind, b, t, DataType.DOUBLE)), x, 6,
                ATTENTION_TOLERANCE);
        assertTrue(worst < 1e-5, "worst " + worst);
    }

    /** See {@link Tolerances#NOISE_FLOORED}; the zero key-bias gradient is asserted in keyBiasGradientIsZero. */
    static final GradientCheck.Tolerance ATTENTION_TOLERANCE = Tolerances.NOISE_FLOORED;

    @ParameterizedTest
    @EnumSource(value = Kernel.class, names = {"JAVA", "ND4J"})
    void keyBiasGradientIsZero(Kernel kernel) {
        int d = 4;
        MultiHeadSelfAttention attn = layer(d, 2, kernel, DataType.DOUBLE);
        INDArray x = GradientCheck.random(5, 1.0, 2, 4, d);
        MultiHeadSelfAttention.Cache c = attn.forward(x, sharedMask(4, DataType.DOUBLE), Arena.none());
        attn.backward(c, GradientCheck.random(6, 1.0, 2, 4, d), Arena.none());
        double[] db = Naive.flat(attn.qkv().bias().grad());
        for (int j = 0; j < 3 * d; j++) {
            if (j >= d && j < 2 * d) {
                assertEquals(0.0, db[j], 1e-14, "key bias " + j);
            } else {
                assertTrue(Math.abs(db[j]) > 1e-6, "query/value bias " + j + " has a gradient");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void matchesTheNaiveLoopInFloatAndDouble(Kernel kernel, int heads, String maskKind) {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            int b = 3;
            int t = 5;
            int d = 8;
            MultiHeadSelfAttention attn = layer(d, heads, kernel, type);
            INDArray x = GradientCheck.random(7, 1.0, b, t, d).castTo(type);
            INDArray m = mask(maskKind, b, t, type);
            MultiHeadSelfAttention.Cache c = attn.forward(x, m, Arena.none());
            assertEquals(kernel == Kernel.JAVA, c.javaKernel());
            double[] ref = Naive.attentionLayer(attn, Naive.flat(x), m == null ? null : Naive.flat(m),
                    "perExample".equals(maskKind), b, t);
            double tol = type == DataType.FLOAT ? 1e-5 : 1e-13;
            double diff = Naive.maxAbsDiff(ref, Naive.flat(c.output()));
            assertTrue(diff < tol, type + " max difference " + diff);
        }
    }

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "DOUBLE"})
    void javaAndNd4jKernelsAgreeForwardAndBackward(DataType type) {
        int b = 4;
        int t = 6;
        int d = 12;
        MultiHeadSelfAttention java = layer(d, 3, Kernel.JAVA, type);
        MultiHeadSelfAttention nd4j = layer(d, 3, Kernel.ND4J, type); // same seed: same weights
        assertEquals(java.qkv().weight().value(), nd4j.qkv().weight().value());
        INDArray x = GradientCheck.random(8, 1.0, b, t, d).castTo(type);
        INDArray m = perExampleMask(b, t, type);
        INDArray dy = GradientCheck.random(9, 1.0, b, t, d).castTo(type);
        MultiHeadSelfAttention.Cache cj = java.forward(x, m, Arena.none());
        MultiHeadSelfAttention.Cache cn = nd4j.forward(x, m, Arena.none());
        double tol = type == DataType.FLOAT ? 2e-6 : 1e-14;
        assertTrue(Naive.maxAbsDiff(Naive.flat(cj.output()), Naive.flat(cn.output())) < tol);
        assertTrue(Naive.maxAbsDiff(Naive.flat(cj.probs()), Naive.flat(cn.probs())) < tol);
        INDArray dxj = java.backward(cj, dy, Arena.none());
        INDArray dxn = nd4j.backward(cn, dy, Arena.none());
        assertTrue(Naive.maxAbsDiff(Naive.flat(dxj), Naive.flat(dxn)) < 5 * tol);
        for (int i = 0; i < java.params().size(); i++) {
            double diff = Naive.maxAbsDiff(Naive.flat(java.params().get(i).grad()),
                    Naive.flat(nd4j.params().get(i).grad()));
            assertTrue(diff < 10 * tol, java.params().get(i).name() + " differs by " + diff);
        }
    }

    @Test
    void isCausalAndAutoPicksJavaForSmallT() {
        MultiHeadSelfAttention attn = new MultiHeadSelfAttention(4, 2, DataType.DOUBLE, 3L);
        INDArray x = GradientCheck.random(1, 1.0, 1, 3, 4);
        MultiHeadSelfAttention.Cache c = attn.forward(x, Arena.none());
        assertTrue(c.javaKernel());
        double[] p = Naive.flat(c.probs()); // [1, 2, 3, 3]
        for (int h = 0; h < 2; h++) {
            assertEquals(1.0, p[h * 9], 1e-15, "position 0 attends only to itself");
            assertEquals(0.0, p[h * 9 + 1], 0);
            assertEquals(0.0, p[h * 9 + 2], 0);
            assertEquals(0.0, p[h * 9 + 5], 0);
            assertEquals(1.0, p[h * 9 + 6] + p[h * 9 + 7] + p[h * 9 + 8], 1e-15);
        }
        // changing a later position does not change earlier outputs
        INDArray x2 = x.dup();
        x2.putScalar(new long[] {0, 2, 1}, 5.0);
        double[] y1 = Naive.flat(attn.forward(x, Arena.none()).output());
        double[] y2 = Naive.flat(attn.forward(x2, Arena.none()).output());
        for (int i = 0; i < 8; i++) {
            assertEquals(y1[i], y2[i], 0, "position < 2 at flat index " + i);
        }
        assertFalse(y1[9] == y2[9]);
        MultiHeadSelfAttention big = new MultiHeadSelfAttention(4, 1, DataType.DOUBLE, 3L);
        assertFalse(big.forward(GradientCheck.random(1, 1.0, 1, 17, 4), Arena.none()).javaKernel());
    }

    @Test
    void aHugeNegativeMaskEqualsRemovingThePair() {
        MultiHeadSelfAttention attn = new MultiHeadSelfAttention(4, 1, DataType.DOUBLE, 3L);
        INDArray x = GradientCheck.random(2, 1.0, 2, 3, 4);
        INDArray inf = Nd4j.zeros(DataType.DOUBLE, 3, 3);
        inf.putScalar(2, 0, Double.NEGATIVE_INFINITY);
        INDArray big = Nd4j.zeros(DataType.DOUBLE, 3, 3);
        big.putScalar(2, 0, -1e4);
        double[] a = Naive.flat(attn.forward(x, inf, Arena.none()).output());
        double[] b = Naive.flat(attn.forward(x, big, Arena.none()).output());
        assertArrayEquals(a, b, 1e-12);
    }

    @Test
    void arenaReuse() {
        MultiHeadSelfAttention attn = layer(8, 2, Kernel.JAVA, DataType.FLOAT);
        INDArray x = GradientCheck.random(1, 1.0, 3, 5, 8).castTo(DataType.FLOAT);
        INDArray dy = GradientCheck.random(2, 1.0, 3, 5, 8).castTo(DataType.FLOAT);
        INDArray m = sharedMask(5, DataType.FLOAT);
        Arena arena = Arena.create();
        MultiHeadSelfAttention.Cache c = attn.forward(x, m, arena);
        INDArray y1 = c.output().dup();
        INDArray dx1 = attn.backward(c, dy, arena).dup();
        int size = arena.size();
        arena.reset();
        c = attn.forward(x, m, arena);
        INDArray dx2 = attn.backward(c, dy, arena);
        assertEquals(size, arena.size());
        assertEquals(y1, c.output());
        assertEquals(dx1, dx2);
    }

    @Test
    void rejectsBadArguments() {
        MultiHeadSelfAttention attn = layer(4, 2, Kernel.JAVA, DataType.FLOAT);
        INDArray x = Nd4j.zeros(DataType.FLOAT, 2, 3, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> attn.forward(x, Nd4j.zeros(DataType.FLOAT, 3, 4), Arena.none()));
        assertEquals("mask must have shape [3, 3] or [2, 3, 3], got [3, 4]", e.getMessage());
        INDArray nan = Nd4j.zeros(DataType.FLOAT, 3, 3);
        nan.putScalar(1, 1, Double.NaN);
        e = assertThrows(IllegalArgumentException.class, () -> attn.forward(x, nan, Arena.none()));
        assertEquals("mask must be finite or -inf everywhere, got NaN at flat index 4", e.getMessage());
        INDArray dead = Nd4j.zeros(DataType.FLOAT, 3, 3);
        dead.putScalar(0, 0, Double.NEGATIVE_INFINITY);
        e = assertThrows(IllegalArgumentException.class, () -> attn.forward(x, dead, Arena.none()));
        assertEquals("mask must leave at least one finite score per row, got none at batch 0, head 0, position 0",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> layer(4, 2, Kernel.ND4J, DataType.FLOAT).forward(x, dead, Arena.none()));
        assertTrue(e.getMessage().startsWith("mask must leave at least one finite score per row"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> attn.forward(Nd4j.zeros(DataType.FLOAT, 3, 4),
                Arena.none()));
        assertEquals("input must have rank 3, got shape [3, 4]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> layer(6, 4, Kernel.AUTO, DataType.FLOAT));
        assertEquals("heads must divide d = 6, got 4", e.getMessage());
    }
}
