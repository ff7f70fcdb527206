package io.regheads.core.nn;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Rectified linear unit, elementwise: {@code y = max(x, 0)}; backward {@code dx = dy * 1[y > 0]} (the derivative at
 * exactly 0 is taken as 0, as in PyTorch).
 *
 * <p>Any shape; FLOAT or DOUBLE; the output has the input's shape and type. A plain-Java kernel over the host buffer
 * (one pass, no ND4J dispatch). NaN inputs propagate as NaN (no scan). Stateless and thread-safe.
 */
public final class ReLU implements Layer<ReLU.Cache> {

    /** @param output max(x, 0), same shape as the input */
    public record Cache(INDArray output) implements Layer.Cache {}

    @Override
    public List<Param> params() {
        return List.of();
    }

    /** @throws IllegalArgumentException if the input is null, empty, or not FLOAT/DOUBLE */
    @Override
    public Cache forward(INDArray input, Arena arena) {
        Activations.checkInput(input);
        INDArray x = Tensors.contiguous(input);
        INDArray y = arena.get(x.dataType(), x.shape());
        Vec xv = Vec.of(x);
        Vec yv = Vec.of(y);
        int n = Math.toIntExact(x.length());
        for (int i = 0; i < n; i++) {
            double v = xv.get(i);
            yv.set(i, v > 0 ? v : 0.0);
        }
        return new Cache(y);
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray dy = Tensors.contiguous(dOut);
        INDArray dx = arena.get(dy.dataType(), dy.shape());
        Vec yv = Vec.of(cache.output());
        Vec dyv = Vec.of(dy);
        Vec dxv = Vec.of(dx);
        int n = Math.toIntExact(dy.length());
        for (int i = 0; i < n; i++) {
            dxv.set(i, yv.get(i) > 0 ? dyv.get(i) : 0.0);
        }
        return dx;
    }

    @Override
    public String toString() {
        return "ReLU";
    }
}
