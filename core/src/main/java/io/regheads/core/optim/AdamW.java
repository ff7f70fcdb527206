package io.regheads.core.optim;

import io.regheads.core.nn.Param;
import java.util.List;

/**
 * AdamW (Loshchilov &amp; Hutter 2019) with PyTorch's {@code torch.optim.AdamW} semantics: Adam with
 * <em>decoupled</em> weight decay, applied to the parameter before the Adam update and never seen by the
 * moments.
 *
 * <p>Per element, at step t = 1, 2, ...:
 * <pre>
 *   p = p * (1 - lr * wd)
 *   m = beta1 * m + (1 - beta1) * grad;   v = beta2 * v + (1 - beta2) * grad^2
 *   p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
 * </pre>
 * Worked example (lr 0.1, wd 0.01, first step, p = 1, grad = 0.5): the shrink gives 0.999, then the Adam step
 * subtracts 0.1 * 0.5 / (0.5 + 1e-8), so p = 0.899000002. With wd = 0 AdamW equals {@link Adam}.
 *
 * <p>State is allocated once; {@link #step()} allocates nothing. Not thread-safe.
 */
public final class AdamW implements Optimizer {
    private final AdamKernel kernel;

    /**
     * @param params the parameters to update (the list is copied; the Params themselves are shared)
     * @param config hyper-parameters; {@code config.weightDecay()} is the decoupled decay
     * @throws IllegalArgumentException if params is null, empty, has duplicates or a non-FLOAT/DOUBLE or
     *                                  non-contiguous value, or config is null
     */
    public AdamW(List<Param> params, AdamConfig config) {
        this(params, config, null);
    }

    /** PyTorch AdamW defaults with the given learning rate ({@link AdamConfig#adamW(double)}, wd 0.01). */
    public AdamW(List<Param> params, double learningRate) {
        this(params, AdamConfig.adamW(learningRate));
    }

    AdamW(List<Param> params, AdamConfig config, AdamKernel.Path path) {
        this.kernel = new AdamKernel(params, config, true, path);
    }

    @Override
    public List<Param> params() {
        return kernel.params();
    }

    @Override
    public void step() {
        kernel.step();
    }

    @Override
    public long iterations() {
        return kernel.iterations();
    }

    @Override
    public double learningRate() {
        return kernel.learningRate();
    }

    @Override
    public void setLearningRate(double learningRate) {
        kernel.setLearningRate(learningRate);
    }

    AdamKernel.Path path() {
        return kernel.path();
    }
}
