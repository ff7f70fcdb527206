package io.regheads.core.optim;

import io.regheads.core.check.Checks;

/**
 * Hyper-parameters of {@link Adam} and {@link AdamW}, with PyTorch's names and defaults.
 *
 * <p>Presets: {@link #adam(double)} (beta1 0.9, beta2 0.999, eps 1e-8, no weight decay, as {@code
 * torch.optim.Adam}) and {@link #adamW(double)} (the same with weight decay 0.01, as {@code torch.optim.AdamW}).
 * What {@code weightDecay} means depends on the optimizer: L2 added to the gradient in {@link Adam}, decoupled
 * shrinkage {@code p *= 1 - lr * weightDecay} in {@link AdamW}.
 *
 * @param learningRate lr, {@code > 0} and finite
 * @param beta1        first-moment decay, in [0, 1)
 * @param beta2        second-moment decay, in [0, 1)
 * @param epsilon      added to the bias-corrected {@code sqrt(v)}, {@code > 0} and finite
 * @param weightDecay  {@code >= 0} and finite
 */
public record AdamConfig(double learningRate, double beta1, double beta2, double epsilon, double weightDecay) {

    /** Validates every field; see the record description. */
    public AdamConfig {
        Checks.positive("learningRate", learningRate);
        Checks.require(beta1 >= 0 && beta1 < 1, "beta1 must be in [0, 1), got %s", beta1);
        Checks.require(beta2 >= 0 && beta2 < 1, "beta2 must be in [0, 1), got %s", beta2);
        Checks.positive("epsilon", epsilon);
        Checks.nonNegative("weightDecay", weightDecay);
    }

    /** PyTorch Adam defaults with the given learning rate: betas (0.9, 0.999), eps 1e-8, weight decay 0. */
    public static AdamConfig adam(double learningRate) {
        return new AdamConfig(learningRate, 0.9, 0.999, 1e-8, 0.0);
    }

    /** PyTorch AdamW defaults with the given learning rate: betas (0.9, 0.999), eps 1e-8, weight decay 0.01. */
    public static AdamConfig adamW(double learningRate) {
        return new AdamConfig(learningRate, 0.9, 0.999, 1e-8, 0.01);
    }

    /** A copy with another learning rate. */
    public AdamConfig withLearningRate(double lr) {
        return new AdamConfig(lr, beta1, beta2, epsilon, weightDecay);
    }

    /** A copy with another weight decay. */
    public AdamConfig withWeightDecay(double wd) {
        return new AdamConfig(learningRate, beta1, beta2, epsilon, wd);
    }
}
