package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.regheads.core.internal.Host;
import io.regheads.core.testing.GradientCheck;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The key/value-cached step ({@link TransformerBlock.Snapshot}) against its reference, the causal training forward
 * of the same block: position by position, each step's output rows equal the forward's rows at that position (to
 * 1e-12 in DOUBLE; FLOAT to 2e-5, the float products and activations against the forward's float residual). The
 * tabulated form equals the plain step on the table's rows (1e-12 in DOUBLE: the same function, the output
 * projection applied per head before the sum instead of after), and copied cache rows continue as the originals.
 */
class TransformerBlockStepTest {

    static Stream<Arguments> blocks() {
        return Stream.of(Arguments.of(DataType.DOUBLE, TransformerBlock.Activation.GELU, 1e-12),
                Arguments.of(DataType.DOUBLE, TransformerBlock.Activation.RELU, 1e-12),
                Arguments.of(DataType.FLOAT, TransformerBlock.Activation.GELU, 2e-5),
                Arguments.of(DataType.FLOAT, TransformerBlock.Activation.RELU, 2e-5));
    }

    static TransformerBlock block(DataType type, TransformerBlock.Activation activation) {
        TransformerBlock blk = new TransformerBlock("blk", new TransformerBlock.Config(8, 2, 12, activation),
                MultiHeadSelfAttention.Kernel.JAVA, type, Tensors.rng(11));
        blk.ln1().gain().value().assign(GradientCheck.random(1, 0.5, 8).addi(1).castTo(type));
        blk.ln2().bias().value().assign(GradientCheck.random(2, 0.5, 8).castTo(type));
        return blk;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("blocks")
    void stepsEqualTheCausalForward(DataType type, TransformerBlock.Activation activation, double tol) {
        TransformerBlock blk = block(type, activation);
        int b = 3;
        int t = 5;
        int d = 8;
        INDArray x = GradientCheck.random(7, 1.0, b, t, d).castTo(type); // [B, T, d]
        double[] xs = Host.doubles(x);
        double[] full = Host.doubles(blk.forward(x, Arena.create()).output()); // [B, T, d]
        TransformerBlock.Snapshot s = blk.snapshot();
        CachedAttention.KeyValues kv = s.newCache(b, t);
        for (int p = 0; p < t; p++) {
            double[] rows = new double[b * d];
            for (int r = 0; r < b; r++) {
                System.arraycopy(xs, (r * t + p) * d, rows, r * d, d);
            }
            s.step(rows, b, p, kv);
            for (int r = 0; r < b; r++) {
                for (int j = 0; j < d; j++) {
                    assertEquals(full[(r * t + p) * d + j], rows[r * d + j], tol, "row " + r + " pos " + p);
                }
            }
            if (p == 1) { // rows reversed twice through copies: the caches follow their rows
                kv = kv.select(new int[] {2, 1, 0}, p + 1).select(new int[] {2, 1, 0}, p + 1);
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("blocks")
    void theTabulatedFormEqualsThePlainStep(DataType type, TransformerBlock.Activation activation, double tol) {
        TransformerBlock.Snapshot s = block(type, activation).snapshot();
        int b = 4;
        int t = 4;
        int d = 8;
        int k = 6;
        double[] table = Host.doubles(GradientCheck.random(21, 1.0, k, d)); // [K, d] the possible inputs
        TransformerBlock.Tabulated tab = s.tabulated(table, k);
        CachedAttention.KeyValues plain = s.newCache(b, t);
        CachedAttention.KeyValues looked = tab.newCache(b, t);
        double[] first = Host.doubles(GradientCheck.random(22, 1.0, b, d)); // row-specific inputs at position 0
        double[] xp = first.clone();
        double[] xt = first.clone();
        s.step(xp, b, 0, plain);
        tab.step(xt, b, 0, null, looked);
        assertRowsEqual(xp, xt, type == DataType.DOUBLE ? 1e-12 : tol, 0);
        for (int p = 1; p < t; p++) {
            int[] ids = new int[b];
            double[] in = new double[b * d];
            for (int r = 0; r < b; r++) {
                ids[r] = (r * 5 + p * 3) % k;
                System.arraycopy(table, ids[r] * d, in, r * d, d);
            }
            xp = in.clone();
            xt = in.clone();
            s.step(xp, b, p, plain);
            tab.step(xt, b, p, ids, looked);
            assertRowsEqual(xp, xt, type == DataType.DOUBLE ? 1e-12 : tol, p);
        }
    }

    private static void assertRowsEqual(double[] want, double[] got, double tol, int p) {
        for (int i = 0; i < want.length; i++) {
            assertEquals(want[i], got[i], tol, "entry " + i + " pos " + p + ": " + Arrays.toString(got));
        }
    }
}
