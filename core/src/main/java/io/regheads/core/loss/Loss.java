package io.regheads.core.loss;

import io.regheads.core.head.Targets;
import io.regheads.core.head.HeadOutput;

/**
 * A training objective on head outputs (optax style): sees only the output and the targets, returns the batch
 * value and <em>adds</em> its gradient into a caller-owned buffer of the output's form.
 *
 * <p><b>Reduction.</b> Each loss defines a batch value (for token losses: the mean over the positions that count
 * for that loss; for continuous outputs: the mean over the batch) and per-example contributions that sum to it.
 * A batch in which no position counts contributes exactly 0 with zero gradient, never NaN.
 *
 * <p><b>Composition.</b> {@code ce().plus(0.3, ntlWas())} is {@code CE + 0.3 * NTL-WAS}; every term accumulates
 * into the same gradient buffer, so a weighted sum costs no second full-size array.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface Loss {

    /**
     * Adds {@code weight * d(value)/d(output)} into {@code gradient} and {@code weight *} each example's
     * contribution into {@code perExample}; returns {@code weight * value}.
     *
     * @param output     the head output for B examples
     * @param targets    targets of the kind this output takes (tokens for {@code TokenLogits}, values otherwise)
     * @param weight     finite multiplier
     * @param gradient   same form and shapes as {@code output}; added into, never cleared
     * @param perExample {@code [B]}; added into
     * @return the weighted batch value
     * @throws IllegalArgumentException if output and targets do not match in kind or size, or this loss cannot
     *                                  handle the output kind
     */
    double accumulate(HeadOutput output, Targets targets, double weight, HeadOutput gradient, double[] perExample);

    /** A short name for tables and provenance, e.g. {@code "ce+0.3*ntl-was"}. */
    String name();

    /** Value, per-example values and gradient in freshly allocated buffers. */
    default LossValue evaluate(HeadOutput output, Targets targets) {
        HeadOutput gradient = output.zerosLike();
        double[] perExample = new double[output.batchSize()];
        double value = accumulate(output, targets, 1.0, gradient, perExample);
        return new LossValue(value, perExample, gradient);
    }

    /** {@code this + weight * other}. */
    default Loss plus(double weight, Loss other) {
        return WeightedSum.of(this, 1.0).plus(other, weight);
    }

    /** {@code this + other}. */
    default Loss plus(Loss other) {
        return plus(1.0, other);
    }

    /** {@code weight * this}. */
    default Loss times(double weight) {
        return WeightedSum.of(this, weight);
    }
}
