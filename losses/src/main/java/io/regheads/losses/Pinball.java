package io.regheads.losses;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.QuantileKnots;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;

/**
 * The pinball (quantile) loss averaged over the levels of a {@link QuantileKnots} output: the quantile head's
 * training loss (Koenker and Bassett, "Regression Quantiles", Econometrica 1978), as in GluonTS, pytorch-forecasting
 * and Chronos-Bolt. Build it with {@link Losses#pinball()}.
 * <pre>
 *   loss_b = (1/L) sum_l rho_{t_l}(y_b - q_bl),   rho_t(u) = u (t - 1{u &lt; 0})
 *   d loss_b / d q_bl = (1{y_b &lt; q_bl} - t_l) / L        (at y = q the subgradient -t_l / L)
 * </pre>
 * The batch value is the mean over the batch. Minimised by the true t_l quantiles at every level; twice its integral
 * over all levels is the CRPS, so for equally spaced levels {@code t_l = l / (L + 1)} {@code 2 L / (L + 1)} times this
 * loss is a Riemann sum of {@link Crps}'s exact value on the same knots (which adds the tails beyond the outer
 * levels).
 *
 * <p>Other outputs are refused in one line (they carry no quantile levels; use {@code crps} for a distribution).
 *
 * <p>Example (by hand): levels (0.25, 0.75), knots (-1, 1), y = 0: {@code (0.25 * 1 + 0.25 * 1) / 2 = 0.25}, gradient
 * {@code (-0.125, 0.125)}.
 *
 * <p>Immutable and thread-safe.
 */
public final class Pinball implements Loss {
    private static final Pinball INSTANCE = new Pinball();

    private Pinball() {}

    static Pinball create() {
        return INSTANCE;
    }

    @Override
    public double accumulate(HeadOutput output, Targets targets, double weight, HeadOutput gradient,
                             double[] perExample) {
        Checks.notNull("output", output);
        if (!(output instanceof QuantileKnots out)) {
            throw new IllegalArgumentException("pinball needs QuantileKnots (a quantile head's output), got "
                    + TokenBatch.kind(output) + "; crps scores any predictive distribution with a closed form");
        }
        KnotBatch k = KnotBatch.of(name(), out, targets, weight, gradient, perExample);
        double[] t = out.levels();
        int n = k.levels;
        double scale = weight / k.batch;
        double total = 0;
        for (int b = 0; b < k.batch; b++) {
            double y = k.y[b];
            double l = 0;
            for (int j = 0; j < n; j++) {
                double q = k.knots[b * n + j];
                double below = y < q ? 1 : 0;
                l += (below - t[j]) * (q - y);
                k.grad[b * n + j] += scale * (below - t[j]) / n;
            }
            l /= n;
            perExample[b] += scale * l;
            total += l;
        }
        k.commit();
        return scale * total;
    }

    @Override
    public String name() {
        return "pinball";
    }

    @Override
    public String toString() {
        return name();
    }
}
