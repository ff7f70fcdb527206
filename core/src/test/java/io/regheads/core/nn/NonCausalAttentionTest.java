package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.nn.MultiHeadSelfAttention.Kernel;
import io.regheads.core.testing.GradientCheck;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The bidirectional (non-causal) attention path added for sequence encoders, with a padding mask. */
class NonCausalAttentionTest {

    static final int B = 2;
    static final int T = 4;
    static final int D = 4;

    /** Padding mask [B, T, T]: example 0 has all 4 positions real, example 1 only the first 2 (columns 2, 3 = -inf). */
    static INDArray paddingMask(DataType type) {
        INDArray m = Nd4j.zeros(DataType.DOUBLE, B, T, T);
        for (int t = 0; t < T; t++) {
            m.putScalar(new long[] {1, t, 2}, Double.NEGATIVE_INFINITY);
            m.putScalar(new long[] {1, t, 3}, Double.NEGATIVE_INFINITY);
        }
        return m.castTo(type);
    }

    /**
     * Independent reference: plain-loop softmax attention over all allowed u (no causal cut), one head, from the
     * layer's own q, k, v projections and output projection.
     */
    static double[] naive(MultiHeadSelfAttention attn, double[] x, double[] mask) {
        double[] qkv = Naive.linear(x, Naive.flat(attn.qkv().weight().value()), Naive.flat(attn.qkv().bias().value()),
                B * T, D, 3 * D);
        double[] a = new double[B * T * D];
        for (int b = 0; b < B; b++) {
            for (int t = 0; t < T; t++) {
                double[] s = new double[T];
                double max = Double.NEGATIVE_INFINITY;
                for (int u = 0; u < T; u++) {
                    double dot = 0;
                    for (int e = 0; e < D; e++) {
                        dot += qkv[(b * T + t) * 3 * D + e] * qkv[(b * T + u) * 3 * D + D + e];
                    }
                    s[u] = dot / Math.sqrt(D) + mask[(b * T + t) * T + u];
                    max = Math.max(max, s[u]);
                }
                double z = 0;
                for (int u = 0; u < T; u++) {
                    s[u] = Math.exp(s[u] - max);
                    z += s[u];
                }
                for (int u = 0; u < T; u++) {
                    for (int e = 0; e < D; e++) {
                        a[(b * T + t) * D + e] += s[u] / z * qkv[(b * T + u) * 3 * D + 2 * D + e];
                    }
                }
            }
        }
        return Naive.linear(a, Naive.flat(attn.out().weight().value()), Naive.flat(attn.out().bias().value()), B * T,
                D, D);
    }

    @ParameterizedTest
    @EnumSource(value = Kernel.class, names = {"JAVA", "ND4J"})
    void matchesThePlainLoopReferenceAndSeesLaterPositions(Kernel kernel) {
        MultiHeadSelfAttention attn = new MultiHeadSelfAttention("attn", D, 1, kernel, false, DataType.DOUBLE,
                Tensors.rng(17));
        INDArray x = GradientCheck.random(5, 1.0, B, T, D);
        INDArray mask = paddingMask(DataType.DOUBLE);
        double[] got = Naive.flat(attn.forward(x, mask, Arena.none()).output());
        double[] want = naive(attn, Naive.flat(x), Naive.flat(mask));
        assertTrue(Naive.maxAbsDiff(got, want) < 1e-12, "max diff " + Naive.maxAbsDiff(got, want));
        // Non-causal: position 0 of example 0 changes when position 3 changes (a causal layer would not move).
        INDArray x2 = x.dup();
        x2.putScalar(new long[] {0, 3, 0}, x.getDouble(0, 3, 0) + 1.0);
        double moved = attn.forward(x2, mask, Arena.none()).output().getDouble(0, 0, 0) - got[0];
        assertTrue(Math.abs(moved) > 1e-6, "position 0 did not see position 3: change " + moved);
        // Padding: example 1's real positions ignore its padded positions 2 and 3.
        INDArray x3 = x.dup();
        x3.putScalar(new long[] {1, 3, 1}, 100.0);
        double padMoved = attn.forward(x3, mask, Arena.none()).output().getDouble(1, 0, 0) - got[T * D];
        assertEquals(0.0, padMoved, 1e-12);
    }

    @ParameterizedTest
    @EnumSource(value = Kernel.class, names = {"JAVA", "ND4J"})
    void passesTheGradientCheckWithAPaddingMask(Kernel kernel) {
        MultiHeadSelfAttention attn = new MultiHeadSelfAttention("attn", D, 2, kernel, false, DataType.DOUBLE,
                Tensors.rng(17));
        INDArray x = GradientCheck.random(5, 1.0, B, T, D);
        double worst = GradientCheck.checkLayer(
                new MultiHeadSelfAttentionTest.Masked(attn, paddingMask(DataType.DOUBLE)), x, 6,
                Tolerances.NOISE_FLOORED);
        assertTrue(worst < 1e-5);
    }

    @ParameterizedTest
    @EnumSource(value = Kernel.class, names = {"JAVA", "ND4J"})
    void nonCausalBlockPassesTheGradientCheck(Kernel kernel) {
        TransformerBlock blk = new TransformerBlock("block", new TransformerBlock.Config(D, 2, 8), kernel, false,
                DataType.DOUBLE, Tensors.rng(3));
        INDArray x = GradientCheck.random(7, 1.0, B, T, D);
        INDArray mask = paddingMask(DataType.DOUBLE);
        Layer<TransformerBlock.Cache> masked = new Layer<>() {
            @Override
            public java.util.List<Param> params() {
                return blk.params();
            }

            @Override
            public TransformerBlock.Cache forward(INDArray input, Arena arena) {
                return blk.forward(input, mask, arena);
            }

            @Override
            public INDArray backward(TransformerBlock.Cache cache, INDArray dOut, Arena arena) {
                return blk.backward(cache, dOut, arena);
            }
        };
        assertTrue(GradientCheck.checkLayer(masked, x, 8, Tolerances.NOISE_FLOORED) < 1e-5);
    }

    @ParameterizedTest
    @EnumSource(value = Kernel.class, names = {"JAVA", "ND4J"})
    void floatAgreesWithDouble(Kernel kernel) {
        MultiHeadSelfAttention d = new MultiHeadSelfAttention("attn", D, 2, kernel, false, DataType.DOUBLE,
                Tensors.rng(17));
        MultiHeadSelfAttention f = new MultiHeadSelfAttention("attn", D, 2, kernel, false, DataType.FLOAT,
                Tensors.rng(17));
        INDArray x = GradientCheck.random(5, 1.0, B, T, D);
        double[] yd = Naive.flat(d.forward(x, paddingMask(DataType.DOUBLE), Arena.none()).output());
        double[] yf = Naive.flat(f.forward(x.castTo(DataType.FLOAT), paddingMask(DataType.FLOAT), Arena.none())
                .output().castTo(DataType.DOUBLE));
        assertTrue(Naive.maxAbsDiff(yd, yf) < 1e-5, "float vs double " + Naive.maxAbsDiff(yd, yf));
    }
}
