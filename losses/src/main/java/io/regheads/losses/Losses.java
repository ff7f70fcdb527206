package io.regheads.losses;

import io.regheads.core.loss.Loss;

/**
 * Factory of the library's losses. Every loss works on every head output ({@code TokenLogits}, {@code
 * GaussianMixture}, {@code Scalar}), and they compose through {@link Loss#plus}: {@code
 * Losses.ce().plus(0.3, Losses.ntlWas())} is the NTL paper's {@code CE + 0.3 NTL-WAS}.
 *
 * <table>
 *   <caption>What each loss computes per output kind</caption>
 *   <tr><th>loss</th><th>TokenLogits (per position)</th><th>GaussianMixture</th><th>Scalar</th></tr>
 *   <tr><td>{@link #ce()}</td><td>{@code -log p_t}</td><td>NLL</td><td>{@code e^2}</td></tr>
 *   <tr><td>{@link #gce(double)}</td><td>{@code -sum r_j log p_j}</td><td>{@code -E_t log p(t)}</td>
 *       <td>{@code e^2 + sigma^2}</td></tr>
 *   <tr><td>{@link #ntlMse()}</td><td>{@code (yHat - y)^2}</td><td>{@code (E[Y] - y)^2}</td><td>{@code e^2}</td></tr>
 *   <tr><td>{@link #ntlMae()}</td><td>{@code |yHat - y|}</td><td>{@code |E[Y] - y|}</td><td>{@code |e|}</td></tr>
 *   <tr><td>{@link #ntlHuber(double)}</td><td>{@code huber(yHat - y)}</td><td>{@code huber(E[Y] - y)}</td>
 *       <td>{@code huber(e)}</td></tr>
 *   <tr><td>{@link #ntlWas()}</td><td>{@code sum q_j |y - v_j|}</td><td>{@code E|Y - y|}</td><td>{@code |e|}</td></tr>
 *   <tr><td>{@link #ntlWasCdf(TargetDistribution)}</td><td>{@code sum |Q_i - R_i| dv_i}</td><td>{@code E|Y - y|}</td>
 *       <td>{@code |e|}</td></tr>
 * </table>
 * Details, gradients and reductions: {@link CrossEntropy} and {@link NumberTokenLoss}. The quantile head's {@code
 * QuantileKnots} output takes {@link #pinball()} and {@link #crps()} only; {@link #crps()} takes every output kind
 * with a closed-form cdf (see {@link Crps}). Stateless and thread-safe.
 */
public final class Losses {
    private Losses() {}

    /** Cross-entropy: see {@link CrossEntropy}. */
    public static CrossEntropy ce() {
        return CrossEntropy.plain();
    }

    /**
     * Gaussian cross-entropy with width sigma (value units): see {@link CrossEntropy}. The NTL paper's best
     * setting is sigma = 0.5 (its reference code defaults to 1).
     *
     * @param sigma {@code > 0}, finite
     * @throws IllegalArgumentException if sigma is not positive and finite
     */
    public static CrossEntropy gce(double sigma) {
        return CrossEntropy.gaussian(sigma, CrossEntropy.DEFAULT_QUADRATURE);
    }

    /**
     * GCE with a chosen Gauss-Hermite order for Gaussian-mixture outputs (more nodes for components much narrower
     * than sigma).
     *
     * @param sigma           {@code > 0}, finite
     * @param quadratureOrder in [1, 150]
     * @throws IllegalArgumentException if an argument is out of range
     */
    public static CrossEntropy gce(double sigma, int quadratureOrder) {
        return CrossEntropy.gaussian(sigma, quadratureOrder);
    }

    /** NTL-MSE: {@code (yHat - y)^2}. */
    public static NumberTokenLoss ntlMse() {
        return NumberTokenLoss.dotProduct(Penalty.squared());
    }

    /** NTL-MAE: {@code |yHat - y|} (slope 0 at 0). */
    public static NumberTokenLoss ntlMae() {
        return NumberTokenLoss.dotProduct(Penalty.absolute());
    }

    /**
     * NTL-Huber: {@code r^2/2} for {@code |r| < delta}, else {@code delta (|r| - delta/2)}, {@code r = yHat - y}.
     *
     * @param delta {@code > 0}, finite (PyTorch's default is 1)
     * @throws IllegalArgumentException if delta is not positive and finite
     */
    public static NumberTokenLoss ntlHuber(double delta) {
        return NumberTokenLoss.dotProduct(Penalty.huber(delta));
    }

    /** NTL-WAS, absolute-difference form: {@code sum_j q_j |y - v_j|}. */
    public static NumberTokenLoss ntlWas() {
        return NumberTokenLoss.wasserstein();
    }

    /** NTL-WAS-CDF against the point mass at the label ({@link TargetDistribution#pointMass()}). */
    public static NumberTokenLoss ntlWasCdf() {
        return NumberTokenLoss.wassersteinCdf(TargetDistribution.pointMass());
    }

    /**
     * NTL-WAS-CDF against any target distribution over the number tokens, e.g. {@code
     * ntlWasCdf(TargetDistribution.gaussian(1.0))}.
     *
     * @throws IllegalArgumentException if target is null
     */
    public static NumberTokenLoss ntlWasCdf(TargetDistribution target) {
        return NumberTokenLoss.wassersteinCdf(target);
    }

    /**
     * The continuous ranked probability score in closed form on mixture, pointwise, histogram and quantile outputs
     * (refused on decoder digits): see {@link Crps}.
     */
    public static Crps crps() {
        return Crps.create();
    }

    /** The pinball loss averaged over the levels of a quantile head's output: see {@link Pinball}. */
    public static Pinball pinball() {
        return Pinball.create();
    }

    /** The NTL paper's default combination {@code CE + 0.3 NTL-WAS}. */
    public static Loss ceWithNtlWas() {
        return ce().plus(0.3, ntlWas());
    }
}
