package io.regheads.core.train;

import java.time.Duration;
import java.util.List;

/**
 * What a {@link Trainer} run did.
 *
 * @param epochsRun          epochs started (a diverged epoch counts)
 * @param bestEpoch          1-based epoch whose weights the model holds after the run (best validation loss; the
 *                           last completed epoch without validation; 0 if none completed: initial weights)
 * @param bestValidationLoss validation loss at {@code bestEpoch} (NaN without validation or if none completed)
 * @param trainLosses        mean training loss per completed epoch
 * @param validationLosses   validation loss per completed epoch (NaN entries without validation)
 * @param stopReason         why training stopped
 * @param message            a one-line human summary; for a failure it says what went wrong, where (epoch and
 *                           step) and what to try, e.g. {@code "training diverged: loss NaN at epoch 3, step 17; try
 *                           a lower learning rate (now 0.01) or gradient clipping (clipNorm)"}
 * @param steps              optimizer steps taken
 * @param wallTime           elapsed wall-clock time
 */
public record TrainingResult(int epochsRun, int bestEpoch, double bestValidationLoss, List<Double> trainLosses,
        List<Double> validationLosses, StopReason stopReason, String message, long steps, Duration wallTime) {

    /** Why a run ended. {@link #DIVERGED} and {@link #FAILED} are failures ({@link #failed()}). */
    public enum StopReason {
        /** All {@code maxEpochs} epochs ran. */
        MAX_EPOCHS,
        /** The validation loss did not improve for {@code patience} epochs. */
        EARLY_STOPPED,
        /**
         * The numbers ran away: a non-finite training loss, gradient norm, parameter or validation loss; a parameter
         * that grew a million-fold; or a training or validation loss far above its value before training (see
         * {@link Trainer}).
         */
        DIVERGED,
        /**
         * Training ran, but the model it left is unusable: its predictions on held-out rows are degenerate (every
         * row the same distribution, or distributions that miss nearly every target) or cannot be computed (see
         * {@link TrainableModel#diagnose}).
         */
        FAILED
    }

    /** Copies the lists (unmodifiable). */
    public TrainingResult {
        trainLosses = List.copyOf(trainLosses);
        validationLosses = List.copyOf(validationLosses);
    }

    /** True if the run ended by divergence ({@link StopReason#DIVERGED}). */
    public boolean diverged() {
        return stopReason == StopReason.DIVERGED;
    }

    /** True if the run ended by divergence or left an unusable model ({@link StopReason#DIVERGED} or {@link
     * StopReason#FAILED}). */
    public boolean failed() {
        return stopReason == StopReason.DIVERGED || stopReason == StopReason.FAILED;
    }

    /**
     * True if the run used every epoch and its last epoch had the best validation loss: the model was probably still
     * improving (the message says so). Not a failure, but under-trained models give too wide predictive
     * distributions.
     */
    public boolean stillImproving() {
        return stopReason == StopReason.MAX_EPOCHS && bestEpoch == epochsRun && !Double.isNaN(bestValidationLoss);
    }

    /**
     * Returns this result, or throws if training failed.
     *
     * @throws TrainingFailedException (an {@link IllegalStateException}) with {@link #message()} if {@link #failed()}
     */
    public TrainingResult requireConverged() {
        if (failed()) {
            throw new TrainingFailedException(this);
        }
        return this;
    }
}
