package io.regheads.core.head;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.PiecewiseQuantiles;
import java.util.Arrays;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A batch of predictive distributions given by their quantiles at L fixed levels: the output of the quantile head.
 *
 * <p><b>The distribution it stands for.</b> Row b's knots {@code q_0 <= ... <= q_{L-1}} at levels {@code t_0 < ...
 * < t_{L-1}} in (0, 1) define a piecewise-linear quantile function (a piecewise-linear cdf through the knots) with
 * exponential tails beyond the outer knots whose scales match the outer spacing: {@code F(y) = t_0 exp((y - q_0) /
 * bL)} below {@code q_0} with {@code bL = t_0 (q_1 - q_0) / (t_1 - t_0)}, and symmetrically above {@code q_{L-1}}
 * (so the density is continuous at the outer knots, and every moment is finite).
 *
 * <p><b>Loss contract.</b> Losses read it with {@code Targets.Values} ({@code [B]} finite y):
 * <ul>
 *   <li>{@code pinball}: {@code mean_l rho_{t_l}(y - q_l)}, {@code rho_t(u) = u (t - 1{u < 0})}; gradient {@code
 *       (1{y < q_l} - t_l) / L};</li>
 *   <li>{@code crps}: the exact CRPS of the distribution above, {@code int (F(z) - 1{z >= y})^2 dz = 2 int_0^1
 *       rho_tau(y - Q(tau)) dtau}, with its exact gradient; for L equally spaced levels {@code t_l = (l + 1) / (L + 1)}
 *       it is close to {@code 2 L / (L + 1)} times the pinball loss (the pinball average is the Riemann sum of the
 *       integral);</li>
 *   <li>every other loss (cross-entropy, the number-token losses) refuses this kind with a one-line
 *       IllegalArgumentException.</li>
 * </ul>
 * A gradient with respect to it has the same form: {@code d(loss)/d(knots)} {@code [B, L]} with the same levels.
 *
 * <p>Example: levels (0.25, 0.75), knots (-1, 1): uniform density 1/4 on [-1, 1] and exponential tails of scale 1
 * holding 1/4 each; at y = 0 pinball = 0.25, crps = 17/48.
 *
 * @param knots  {@code [B, L]}, each row non-decreasing and finite (checked by losses, not here, to keep the record
 *               cheap). As a gradient: d(loss)/d(knots).
 * @param levels {@code [L]}, L &gt;= 2, strictly increasing in (0, 1). Shared, not copied: callers must not modify it.
 */
public record QuantileKnots(INDArray knots, double[] levels) implements HeadOutput {

    /**
     * @throws IllegalArgumentException unless knots is {@code [B, L]} and levels holds L valid levels
     */
    public QuantileKnots {
        Checks.rank("knots", knots, 2);
        PiecewiseQuantiles.checkLevels("levels", levels);
        Checks.require(levels.length == knots.size(1), "levels must have length L = %d (knots shape %s), got %d",
                knots.size(1), Arrays.toString(knots.shape()), levels.length);
    }

    @Override
    public int batchSize() {
        return (int) knots.size(0);
    }

    /** Number of levels L. */
    public int levelCount() {
        return levels.length;
    }

    @Override
    public QuantileKnots zerosLike(io.regheads.core.nn.Arena arena) {
        return new QuantileKnots(arena.zeros(knots.dataType(), knots.shape()), levels);
    }

    @Override
    public QuantileKnots zerosLike() {
        return new QuantileKnots(knots.ulike().assign(0), levels);
    }
}
