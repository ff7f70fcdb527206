package io.regheads.app.experiments;

import io.regheads.core.data.Dataset;
import io.regheads.core.check.Checks;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.heads.model.RegressionModel;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The token-level view of a decoder inside a fitted {@link RegressionModel}: the head's own {@link
 * DecoderDistribution} (sampling under temperature, top-k and top-p, which the model's {@code predict} does not
 * offer) for rows of x, through the model's fitted x scaling and encoder. The model is trained exactly as a user
 * trains it ({@code RegressionModel.fit}: x standardised, y in the head's units, the unnormalized decoder's exponent
 * range fitted to the training targets).
 *
 * <p>Units: the head's ({@code RegressionModel#predictPoint} maps them to y). For the unnormalized decoder on raw y
 * (its default) they are y itself.
 *
 * <p>Stateless; thread-safe as the model's prediction is.
 */
final class ModelDecoders {
    private ModelDecoders() {}

    /**
     * The decoder's distribution of rows of x, in the head's units.
     *
     * @param model a fitted model whose head is a {@link DecoderHead}
     * @param x     {@code [B][D]} rows in the model's feature order
     * @return the head's distribution for the B rows
     * @throws IllegalArgumentException if the model is not fitted or its head is not a decoder
     */
    static DecoderDistribution of(RegressionModel model, double[][] x) {
        Checks.notNull("model", model);
        Checks.require(model.isFitted(), "model must be fitted before predicting");
        Checks.require(model.head() instanceof DecoderHead, "model's head must be a decoder, got %s",
                model.head().getClass().getSimpleName());
        Dataset units = model.toHeadUnitsOf(Dataset.of(x, new double[x.length]));
        int d = units.features();
        float[] flat = new float[units.rows() * d];
        for (int i = 0; i < units.rows(); i++) {
            for (int j = 0; j < d; j++) {
                flat[i * d + j] = (float) units.x(i, j);
            }
        }
        INDArray phi = model.encoder().infer(Nd4j.create(flat, new long[] {units.rows(), d}, 'c'));
        return ((DecoderHead) model.head()).distribution(phi);
    }
}
