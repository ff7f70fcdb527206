package io.regheads.losses;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.Scalar;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.internal.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.Targets;
import java.util.Arrays;

/**
 * The Number Token Loss family (Zausinger et al., "Regress, Don't Guess: A Regression-like Loss on Number Tokens
 * for Language Models", ICML 2025, arXiv:2411.02083): NTL-MSE, NTL-MAE, NTL-Huber, NTL-WAS and NTL-WAS-CDF. Build them with {@link Losses}.
 *
 * <p><b>On {@link TokenLogits}</b> ({@code [B, T, V]}). At one position, {@code q} is the softmax restricted to the
 * number tokens (tokens with a finite {@code tokenValues} entry) that the validity mask allows there, {@code v}
 * their values in ascending order and {@code y} the label value ({@code Targets.Tokens.values} if given, else the
 * value of the target token):
 * <ul>
 *   <li>NTL-MSE / MAE / Huber(delta): {@code yHat = sum_j q_j v_j}, {@code l = f(yHat - y)}; {@code dl/dz_j =
 *       f'(yHat - y) q_j (v_j - yHat)}.
 *   <li>NTL-WAS (absolute-difference form): {@code l = sum_j q_j |y - v_j|}; {@code dl/dz_j = q_j (|y - v_j| - l)}.
 *   <li>NTL-WAS-CDF against a {@link TargetDistribution} r over the same tokens: {@code l = sum_{i < n-1} |Q_i -
 *       R_i| (v_{i+1} - v_i)} with cumulative sums Q, R: the 1-Wasserstein distance in value space (the gap
 *       between neighbouring values counts, not the rank). With {@code g_k = sum_{k <= i < n-1} sign(Q_i - R_i)
 *       (v_{i+1} - v_i)}: {@code dl/dz_j = q_j (g_j - sum_k q_k g_k)}. For a one-hot r at a token value it equals
 *       NTL-WAS.
 * </ul>
 * Only positions whose label value is finite count ("number positions"; IGNORE positions never count); non-number
 * logits get no gradient. The batch value is the weighted mean {@code sum_i w_t(i) l_i / sum_i w_t(i)} over the
 * number positions i, with {@code w} the per-position weights (all 1 by default, so the plain mean); a batch
 * without number positions (or with zero total weight) contributes exactly 0 and no gradient. Each example gets
 * the share of its own positions. The gradient is added only into the number-token columns of the caller's
 * buffer, so {@code ce().plus(0.3, ntlWas())} touches V columns once (for CE) and K more per position: no second
 * {@code [B, T, V]} array exists.
 *
 * <p><b>On continuous outputs</b> (the mean over the batch): on a {@link GaussianMixture}, NTL-MSE/MAE/Huber use
 * {@code f(E[Y] - y)}, {@code E[Y] = sum_m pi_m mu_m}; NTL-WAS and NTL-WAS-CDF both use {@code E|Y - y| = sum_m
 * pi_m [s_m 2 phi(z_m) + (mu_m - y)(2 Phi(z_m) - 1)]}, {@code z_m = (mu_m - y)/s_m} (W1 between the mixture and
 * the point mass at y; the CDF loss's target distribution applies to tokens only). On a {@link Scalar}: {@code
 * f(yHat - y)} and {@code |yHat - y|}. Per-position weights do not apply there (one position per example).
 *
 * <p>Example (a value the module's tests check against an independent NumPy computation): V = 12, tokens 0..9 the
 * digits, logits {@code
 * [0.1, -0.3, 0.7, 1.1, 0.0, 2.0, -1.0, 0.4, 0.9, -0.2, 1.5, 0.3]}, label 7: NTL-WAS = 2.7713002881, NTL-MSE =
 * 5.6142934844.
 *
 * <p>Immutable and thread-safe.
 */
public final class NumberTokenLoss implements Loss {

    /** One number position: the loss and {@code dz = dl/dz} over the n valid number tokens. */
    interface Kernel {
        double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work);

