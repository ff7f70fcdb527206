package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.testing.GradientCheck;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The FLOAT kernels (FloatKernels, float GELU) against the gradient-checked DOUBLE kernels: same weights (the
 * initialisers draw doubles and cast), same input and dOut, forward and backward within float tolerance.
 */
class FloatDoubleAgreementTest {

    private static <C extends Layer.Cache> void agree(Function<DataType, Layer<C>> make, long[] shape, double tol) {
        Layer<C> f = make.apply(DataType.FLOAT);
        Layer<C> d = make.apply(DataType.DOUBLE);
        INDArray x = GradientCheck.random(31, 1.0, shape);
        C cf = f.forward(x.castTo(DataType.FLOAT), Arena.create());
        C cd = d.forward(x, Arena.create());
        INDArray dy = GradientCheck.randomLike(cd.output(), 32);
        double fwd = Naive.maxAbsDiff(Naive.flat(cf.output()), Naive.flat(cd.output()));
        assertTrue(fwd < tol, f + " forward differs by " + fwd);
        double bwd = Naive.maxAbsDiff(Naive.flat(f.backward(cf, dy.castTo(DataType.FLOAT), Arena.create())),
                Naive.flat(d.backward(cd, dy, Arena.create())));
        assertTrue(bwd < tol, f + " dInput differs by " + bwd);
        for (int i = 0; i < f.params().size(); i++) {
            double g = Naive.maxAbsDiff(Naive.flat(f.params().get(i).grad()), Naive.flat(d.params().get(i).grad()));
            assertTrue(g < 10 * tol, f.params().get(i).name() + " gradient differs by " + g);
        }
    }

    @Test
    void layerNorm() {
        agree(t -> {
            LayerNorm ln = new LayerNorm(16, t);
            ln.gain().value().assign(GradientCheck.random(1, 1.0, 16).castTo(t));
            return ln;
        }, new long[] {6, 5, 16}, 1e-5);
    }

    @Test
    void reluAndGelu() {
        agree(t -> new ReLU(), new long[] {7, 9}, 1e-6);
        agree(t -> new GELU(), new long[] {7, 9}, 2e-6);
    }

    @Test
    void attentionAndBlock() {
        agree(t -> new MultiHeadSelfAttention("a", 8, 2, MultiHeadSelfAttention.Kernel.JAVA, t, Tensors.rng(3)),
                new long[] {4, 6, 8}, 2e-5);
        agree(t -> new TransformerBlock("b", new TransformerBlock.Config(8, 2, 16),
                MultiHeadSelfAttention.Kernel.JAVA, t, Tensors.rng(4)), new long[] {4, 6, 8}, 5e-5);
    }

    @Test
    void encoder() {
        agree(t -> new MlpEncoder(new MlpEncoderConfig(5, 3, 32, 9L), t), new long[] {12, 5}, 2e-5);
    }
}
