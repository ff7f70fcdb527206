package io.regheads.core.nn;

import io.regheads.core.internal.Activations;
import io.regheads.core.internal.Host;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Rectified linear unit, elementwise: {@code y = max(x, 0)}; backward {@code dx = dy * 1[y > 0]} (the derivative at
 * exactly 0 is taken as 0, as in PyTorch).
 *
 * <p>Any shape; FLOAT or DOUBLE; the output has the input's shape and type. A plain-Java kernel over host copies of the
 * arrays (arena scratch; no ND4J dispatch). NaN inputs propagate as NaN (no scan). Stateless and thread-safe.
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
        int n = Math.toIntExact(x.length());
        if (x.dataType() == DataType.FLOAT) {
            float[] ya = arena.floats(n);
            FloatKernels.relu(arena.floatsOf(x), ya);
            Host.write(ya, y);
        } else {
            double[] ya = arena.doubles(n);
            DoubleKernels.relu(arena.doublesOf(x), ya);
            Host.write(ya, y);
        }
        return new Cache(y);
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray dy = Tensors.contiguous(dOut);
        INDArray dx = arena.get(dy.dataType(), dy.shape());
        int n = Math.toIntExact(dy.length());
        if (dy.dataType() == DataType.FLOAT) {
            float[] dxa = arena.floats(n);
            FloatKernels.reluBackward(arena.floatsOf(cache.output()), arena.floatsOf(dy), dxa);
            Host.write(dxa, dx);
        } else {
            double[] dxa = arena.doubles(n);
            DoubleKernels.reluBackward(arena.doublesOf(cache.output()), arena.doublesOf(dy), dxa);
            Host.write(dxa, dx);
        }
        return dx;
    }

    @Override
    public String toString() {
        return "ReLU";
    }
}
