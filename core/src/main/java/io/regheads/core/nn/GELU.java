package io.regheads.core.nn;

import io.regheads.core.Checks;
import java.util.List;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Gaussian error linear unit, elementwise, in one of two documented forms:
 * <ul>
 *   <li>{@link Form#TANH} (default, GPT-2 / llm.c): {@code y = 0.5 x (1 + tanh(u))}, {@code u = sqrt(2/pi) (x +
 *       0.044715 x^3)}; {@code dy/dx = 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)}, t = tanh(u).
 *       PyTorch: {@code nn.GELU(approximate="tanh")}. Differs from the exact form by at most about 5e-4.</li>
 *   <li>{@link Form#ERF} (exact): {@code y = x Phi(x)}, Phi the standard normal CDF; {@code dy/dx = Phi(x) + x
 *       phi(x)}. PyTorch: {@code nn.GELU()}.</li>
 * </ul>
 * Not ND4J's GELU op (which is the sigmoid approximation {@code x sigmoid(1.702 x)} and slow in this build): a
 * plain-Java kernel over the host buffer. For FLOAT arrays the TANH form evaluates tanh by a float-accurate rational
 * approximation (error < 2e-7, see {@code Activations.fastTanh}); DOUBLE arrays use {@link Math#tanh}, so gradient
 * checks see the exact function. The forward pass keeps t (or Phi) in the cache, so backward needs no
 * transcendental call for TANH.
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

    private static final double C = Math.sqrt(2.0 / Math.PI);
    private static final double A = 0.044715;
    private static final double INV_SQRT_2PI = 1.0 / Math.sqrt(2 * Math.PI);
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0, 1);

    private final Form form;

    public GELU(Form form) {
        this.form = Checks.notNull("form", form);
    }

    /** The TANH form. */
    public GELU() {
        this(Form.TANH);
    }

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
        Vec xv = Vec.of(x);
        Vec av = Vec.of(aux);
        Vec yv = Vec.of(y);
        int n = Math.toIntExact(x.length());
        if (form == Form.TANH) {
            boolean fast = x.dataType() == DataType.FLOAT;
            for (int i = 0; i < n; i++) {
                double v = xv.get(i);
                double u = C * (v + A * v * v * v);
                double t = fast ? Activations.fastTanh(u) : Math.tanh(u);
                av.set(i, t);
                yv.set(i, 0.5 * v * (1 + t));
            }
        } else {
            for (int i = 0; i < n; i++) {
                double v = xv.get(i);
                double p = STANDARD_NORMAL.cumulativeProbability(v);
                av.set(i, p);
                yv.set(i, v * p);
            }
        }
        return new Cache(x, aux, y);
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray dy = Tensors.contiguous(dOut);
        INDArray dx = arena.get(dy.dataType(), dy.shape());
        Vec xv = Vec.of(cache.input());
        Vec av = Vec.of(cache.aux());
        Vec dyv = Vec.of(dy);
        Vec dxv = Vec.of(dx);
        int n = Math.toIntExact(dy.length());
        if (form == Form.TANH) {
            for (int i = 0; i < n; i++) {
                double v = xv.get(i);
                double t = av.get(i);
                // y = 0.5 x (1 + tanh(C (x + A x^3)))
                double g = 0.5 * (1 + t) + 0.5 * v * (1 - t * t) * C * (1 + 3 * A * v * v);
                dxv.set(i, dyv.get(i) * g);
            }
        } else {
            for (int i = 0; i < n; i++) {
                double v = xv.get(i);
                // y = x Phi(x)
                double g = av.get(i) + v * INV_SQRT_2PI * Math.exp(-0.5 * v * v);
                dxv.set(i, dyv.get(i) * g);
            }
        }
        return dx;
    }

    @Override
    public String toString() {
        return "GELU(" + form + ")";
    }
}
