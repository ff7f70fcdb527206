package io.regheads.core.train;

import java.time.Duration;

/**
 * A progress report from the {@link Trainer}.
 *
 * @param epoch              1-based current epoch
 * @param maxEpochs          the configured maximum
 * @param step               1-based step within the epoch (equals {@code stepsPerEpoch} at the epoch's end)
 * @param stepsPerEpoch      mini-batches per epoch
 * @param trainLoss          after a step: that batch's mean loss; at an epoch's end: the epoch's mean loss
 * @param validationLoss     at an epoch's end: the validation loss; otherwise the previous epoch's (NaN at first)
 * @param bestValidationLoss best validation loss so far (NaN until one exists)
 * @param bestEpoch          epoch of the best validation loss (0 until one exists)
 * @param elapsed            wall-clock time since the start of the run
 */
public record Progress(int epoch, int maxEpochs, int step, int stepsPerEpoch, double trainLoss, double validationLoss,
        double bestValidationLoss, int bestEpoch, Duration elapsed) {}
