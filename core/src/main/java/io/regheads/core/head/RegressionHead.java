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
 * returns the output and an immutable cache; a loss fills {@code dOutput}; {@code backward} adds the parameter
 * gradients into {@link Param#grad()} and returns {@code dPhi [B, D]} for the encoder.
 *
 * <p>Inference: {@code distribution(phi)} gives B distributions (a decoder samples or walks its digit tree from
 * phi, so the distribution takes phi rather than one output).
 *
 * <p>Parameters change only in optimizer steps; a head is otherwise safe for concurrent forward passes with
 * separate arenas.
 */
public interface RegressionHead {

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
     */
    Forward forward(INDArray phi, Targets targets, Arena arena);

    /**
     * Backpropagates {@code dOutput} (same form as {@code forward.output()}); adds parameter gradients.
     *
     * @return {@code dPhi [B, D]}
     */
    INDArray backward(Forward forward, HeadOutput dOutput, Arena arena);

    /** The predictive distributions for B rows of features. */
    PredictiveDistribution distribution(INDArray phi);

    /**
     * The result of a forward pass: the output a loss sees and the head's own cache for backward.
     *
     * @param output what losses see
     * @param cache  head-private intermediate values (immutable)
     */
    record Forward(HeadOutput output, Object cache) {}
}
