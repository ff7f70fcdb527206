package io.regheads.core.head;

import io.regheads.core.check.Checks;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A batch of Gaussian mixtures with K components: weights {@code pi = softmax(weightLogits)}, means and standard
 * deviations. A pointwise head with a fixed noise level is K = 1 with constant {@code stds}.
 *
 * @param weightLogits {@code [B, K]} unnormalised log-weights (the head applies no softmax itself; losses and
 *                     distributions do, stably). As a gradient: d(loss)/d(weightLogits).
 * @param means        {@code [B, K]}. As a gradient: d(loss)/d(means).
 * @param stds         {@code [B, K]}, every element {@code > 0} (checked by losses, not here, to keep the record
 *                     cheap). As a gradient: d(loss)/d(stds).
 */
public record GaussianMixture(INDArray weightLogits, INDArray means, INDArray stds) implements HeadOutput {

    /** @throws IllegalArgumentException unless the three arrays are {@code [B, K]} of one shape */
    public GaussianMixture {
        Checks.rank("weightLogits", weightLogits, 2);
        Checks.shape("means", means, weightLogits.shape());
        Checks.shape("stds", stds, weightLogits.shape());
    }

    @Override
    public int batchSize() {
        return (int) means.size(0);
    }

    /** Number of components K. */
    public int components() {
        return (int) means.size(1);
    }

    @Override
    public GaussianMixture zerosLike(io.regheads.core.nn.Arena arena) {
        return new GaussianMixture(arena.zeros(weightLogits.dataType(), weightLogits.shape()),
                arena.zeros(means.dataType(), means.shape()), arena.zeros(stds.dataType(), stds.shape()));
    }

    @Override
    public GaussianMixture zerosLike() {
        return new GaussianMixture(
                weightLogits.ulike().assign(0), means.ulike().assign(0), stds.ulike().assign(0));
    }
}
