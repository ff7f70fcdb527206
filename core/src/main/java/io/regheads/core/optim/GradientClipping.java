package io.regheads.core.optim;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Param;
import java.util.List;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Gradient clipping by global norm, as {@code torch.nn.utils.clip_grad_norm_}.
 *
 * <p>{@code norm = sqrt(sum over all params and elements of grad^2)} (accumulated in double); if {@code norm >
 * maxNorm} every gradient is multiplied by {@code maxNorm / (norm + 1e-6)}. Example: gradients (3, 4) with
 * maxNorm 1 have norm 5 and become (0.6, 0.8) up to the 1e-6 guard. A non-finite norm is returned as is and
 * leaves the gradients untouched, so the caller can report divergence.
 *
 * <p>Stateless; the gradients are modified in place (not thread-safe with respect to them).
 */
public final class GradientClipping {
    private GradientClipping() {}

    /**
     * The global L2 norm of all gradients.
     *
     * @throws IllegalArgumentException if params is null or a gradient is not FLOAT/DOUBLE
     */
    public static double globalNorm(List<Param> params) {
        Checks.notNull("params", params);
        double s = 0;
        boolean host = Nd4j.getEnvironment().isCPU();
        for (Param p : params) {
            AdamKernel.checkLayout("gradient of " + p.name(), p.grad());
            if (host) {
                for (double g : Host.doubles(p.grad())) {
                    s += g * g;
                }
            } else {
                double n = p.grad().norm2Number().doubleValue();
                s += n * n;
            }
        }
        return Math.sqrt(s);
    }

    /**
     * Scales all gradients so that their global norm is at most {@code maxNorm}.
     *
     * @param maxNorm {@code > 0} and finite
     * @return the global norm <em>before</em> clipping
     * @throws IllegalArgumentException if maxNorm is not positive and finite, or as {@link #globalNorm}
     */
    public static double clipByGlobalNorm(List<Param> params, double maxNorm) {
        Checks.positive("maxNorm", maxNorm);
        double norm = globalNorm(params);
        if (Double.isFinite(norm) && norm > maxNorm) {
            double coef = maxNorm / (norm + 1e-6);
            boolean host = Nd4j.getEnvironment().isCPU();
            for (Param p : params) {
                if (host) {
                    double[] g = Host.doubles(p.grad());
                    for (int i = 0; i < g.length; i++) {
                        g[i] *= coef;
                    }
                    Host.write(g, p.grad());
                } else {
                    p.grad().muli(coef);
                }
            }
        }
        return norm;
    }
}
