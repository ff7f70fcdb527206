package io.regheads.core.nn;

import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A differentiable building block with explicit forward and backward (llm.c style).
 *
 * <p>{@code forward} returns an immutable cache holding the output and whatever backward needs; the layer object
 * keeps no per-call state. {@code backward} <em>adds</em> into the parameters' gradients and returns the gradient
 * with respect to the input. Arrays in a cache come from the given {@link Arena} and stay valid until its next
 * {@code reset()}.
 *
 * @param <C> the cache type
 */
public interface Layer<C extends Layer.Cache> {

    /** What a forward pass leaves for backward; {@link #output()} is the layer's result. */
    interface Cache {
        /** {@return the layer's result} */
        INDArray output();
    }

    /** Trainable parameters in a fixed order (empty for parameter-free layers). */
    List<Param> params();

    /**
     * Computes the layer's output into arena buffers.
     *
     * @param input the input, the parameters' type
     * @param arena scratch buffers for this pass
     * @return the cache for {@link #backward}, holding the output
     */
    C forward(INDArray input, Arena arena);

    /**
     * @param cache  from {@link #forward} on the same layer
     * @param dOut   d(loss)/d(output), same shape as {@code cache.output()}
     * @return d(loss)/d(input)
     */
    INDArray backward(C cache, INDArray dOut, Arena arena);
}
