package io.regheads.core.head;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Turns features {@code phi [B, D]} from any encoder into a predictive distribution over y.
 *
 * <p>Training: {@code targets(y)} converts labels into what the head's losses compare with; {@code forward}
 * returns the output and an immutable cache of type {@code C}; a loss fills {@code dOutput}; {@code backward} takes
 * that cache back, adds the parameter gradients into {@link Param#grad()} and returns {@code dPhi [B, D]} for the
 * encoder. The cache type is the head's own (e.g. {@code Linear.Cache} for a one-layer head), so a head never
 * casts what it gets back; code that holds a {@code RegressionHead<?>} runs forward and backward in one generic
 * method:
 * <pre>{@code
 * static <C> INDArray step(RegressionHead<C> head, INDArray phi, Targets t, Loss loss, Arena arena) {
 *     RegressionHead.Forward<C> f = head.forward(phi, t, arena);
 *     HeadOutput dOut = f.output().zerosLike(arena);
 *     loss.accumulate(f.output(), t, 1.0, dOut, new double[t.batchSize()]);
 *     return head.backward(f, dOut, arena);
 * }
 * }</pre>
 *
 * <p>Inference: {@code distribution(phi)} gives B distributions (a decoder samples or walks its digit tree from
 * phi, so the distribution takes phi rather than one output).
 *
 * <p>Parameters change only in optimizer steps; a head is otherwise safe for concurrent forward passes with
 * separate arenas.
 *
 * @param <C> the head's cache: what {@code forward} keeps for {@code backward} (immutable)
 */
public interface RegressionHead<C> {

    /** Feature width D this head takes. */
    int inputWidth();

    /** The trainable parameters, in a fixed order. */
    List<Param> params();

    /**
     * Converts labels (in the head's y units) into targets for its losses.
     *
     * @param y {@code [B]} finite values
     * @throws IllegalArgumentException if a value is outside what the head can represent
     */
    Targets targets(double[] y);

    /**
     * One forward pass.
     *
     * @param phi     {@code [B, D]}
     * @param targets the targets when training (decoders teacher-force on them); may be null at inference for
     *                heads that do not need them
     * @param arena   where scratch buffers come from
     * @return the output and this head's cache
     */
    Forward<C> forward(INDArray phi, Targets targets, Arena arena);

    /**
     * Backpropagates {@code dOutput} (same form as {@code forward.output()}); adds parameter gradients.
     *
     * @param forward what {@link #forward} returned on this head
     * @param dOutput d(loss)/d(output), the same form and shapes as {@code forward.output()}
     * @param arena   where scratch buffers come from
     * @return {@code dPhi [B, D]}
     * @throws IllegalArgumentException if dOutput is not of the form forward produced
     */
    INDArray backward(Forward<C> forward, HeadOutput dOutput, Arena arena);

    /** The predictive distributions for B rows of features. */
    PredictiveDistribution distribution(INDArray phi);

    /**
     * The result of a forward pass: the output a loss sees and the head's own cache for backward.
     *
     * @param output what losses see
     * @param cache  the head's intermediate values (immutable), for its backward
     * @param <C>    the head's cache type
     */
    record Forward<C>(HeadOutput output, C cache) {}
}