        String label();
    }

    private final Kernel kernel;
    private final ContinuousForm continuous;
    private final double[] positionWeights;

    private NumberTokenLoss(Kernel kernel, ContinuousForm continuous, double[] positionWeights) {
        this.kernel = kernel;
        this.continuous = continuous;
        this.positionWeights = positionWeights;
    }

    static NumberTokenLoss dotProduct(Penalty f) {
        Checks.notNull("penalty", f);
        Kernel k = new Kernel() {
            @Override
            public double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work) {
                double yHat = 0;
                for (int j = 0; j < n; j++) {
                    yHat += q[j] * v[j];
                }
                double slope = f.slope(yHat - y);
                for (int j = 0; j < n; j++) {
                    dz[j] = slope * q[j] * (v[j] - yHat);
                }
                return f.value(yHat - y);
            }

            @Override
            public String label() {
                return "ntl-" + f.label();
            }
        };
        ContinuousForm c = new ContinuousForm() {
            @Override
            public double mixture(double[] a, double[] mu, double[] s, double y, double scale,
                                  double[] ga, double[] gm, double[] gs) {
                double[] pi = new double[a.length];
                Mixture.weights(a, pi);
                double mean = Mixture.mean(pi, mu);
                Mixture.addMeanGradient(pi, mu, mean, scale * f.slope(mean - y), ga, gm);
                return f.value(mean - y);
            }

            @Override
            public double scalar(double yHat, double y, double[] slope) {
                slope[0] = f.slope(yHat - y);
                return f.value(yHat - y);
            }
        };
        return new NumberTokenLoss(k, c, null);
    }

    static NumberTokenLoss wasserstein() {
        Kernel k = new Kernel() {
            @Override
            public double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work) {
                double l = 0;
                for (int j = 0; j < n; j++) {
                    l += q[j] * Math.abs(y - v[j]);
                }
                for (int j = 0; j < n; j++) {
                    dz[j] = q[j] * (Math.abs(y - v[j]) - l);
                }
                return l;
            }

            @Override
            public String label() {
                return "ntl-was";
            }
        };
        return new NumberTokenLoss(k, ABSOLUTE_DEVIATION, null);
    }

    static NumberTokenLoss wassersteinCdf(TargetDistribution target) {
        Checks.notNull("target", target);
        Kernel k = new Kernel() {
            @Override
            public double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work) {
                // work: [0, n) target r, [n, 2n) g
                double[] r = work;
                target.fill(y, v, n, r);
                double mass = 0;
                for (int j = 0; j < n; j++) {
                    Checks.require(r[j] >= 0, "target distribution %s must be >= 0, got %s at %d",
                            target.label(), r[j], j);
                    mass += r[j];
                }
                Checks.require(Math.abs(mass - 1) <= 1e-9,
                        "target distribution %s must sum to 1, got %s", target.label(), mass);
                double cq = 0;
                double cr = 0;
                double l = 0;
                for (int i = 0; i < n - 1; i++) {
                    cq += q[i];
                    cr += r[i];
                    double gap = v[i + 1] - v[i];
                    l += Math.abs(cq - cr) * gap;
                    work[n + i] = Math.signum(cq - cr) * gap;
                }
                // g_k = sum_{k <= i < n-1} s_i (suffix sums), then dz_j = q_j (g_j - sum_k q_k g_k)
                double suffix = 0;
                double mean = 0;
                for (int j = n - 1; j >= 0; j--) {
                    if (j < n - 1) {
                        suffix += work[n + j];
                    }
                    dz[j] = suffix;
                    mean += q[j] * suffix;
                }
                for (int j = 0; j < n; j++) {
                    dz[j] = q[j] * (dz[j] - mean);
                }
                return l;
            }

            @Override
            public String label() {
                return "ntl-was-cdf(" + target.label() + ")";
            }
        };
        return new NumberTokenLoss(k, ABSOLUTE_DEVIATION, null);
    }

    private static final ContinuousForm ABSOLUTE_DEVIATION = new ContinuousForm() {
        @Override
        public double mixture(double[] a, double[] mu, double[] s, double y, double scale,
                              double[] ga, double[] gm, double[] gs) {
            return Mixture.absoluteDeviation(a, mu, s, y, scale, ga, gm, gs);
        }

        @Override
        public double scalar(double yHat, double y, double[] slope) {
            slope[0] = Math.signum(yHat - y);
            return Math.abs(yHat - y);
        }
    };

    /**
     * The same loss with per-position weights: the batch value becomes {@code sum_i w_t(i) l_i / sum_i w_t(i)}
     * over the number positions. Example, place-weighted NTL on a base-10 decoder with 4 digits: {@code w = [0.1,
     * 0.01, 0.001, 0.0001]} ({@code B^-k}), so an error in the leading digit counts 10 times one in the next.
     *
     * @param weights {@code [T]}, each finite and {@code >= 0}; copied
     * @throws IllegalArgumentException if a weight is negative or not finite, or (at use) the length is not T
     */
    public NumberTokenLoss withPositionWeights(double[] weights) {
        Checks.notNull("weights", weights);
        for (int i = 0; i < weights.length; i++) {
            Checks.require(weights[i] >= 0 && Double.isFinite(weights[i]),
                    "position weights must be >= 0 and finite, got %s at index %d", weights[i], i);
        }
        return new NumberTokenLoss(kernel, continuous, weights.clone());
    }

    /** The per-position weights, or null for equal weights. */
    public double[] positionWeights() {
        return positionWeights == null ? null : positionWeights.clone();
    }

    @Override
    public double accumulate(HeadOutput output, Targets targets, double weight, HeadOutput gradient,
                             double[] perExample) {
        Checks.notNull("output", output);
        if (output instanceof TokenLogits logits) {
            return tokens(logits, targets, weight, gradient, perExample);
        }
        return ContinuousForm.accumulate(name(), continuous, output, targets, weight, gradient, perExample);
    }

    private double tokens(TokenLogits output, Targets targets, double weight, HeadOutput gradient,
                          double[] perExample) {
        TokenBatch b = TokenBatch.of(name(), output, targets, gradient, weight, perExample, positionWeights);
        int rows = b.batch * b.positions;
        double total = 0;
        for (int row = 0; row < rows; row++) {
            if (!Double.isNaN(b.labelValue(row))) {
                total += b.positionWeight(row);
            }
        }
        if (!(total > 0)) {
            return 0.0; // no number position: exactly 0, no gradient
        }
        int k = b.numberIds.length;
        int[] ids = new int[k];
        double[] v = new double[k];
        double[] q = new double[k];
        double[] dz = new double[k];
        double[] work = new double[2 * k];
        double sum = 0;
        for (int row = 0; row < rows; row++) {
            double y = b.labelValue(row);
            double w = b.positionWeight(row);
            if (Double.isNaN(y) || w == 0) {
                continue;
            }
            int n = 0;
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < k; j++) {
                int id = b.numberIds[j];
                if (b.valid(row, id)) {
                    ids[n] = id;
                    v[n] = b.numberValues[j];
                    q[n] = b.logits.get(row, id);
                    max = Math.max(max, q[n]);
                    n++;
                }
            }
            if (n == 0) {
                throw new IllegalArgumentException(name() + " needs a valid number token at every number position, got"
                        + " none at " + b.where(row) + " (label value " + y + ")");
            }
            double z = 0;
            for (int j = 0; j < n; j++) {
                q[j] = Math.exp(q[j] - max);
                z += q[j];
            }
            if (!(Double.isFinite(max) && Double.isFinite(z))) {
                throw new IllegalArgumentException("logits of the number tokens must be finite (at least one > -inf)"
                        + " at " + b.where(row) + ", got max " + max);
            }
            for (int j = 0; j < n; j++) {
                q[j] /= z;
            }
            double l = kernel.apply(v, q, n, y, dz, work);
            double scale = weight * w / total;
            for (int j = 0; j < n; j++) {
                b.gradient.add(row, ids[j], scale * dz[j]);
            }
            perExample[row / b.positions] += scale * l;
            sum += w * l;
        }
        b.commit();
        return weight * sum / total;
    }

    @Override
    public String name() {
        return positionWeights == null ? kernel.label()
                : kernel.label() + "@positions" + Arrays.toString(positionWeights);
    }

    @Override
    public String toString() {
        return name();
    }
}
