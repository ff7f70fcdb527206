package io.regheads.core.dist;

/**
 * A predictive distribution that a temperature T sharpens ({@code T < 1}) or flattens ({@code T > 1}), the post-hoc
 * calibration of Guo et al. (2017) for the heads' own parameters: categorical weights (histogram bins, mixture
 * components) become {@code softmax(logits / T)}, that is {@code w^(1/T)} renormalised, and Gaussian scales become
 * {@code T sigma}. {@code T = 1} is the distribution itself.
 *
 * <p>Example: a Gaussian N(0, 1) at T = 2 is N(0, 4); a histogram with bin probabilities (0.2, 0.8) at T = 2 has
 * {@code (sqrt 0.2, sqrt 0.8) / (sqrt 0.2 + sqrt 0.8) = (1/3, 2/3)}.
 */
public interface Temperable extends PredictiveDistribution {

    /**
     * This distribution at temperature {@code t}.
     *
     * @param t > 0 and finite; 1 returns this distribution itself
     * @throws IllegalArgumentException if t is not > 0 and finite
     */
    PredictiveDistribution tempered(double t);
}
