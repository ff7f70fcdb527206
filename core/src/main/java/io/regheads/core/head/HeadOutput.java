package io.regheads.core.head;

/**
 * What a head emits for a batch, in one of the few forms that every {@link io.regheads.core.loss.Loss}
 * understands: {@link TokenLogits} (histogram, decoder), {@link GaussianMixture} (MDN, pointwise with a
 * fixed or learned std), {@link Scalar} (pointwise, xVal number head) or {@link QuantileKnots} (quantile head; read
 * by the pinball and CRPS losses only, see its loss contract).
 *
 * <p>A gradient with respect to an output has the same form and shape as the output; {@link
 * #zerosLike()} allocates one. Losses <em>add</em> into such a gradient, so weighted sums of losses share
 * one buffer (no second full-size array).
 */
public sealed interface HeadOutput permits TokenLogits, GaussianMixture, Scalar, QuantileKnots {

    /** Batch size B. */
    int batchSize();

    /** A gradient buffer of the same form, shapes and data type, filled with zeros. */
    HeadOutput zerosLike();

    /** Like {@link #zerosLike()} but with buffers from {@code arena} (no allocation in a training loop). */
    HeadOutput zerosLike(io.regheads.core.nn.Arena arena);
}
