package io.regheads.losses;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.Scalar;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import java.util.Arrays;

/**
 * The Number Token Loss family (Zausinger et al., "Regress, Don't Guess: A Regression-like Loss on Number Tokens
 * for Language Models", ICML 2025, arXiv:2411.02083): NTL-MSE, NTL-MAE, NTL-Huber, NTL-WAS and NTL-WAS-CDF. Build them
 * with {@link Losses}; the per-position kernels are in {@code NtlKernel}.
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
 * <p><b>Positions and place values</b> ({@link TokenLogits#places()}, set by decoder heads from their tokenizer):
 * <ul>
 *   <li>{@link Positions#DIGITS} (default): positions whose place is NaN (signs, the exponent digits of an
 *       unnormalized tokenizer) do not count, so NTL acts on the mantissa digits only there; with no places (histogram
 *       heads, Hamming codes) every number position counts.
 *   <li>{@link Positions#ALL} ({@link #onAllDigits()}, {@code ntl-was:all}): every number position, exponent digits
 *       included.
 *   <li>{@link Positions#PLACE} ({@link #placeWeighted()}, {@code ntl-was:place}): as DIGITS with position weights
 *       {@code |place_t|} ({@code B^-(t+1)} for normalized digits), so an error in a leading digit counts B times
 *       one in the next.
 *   <li>{@link Positions#NUMBER} ({@link #numberLevel()}, {@code ntl-mse:number}; the dot-product kernels only):
 *       the expected value of the whole number from the per-position distributions (teacher forced), {@code yHat_b
 *       = sum_t place_t sum_j q_tj v_j}, against {@code y_b = sum_t place_t y_t}, {@code l_b = f(yHat_b - y_b)},
 *       {@code dl/dz_tj = f'(yHat_b - y_b) place_t q_tj (v_j - E_t)}; the batch value is the mean over the
 *       examples with at least one counted position. For an unnormalized tokenizer this is the significand
 *       {@code m1.m2...mM} in units of its leading digit (sign and exponent teacher forced): a relative error.
 *       Without places a single position (T = 1) has place 1; more positions are refused.
 * </ul>
 *
 * <p>Example (a value the module's tests check against an independent NumPy computation): V = 12, tokens 0..9 the
 * digits, logits {@code
 * [0.1, -0.3, 0.7, 1.1, 0.0, 2.0, -1.0, 0.4, 0.9, -0.2, 1.5, 0.3]}, label 7: NTL-WAS = 2.7713002881, NTL-MSE =
 * 5.6142934844.
 *
 * <p>Immutable and thread-safe.
 */
public final class NumberTokenLoss implements Loss {

    /** Which positions count and how they are weighted (see the class comment). */
    public enum Positions {
        /** Number positions whose place is not NaN (mantissa digits of unnormalized tokens); the default. */
        DIGITS,
        /** Every number position, exponent digits included. */
        ALL,
        /** As DIGITS, weighted by {@code |place|}. */
        PLACE,
        /** The number-level expectation (dot-product kernels only). */
        NUMBER
    }

    private final NtlKernel kernel;
    private final ContinuousForm continuous;
    private final double[] positionWeights;
    private final Positions positions;
    private final Penalty penalty; // the dot-product kernels' f, else null

    private NumberTokenLoss(NtlKernel kernel, ContinuousForm continuous, double[] positionWeights) {
        this(kernel, continuous, positionWeights, Positions.DIGITS, null);
    }

    private NumberTokenLoss(NtlKernel kernel, ContinuousForm continuous, double[] positionWeights, Positions positions,
            Penalty penalty) {
        this.kernel = kernel;
        this.continuous = continuous;
        this.positionWeights = positionWeights;
        this.positions = positions;
        this.penalty = penalty;
    }

    /** The positions mode. */
    public Positions positions() {
        return positions;
    }

    /** The same loss on every number position, exponent digits included. */
    public NumberTokenLoss onAllDigits() {
        return new NumberTokenLoss(kernel, continuous, positionWeights, Positions.ALL, penalty);
    }

