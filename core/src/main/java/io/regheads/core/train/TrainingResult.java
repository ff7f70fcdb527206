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
 * @param message            a one-line human summary; for divergence e.g. {@code "training diverged: loss NaN at
 *                           epoch 3, step 17"}
 * @param steps              optimizer steps taken
 * @param wallTime           elapsed wall-clock time
 */
public record TrainingResult(int epochsRun, int bestEpoch, double bestValidationLoss, List<Double> trainLosses,
        List<Double> validationLosses, StopReason stopReason, String message, long steps, Duration wallTime) {

    /** Why a run ended. */
    public enum StopReason {
        /** All {@code maxEpochs} epochs ran. */
        MAX_EPOCHS,
        /** The validation loss did not improve for {@code patience} epochs. */
        EARLY_STOPPED,
        /** A non-finite training loss, gradient norm or validation loss appeared. */
        DIVERGED
    }

    /** Copies the lists (unmodifiable). */
    public TrainingResult {
        trainLosses = List.copyOf(trainLosses);
        validationLosses = List.copyOf(validationLosses);
    }

    /** True if the run ended by divergence. */
    public boolean diverged() {
        return stopReason == StopReason.DIVERGED;
    }

    /**
     * Returns this result, or throws if training diverged.
     *
     * @throws IllegalStateException with {@link #message()} if {@link #diverged()}
     */
    public TrainingResult requireConverged() {
        if (diverged()) {
            throw new IllegalStateException(message);
        }
        return this;
    }
}
