package io.regheads.losses;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.Scalar;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.FastExp;
import io.regheads.core.internal.Simd;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import java.util.Arrays;

/**
 * Cross-entropy (CE) and Gaussian cross-entropy (GCE, Gaussian label smoothing over the number tokens). Build them
 * with {@link Losses#ce()} and {@link Losses#gce(double)}.
 *
 * <p><b>On {@link TokenLogits}</b> ({@code [B, T, V]}). {@code p = softmax(z)} over the tokens the validity mask
 * allows at the position (masked tokens carry no probability and get zero gradient), computed stably as {@code
 * log p_j = z_j - logsumexp(z)}:
 * <ul>
 *   <li>CE: {@code l = -log p_t} for target token t; {@code dl/dz_j = p_j - 1[j = t]}.
 *   <li>GCE(sigma): at positions with a finite label value y (a number label, or {@code Targets.Tokens.values}),
 *       the target is {@code r_j ~ exp(-(v_j - y)^2 / (2 sigma^2))} over the valid number tokens, normalised over
 *       them ({@link TargetDistribution#gaussian}); {@code l = -sum_j r_j log p_j} with the <em>full</em> softmax;
 *       {@code dl/dz_j = p_j - r_j}. Other non-ignored positions use plain CE (as the NTL authors' GCE).
 * </ul>
 * The batch value is the (position-weighted) mean over the non-ignored positions; IGNORE positions add nothing and
 * get zero gradient; a batch without any contributes exactly 0. Each example gets the share of its own positions.
 * One pass over each row: logits read once, exponentials kept in a row buffer (computed by the vectorised double
 * kernel {@link FastExp}, relative error at most 4.5e-16, so values and gradients agree with {@code Math.exp} to
 * double rounding; entries more than 708 below the row maximum get {@code e^-708} instead of 0), the gradient row
 * read and written once.
 *
 * <p><b>On continuous outputs</b> (mean over the batch): on a {@link GaussianMixture}, CE is the negative
 * log-likelihood {@code -log sum_m pi_m N(y; mu_m, s_m^2)} by log-sum-exp (finite however far y lies from the
 * means), and GCE is {@code -E_{t ~ N(y, sigma^2)} log p(t)} by Gauss-Hermite quadrature (exact for K = 1:
 * {@code log(s sqrt(2 pi)) + ((y - mu)^2 + sigma^2) / (2 s^2)}). On a {@link Scalar} (a point prediction, read as
 * {@code N(yHat, 1/2)} without the constant {@code log(pi)/2}): CE is the squared error {@code (yHat - y)^2} and
 * GCE {@code E_{t ~ N(y, sigma^2)} (yHat - t)^2 = (yHat - y)^2 + sigma^2}.
 *
 * <p>Example (a value the module's tests check against an independent NumPy computation): V = 12 with digits at
 * ids 0..9, logits {@code
 * [0.1, -0.3, 0.7, 1.1, 0.0, 2.0, -1.0, 0.4, 0.9, -0.2, 1.5, 0.3]}, label 7: CE = 2.8666197219, GCE(1) =
 * 3.0328401682.
 *
 * <p>Immutable and thread-safe.
 */
public final class CrossEntropy implements Loss {

    /** Default Gauss-Hermite order for GCE on a Gaussian mixture. */
    public static final int DEFAULT_QUADRATURE = 32;

    private final double sigma; // NaN for plain CE
    private final GaussHermite rule; // null for plain CE
    private final double[] positionWeights;

    private CrossEntropy(double sigma, GaussHermite rule, double[] positionWeights) {
        this.sigma = sigma;
        this.rule = rule;
        this.positionWeights = positionWeights;
    }

    static CrossEntropy plain() {
        return new CrossEntropy(Double.NaN, null, null);
    }

    static CrossEntropy gaussian(double sigma, int quadratureOrder) {
        Checks.positive("sigma", sigma);
        return new CrossEntropy(sigma, GaussHermite.of(quadratureOrder), null);
    }

    /** Whether this is GCE (a Gaussian target at number positions). */
    public boolean isGaussian() {
        return rule != null;
    }

    /** The GCE width sigma, NaN for plain CE. */
    public double sigma() {
        return sigma;
    }

    /**
     * The same loss with per-position weights: the batch value becomes {@code sum_i w_t(i) l_i / sum_i w_t(i)}
     * over the non-ignored positions.
     *
     * @param weights {@code [T]}, each finite and {@code >= 0}; copied
     * @throws IllegalArgumentException if a weight is negative or not finite, or (at use) the length is not T
     */
    public CrossEntropy withPositionWeights(double[] weights) {
        Checks.notNull("weights", weights);
        for (int i = 0; i < weights.length; i++) {
            Checks.require(weights[i] >= 0 && Double.isFinite(weights[i]),
                    "position weights must be >= 0 and finite, got %s at index %d", weights[i], i);
        }
        return new CrossEntropy(sigma, rule, weights.clone());
    }

    @Override
    public double accumulate(HeadOutput output, Targets targets, double weight, HeadOutput gradient,
                             double[] perExample) {
        Checks.notNull("output", output);
        if (output instanceof TokenLogits logits) {
            return tokens(logits, targets, weight, gradient, perExample);
        }
        return ContinuousForm.accumulate(name(), continuousForm(), output, targets, weight, gradient, perExample);
    }

