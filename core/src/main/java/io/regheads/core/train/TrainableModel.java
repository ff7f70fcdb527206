package io.regheads.core.train;

import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import java.util.List;
import java.util.Optional;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * What the {@link Trainer} needs from a model: its parameters, a training step (forward, loss, backward) and a
 * validation loss. An encoder plus a head plus a loss, or any hand-written model, implements this in a few lines.
 *
 * <p>Contract of {@link #trainStep}: the trainer has zeroed every gradient and reset the arena; the model runs
 * forward, computes the <em>mean</em> loss over the B rows, runs backward so that each {@code param.grad()} holds
 * d(mean loss)/d(param) (backward adds into the zeroed gradients), and returns the mean loss. It must not change
 * {@code param.value()} (the optimizer does) and must not reset the arena.
 *
 * <p>Shapes: x {@code [B, D]} of {@link #dataType()}, c-ordered, owned by the trainer and overwritten on the next
 * step; y {@code [B]} targets (already scaled by the caller if the head needs it), also reused. B may differ
 * between calls (the last mini-batch of an epoch is smaller).
 *
 * <p>Implementations are usually not thread-safe (parameters and gradients change).
 */
public interface TrainableModel {

    /** All trainable parameters, in a fixed order (the list the optimizer updates). */
    List<Param> params();

    /**
     * Forward + loss + backward on one mini-batch.
     *
     * @param x     {@code [B, D]} features
     * @param y     {@code [B]} targets
     * @param arena scratch buffers for this step (reset by the trainer just before the call)
     * @return the mean loss over the B rows (a non-finite value stops training as diverged)
     */
    double trainStep(INDArray x, double[] y, Arena arena);

    /**
     * The mean loss over the rows, without touching gradients or parameters (validation).
     *
     * @param x     {@code [B, D]}
     * @param y     {@code [B]}
     * @param arena scratch buffers (reset by the trainer just before the call)
     * @return mean loss over the B rows
     */
    double evaluate(INDArray x, double[] y, Arena arena);

    /**
     * Looks for a model that trained without a numeric failure but predicts uselessly, e.g. a histogram whose
     * encoder died (every row gets the same distribution) or distributions that miss nearly every target. The
     * trainer calls it once after a run that did not diverge, on the weights it leaves in the model, with up to
     * {@value Trainer#DIAGNOSE_ROWS} validation rows (training rows without a validation set); a non-empty answer
     * ends the run as {@link TrainingResult.StopReason#FAILED} with that text, as does an exception (its message is
     * kept). It must not change parameters or gradients. {@link io.regheads.core.dist.PredictionCheck} does the
     * generic test for models that give predictive distributions.
     *
     * @param x {@code [B, D]} features, as for {@link #evaluate}
     * @param y {@code [B]} targets in the units the model trains on
     * @return a one-line description of the problem, or empty (the default: no check)
     */
    default Optional<String> diagnose(INDArray x, double[] y) {
        return Optional.empty();
    }

    /** Floating type of the x batches the trainer builds: by default that of the first parameter. */
    default DataType dataType() {
        return params().get(0).value().dataType();
    }
}
