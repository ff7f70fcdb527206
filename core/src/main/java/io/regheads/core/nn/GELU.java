package io.regheads.core.nn;

import io.regheads.core.internal.Activations;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import java.util.List;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Gaussian error linear unit, elementwise, in one of two documented forms:
 * <ul>
 *   <li>{@link Form#TANH} (default, GPT-2 / llm.c): {@code y = 0.5 x (1 + tanh(u))}, {@code u = sqrt(2/pi) (x +
 *       0.044715 x^3)}; {@code dy/dx = 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)},
 *       t = tanh(u).
 *       PyTorch: {@code nn.GELU(approximate="tanh")}. Differs from the exact form by at most 4.8e-4 (grid on [-6, 6]).</li>
 *   <li>{@link Form#ERF} (exact): {@code y = x Phi(x)}, Phi the standard normal CDF; {@code dy/dx = Phi(x) + x
 *       phi(x)}. PyTorch: {@code nn.GELU()}.</li>
 * </ul>
 * Not ND4J's GELU op (which is the sigmoid approximation {@code x sigmoid(1.702 x)} and slow in this build): a
 * plain-Java kernel. For FLOAT arrays the TANH form evaluates tanh by a float-accurate rational approximation
 * (error &lt; 4e-7) in float arithmetic over host copies, so the loop vectorises; DOUBLE arrays use {@link Math#tanh},
 * so gradient checks see the exact function. The forward pass keeps t (or Phi) in the cache, so backward needs no
 * transcendental call for TANH. In FLOAT, (1 - t^2) loses precision where tanh rounds to +-1 (abs error of dy/dx up
 * to ~3e-6 for 4 &lt; |x| &lt; 6, where the true slope is ~0), as in PyTorch's float32 kernel.
 *
 * <p>Example (TANH): GELU(1) = 0.8411920, GELU(-1) = -0.1588080 (exact form: 0.8413447, -0.1586553).
 *
 * <p>Any shape; FLOAT or DOUBLE; NaN propagates (no scan). Immutable and thread-safe.
 */
public final class GELU implements Layer<GELU.Cache> {

    /** Which GELU. */
    public enum Form {
        /** 0.5 x (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))). */
        TANH,
        /** x Phi(x). */
        ERF
    }

    /**
     * @param input  the forward input (contiguous)
     * @param aux    tanh(u) for TANH, Phi(x) for ERF; same shape
     * @param output y, same shape
     */
    public record Cache(INDArray input, INDArray aux, INDArray output) implements Layer.Cache {}

    private static final double INV_SQRT_2PI = 1.0 / Math.sqrt(2 * Math.PI);
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

    private final Form form;

    /**
     * A GELU of the given form.
     *
     * @param form the exact (erf) or tanh form
     */
    public GELU(Form form) {
        this.form = Checks.notNull("form", form);
    }

    /** The TANH form. */
    public GELU() {
        this(Form.TANH);
    }

    /** {@return the form} */
    public Form form() {
        return form;
    }

    @Override
    public List<Param> params() {
        return List.of();
    }

    /** @throws IllegalArgumentException if the input is null, empty, or not FLOAT/DOUBLE */
    @Override
    public Cache forward(INDArray input, Arena arena) {
        Activations.checkInput(input);
        INDArray x = Tensors.contiguous(input);
        INDArray aux = arena.get(x.dataType(), x.shape());
        INDArray y = arena.get(x.dataType(), x.shape());
        int n = Math.toIntExact(x.length());
        if (form == Form.TANH) {
            if (x.dataType() == DataType.FLOAT) {
                float[] ta = arena.floats(n);
                float[] ya = arena.floats(n);
                Activations.geluTanh(arena.floatsOf(x), ta, ya);
                Host.write(ta, aux);
                Host.write(ya, y);
            } else {
                double[] ta = arena.doubles(n);
                double[] ya = arena.doubles(n);
                Activations.geluTanh(arena.doublesOf(x), ta, ya);
                Host.write(ta, aux);
                Host.write(ya, y);
            }
        } else {
            double[] xv = arena.doublesOf(x);
            double[] av = arena.doubles(n);
            double[] yv = arena.doubles(n);
            for (int i = 0; i < n; i++) {
                double v = xv[i];
                double p = STANDARD_NORMAL.cumulativeProbability(v);
                av[i] = p;
                yv[i] = v * p;
            }
            Host.write(av, aux);
            Host.write(yv, y);
        }
        return new Cache(x, aux, y);
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray dy = Tensors.contiguous(dOut);
        INDArray dx = arena.get(dy.dataType(), dy.shape());
        int n = Math.toIntExact(dy.length());
        if (form == Form.TANH) {
            if (dy.dataType() == DataType.FLOAT) {
                float[] dxa = arena.floats(n);
                Activations.geluTanhBackward(arena.floatsOf(cache.input()), arena.floatsOf(cache.aux()),
                        arena.floatsOf(dy), dxa);
                Host.write(dxa, dx);
            } else {
                double[] dxa = arena.doubles(n);
                Activations.geluTanhBackward(arena.doublesOf(cache.input()), arena.doublesOf(cache.aux()),
                        arena.doublesOf(dy), dxa);
                Host.write(dxa, dx);
            }
        } else {
            double[] xv = arena.doublesOf(cache.input());
            double[] av = arena.doublesOf(cache.aux());
            double[] dyv = arena.doublesOf(dy);
            double[] dxv = arena.doubles(n);
            for (int i = 0; i < n; i++) {
                double v = xv[i];
                // y = x Phi(x)
                double g = av[i] + v * INV_SQRT_2PI * Math.exp(-0.5 * v * v);
                dxv[i] = dyv[i] * g;
            }
            Host.write(dxv, dx);
        }
        return dx;
    }

    @Override
    public String toString() {
        return "GELU(" + form + ")";
    }
}
