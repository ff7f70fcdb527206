package io.regheads.core.optim;

import io.regheads.core.nn.Param;
import java.util.List;

/**
 * Adam (Kingma &amp; Ba 2015) with PyTorch's {@code torch.optim.Adam} semantics: bias-corrected moments and
 * <em>coupled</em> L2 weight decay (the decay term {@code wd * p} is added to the gradient before the moments).
 *
 * <p>Per element, at step t = 1, 2, ...:
 * <pre>
 *   g = grad + wd * p
 *   m = beta1 * m + (1 - beta1) * g;   v = beta2 * v + (1 - beta2) * g^2
 *   p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
 * </pre>
 * Worked example (lr 0.1, defaults, first step, p = 1, grad = 0.5, wd = 0): m = 0.05, v = 0.00025, the
 * bias-corrected ratio is 0.5 / (0.5 + 1e-8), so p = 1 - 0.1 * (1 - 2e-8) = 0.900000002.
 *
 * <p>State (m, v) is allocated once in the constructor; {@link #step()} allocates nothing. Parameters must be
 * FLOAT or DOUBLE, contiguous, and distinct. Not thread-safe.
 */
public final class Adam implements Optimizer {
    private final AdamKernel kernel;

    /**
     * @param params the parameters to update (the list is copied; the Params themselves are shared)
     * @param config hyper-parameters; {@code config.weightDecay()} is coupled L2
     * @throws IllegalArgumentException if params is null, empty, has duplicates or a non-FLOAT/DOUBLE or
     *                                  non-contiguous value, or config is null
     */
    public Adam(List<Param> params, AdamConfig config) {
        this(params, config, null);
    }

    /** PyTorch defaults with the given learning rate ({@link AdamConfig#adam(double)}). */
    public Adam(List<Param> params, double learningRate) {
        this(params, AdamConfig.adam(learningRate));
    }

    Adam(List<Param> params, AdamConfig config, AdamKernel.Path path) {
        this.kernel = new AdamKernel(params, config, false, path);
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