    /** The place-weighted preset: position weights {@code |place_t|} from the output's place values. */
    public NumberTokenLoss placeWeighted() {
        return new NumberTokenLoss(kernel, continuous, null, Positions.PLACE, penalty);
    }

    /**
     * The number-level loss {@code f(yHat - y)} on the expected value of the whole number.
     *
     * @throws IllegalArgumentException for NTL-WAS and NTL-WAS-CDF (a distance between distributions, not a
     *                                  penalty on an expected value: use {@link #placeWeighted()})
     */
    public NumberTokenLoss numberLevel() {
        Checks.require(penalty != null, "%s has no number-level form (only ntl-mse, ntl-mae, ntl-huber); use its"
                + " place-weighted form", kernel.label());
        return new NumberTokenLoss(kernel, continuous, null, Positions.NUMBER, penalty);
    }

    static NumberTokenLoss dotProduct(Penalty f) {
        return new NumberTokenLoss(NtlKernel.dotProduct(f), NtlKernel.dotProductForm(f), null, Positions.DIGITS, f);
    }

    static NumberTokenLoss wasserstein() {
        return new NumberTokenLoss(NtlKernel.wasserstein(), NtlKernel.ABSOLUTE_DEVIATION, null);
    }

    static NumberTokenLoss wassersteinCdf(TargetDistribution target) {
        return new NumberTokenLoss(NtlKernel.wassersteinCdf(target), NtlKernel.ABSOLUTE_DEVIATION, null);
    }

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
        return new NumberTokenLoss(kernel, continuous, weights.clone(), positions == Positions.ALL ? Positions.ALL
                : Positions.DIGITS, penalty);
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

    /**
     * The per-position weights this call uses: the explicit ones, or {@code |place|} (PLACE), or 1; zero where the
     * place is NaN unless ALL. Null when every weight is 1.
     */
    private double[] effectiveWeights(TokenLogits output) {
        double[] places = output.places();
        int t = output.positions();
        if (places == null) {
            Checks.require(positions != Positions.PLACE || t == 1, "%s needs place values (TokenLogits.places) for"
                    + " %d positions, got none", name(), t);
            return positionWeights;
        }
        double[] w = new double[places.length];
        for (int i = 0; i < w.length; i++) {
            double base = positionWeights != null && i < positionWeights.length ? positionWeights[i] : 1.0;
            if (positions == Positions.PLACE) {
                base = Double.isNaN(places[i]) ? 0 : Math.abs(places[i]);
            }
            w[i] = positions != Positions.ALL && Double.isNaN(places[i]) ? 0 : base;
        }
        if (positionWeights != null && positionWeights.length != places.length) {
            return positionWeights; // TokenBatch reports the length mismatch
        }
        return w;
    }

