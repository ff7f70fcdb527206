package io.regheads.core.loss;

import io.regheads.core.head.HeadOutput;

/**
 * A loss evaluated on a batch.
 *
 * @param value      the batch value (what training minimises)
 * @param perExample {@code [B]} contributions, summing to {@code value}
 * @param gradient   d(value)/d(output), same form as the output
 */
public record LossValue(double value, double[] perExample, HeadOutput gradient) {}