    private double tokens(TokenLogits output, Targets targets, double weight, HeadOutput gradient,
                          double[] perExample) {
        TokenBatch b = TokenBatch.of(name(), output, targets, gradient, weight, perExample, positionWeights);
        int rows = b.batch * b.positions;
        double total = 0;
        for (int row = 0; row < rows; row++) {
            if (b.token(row) != Targets.IGNORE) {
                total += b.positionWeight(row);
            }
        }
        if (!(total > 0)) {
            return 0.0;
        }
        Simd.startWarmUp(); // the row maxima and exponentials below run in SIMD lanes once it has compiled them
        int v = b.vocab;
        double[] z = new double[v]; // [V] logits of one row
        double[] e = new double[v]; // [V] exp(z - max), 0 at masked tokens
        double[] carrier = new double[v]; // [V] scratch of the vectorised exponential
        double[] m = b.mask == null ? null : new double[v];
        int k = b.numberIds.length;
        double[] vals = new double[k];
        int[] ids = new int[k];
        double[] r = new double[k];
        TargetDistribution gaussianTarget = isGaussian() ? TargetDistribution.gaussian(sigma) : null;
        double sum = 0;
        for (int row = 0; row < rows; row++) {
            int t = b.token(row);
            double w = b.positionWeight(row);
            if (t == Targets.IGNORE || w == 0) {
                continue;
            }
            b.logits.read(row, z);
            double max = Double.NEGATIVE_INFINITY;
            double s = 0;
            if (m == null) {
                max = Simd.max(z, 0, v);
                if (Math.abs(max) <= Double.MAX_VALUE) { // else NaN or +-Infinity: refused below, as lse is not finite
                    s = FastExp.expShiftedSum(z, max, e, carrier, v);
                } else {
                    s = max;
                }
            } else {
                b.mask.read(row, m);
                for (int j = 0; j < v; j++) {
                    if (m[j] != 0) {
                        max = Math.max(max, z[j]);
                    }
                }
                if (Math.abs(max) <= Double.MAX_VALUE) {
                    FastExp.expShiftedSum(z, max, e, carrier, v); // masked entries (maybe NaN there) zeroed next
                    for (int j = 0; j < v; j++) {
                        double x = m[j] != 0 ? e[j] : 0.0;
                        e[j] = x;
                        s += x;
                    }
                } else {
                    s = max;
                }
            }
            double lse = max + Math.log(s);
            if (!Double.isFinite(lse)) {
                throw new IllegalArgumentException("logits must be finite at valid tokens (at least one > -inf) at "
                        + b.where(row) + ", got log-sum-exp " + lse);
            }
            double y = isGaussian() ? b.labelValue(row) : Double.NaN;
            int n = 0;
            if (!Double.isNaN(y)) {
                for (int j = 0; j < k; j++) {
                    if (b.valid(row, b.numberIds[j])) {
                        ids[n] = b.numberIds[j];
                        vals[n] = b.numberValues[j];
                        n++;
                    }
                }
                if (n == 0) {
                    throw new IllegalArgumentException(name() + " needs a valid number token at every number"
                            + " position, got none at " + b.where(row) + " (label value " + y + ")");
                }
            }
            double l;
            if (n > 0) {
                gaussianTarget.fill(y, vals, n, r);
                l = 0;
                for (int j = 0; j < n; j++) {
                    if (r[j] > 0) {
                        l += r[j] * (lse - z[ids[j]]);
                    }
                }
            } else {
                if (m != null && m[t] == 0) { // explicit test: the message is built only when it is thrown
                    throw new IllegalArgumentException("target token must be valid under validMask, got token " + t
                            + " masked at " + b.where(row));
                }
                l = lse - z[t];
            }
            if (!Double.isFinite(l)) {
                throw new IllegalArgumentException("logits must be finite at the target token at " + b.where(row)
                        + ", got loss " + l);
            }
            double scale = weight * w / total;
            b.gradient.addScaled(row, scale / s, e); // scale * p_j
            if (n > 0) {
                for (int j = 0; j < n; j++) {
                    b.gradient.add(row, ids[j], -scale * r[j]);
                }
            } else {
                b.gradient.add(row, t, -scale);
            }
            perExample[row / b.positions] += scale * l;
            sum += w * l;
        }
        b.commit();
        return weight * sum / total;
    }

    private ContinuousForm continuousForm() {
        return new ContinuousForm() {
            @Override
            public double mixture(Mixture.Parameters p, double y, double scale, Mixture.Gradients g) {
                return isGaussian() ? Mixture.gce(p, y, sigma, rule, scale, g) : Mixture.nll(p, y, scale, g);
            }

            @Override
            public double scalar(double yHat, double y, double[] slope) {
                double r = yHat - y;
                slope[0] = 2 * r;
                return isGaussian() ? r * r + sigma * sigma : r * r;
            }
        };
    }

    @Override
    public String name() {
        String base = isGaussian() ? "gce(sigma=" + sigma + ")" : "ce";
        return positionWeights == null ? base : base + "@positions" + Arrays.toString(positionWeights);
    }

    @Override
    public String toString() {
        return name();
    }
}