    private double tokens(TokenLogits output, Targets targets, double weight, HeadOutput gradient,
                          double[] perExample) {
        if (positions == Positions.NUMBER) {
            return numbers(output, targets, weight, gradient, perExample);
        }
        TokenBatch b = TokenBatch.of(name(), output, targets, gradient, weight, perExample, effectiveWeights(output));
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

    /** The number-level loss (see the class comment): one value per example with a counted position. */
    private double numbers(TokenLogits output, Targets targets, double weight, HeadOutput gradient,
                           double[] perExample) {
        double[] places = output.places();
        int t = output.positions();
        Checks.require(places != null || t == 1, "%s needs place values (TokenLogits.places) for %d positions, got"
                + " none", name(), t);
        TokenBatch b = TokenBatch.of(name(), output, targets, gradient, weight, perExample, null);
        int k = b.numberIds.length;
        int[][] ids = new int[t][k];
        double[][] q = new double[t][k];
        int[] n = new int[t];
        double[] expect = new double[t];
        double[] label = new double[t];
        double[] v = b.numberValues;
        double sum = 0;
        int examples = 0;
        double[] loss = new double[b.batch];
        boolean[] counted = new boolean[b.batch];
        // pass 1: values (the batch mean needs the count of examples first)
        for (int ex = 0; ex < b.batch; ex++) {
            double yHat = 0;
            double y = 0;
            for (int p = 0; p < t; p++) {
                int row = ex * t + p;
                double place = places == null ? 1.0 : places[p];
                double yl = b.labelValue(row);
                n[p] = 0;
                if (Double.isNaN(place) || Double.isNaN(yl)) {
                    continue;
                }
                distribution(b, row, ids[p], q[p], n, p);
                expect[p] = 0;
                for (int j = 0; j < n[p]; j++) {
                    expect[p] += q[p][j] * valueOf(b, ids[p][j]);
                }
                yHat += place * expect[p];
                y += place * yl;
                counted[ex] = true;
            }
            if (counted[ex]) {
                loss[ex] = penalty.value(yHat - y);
                sum += loss[ex];
                examples++;
            }
        }
        if (examples == 0) {
            return 0.0;
        }
        double scale = weight / examples;
        for (int ex = 0; ex < b.batch; ex++) {
            if (!counted[ex]) {
                continue;
            }
            double yHat = 0;
            double y = 0;
            for (int p = 0; p < t; p++) {
                int row = ex * t + p;
                double place = places == null ? 1.0 : places[p];
                double yl = b.labelValue(row);
                n[p] = 0;
                if (Double.isNaN(place) || Double.isNaN(yl)) {
                    continue;
                }
                distribution(b, row, ids[p], q[p], n, p);
                expect[p] = 0;
                for (int j = 0; j < n[p]; j++) {
                    expect[p] += q[p][j] * valueOf(b, ids[p][j]);
                }
                label[p] = place;
                yHat += place * expect[p];
                y += place * yl;
            }
            double slope = penalty.slope(yHat - y);
            for (int p = 0; p < t; p++) {
                int row = ex * t + p;
                for (int j = 0; j < n[p]; j++) {
                    double g = slope * label[p] * q[p][j] * (valueOf(b, ids[p][j]) - expect[p]);
                    b.gradient.add(row, ids[p][j], scale * g);
                }
            }
            perExample[ex] += scale * loss[ex];
        }
        b.commit();
        return weight * sum / examples;
    }

    /** The masked softmax over the valid number tokens at {@code row}: ids and probabilities, count in n[p]. */
    private void distribution(TokenBatch b, int row, int[] ids, double[] q, int[] n, int p) {
        int m = 0;
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < b.numberIds.length; j++) {
            int id = b.numberIds[j];
            if (b.valid(row, id)) {
                ids[m] = id;
                q[m] = b.logits.get(row, id);
                max = Math.max(max, q[m]);
                m++;
            }
        }
        if (m == 0) {
            throw new IllegalArgumentException(name() + " needs a valid number token at every number position, got"
                    + " none at " + b.where(row));
        }
        double z = 0;
        for (int j = 0; j < m; j++) {
            q[j] = Math.exp(q[j] - max);
            z += q[j];
        }
        if (!(Double.isFinite(max) && Double.isFinite(z))) {
            throw new IllegalArgumentException("logits of the number tokens must be finite (at least one > -inf)"
                    + " at " + b.where(row) + ", got max " + max);
        }
        for (int j = 0; j < m; j++) {
            q[j] /= z;
        }
        n[p] = m;
    }

    private static double valueOf(TokenBatch b, int id) {
        return b.tokenValues[id];
    }

    @Override
    public String name() {
        String base = switch (positions) {
            case DIGITS -> kernel.label();
            case ALL -> kernel.label() + ":all";
            case PLACE -> kernel.label() + ":place";
            case NUMBER -> kernel.label() + ":number";
        };
        return positionWeights == null ? base : base + "@positions" + Arrays.toString(positionWeights);
    }

    @Override
    public String toString() {
        return name();
    }
}
