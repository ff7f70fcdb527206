package io.regheads.core.optim;

import io.regheads.core.nn.Param;
import java.util.List;

/**
 * A first-order optimizer over a fixed list of {@link Param}s: {@link #step()} reads every {@code param.grad()}
 * and updates {@code param.value()} in place.
 *
 * <p>Typical loop: {@code zeroGrad(); loss = model.trainStep(...); [clip]; step();}. The optimizer never zeroes
 * the gradients itself (backward passes <em>add</em> into them), so {@link #zeroGrad()} is the caller's separate
 * call.
 *
 * <p>Implementations hold per-parameter state (moments) and are <b>not thread-safe</b>: one optimizer per
 * training loop.
 */
public interface Optimizer {

    /** The parameters this optimizer updates, in a fixed order (unmodifiable). */
    List<Param> params();

    /** Applies one update to every parameter from its current gradient; increments {@link #iterations()}. */
    void step();

    /** Number of {@link #step()} calls so far (the bias-correction counter t of Adam). */
    long iterations();

    /** The current learning rate. */
    double learningRate();

    /**
     * Changes the learning rate for the following steps (for schedules); the moment state is kept.
     *
     * @throws IllegalArgumentException unless {@code learningRate > 0} and finite
     */
    void setLearningRate(double learningRate);

    /** Sets every parameter's gradient to zero. */
    default void zeroGrad() {
        for (Param p : params()) {
            p.zeroGrad();
        }
    }
}
