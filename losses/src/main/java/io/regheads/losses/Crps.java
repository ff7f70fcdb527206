package io.regheads.losses;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.QuantileKnots;
import io.regheads.core.head.Scalar;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.FastExp;
import io.regheads.core.internal.PiecewiseQuantiles;
import io.regheads.core.internal.Simd;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import java.util.Arrays;
import org.apache.commons.numbers.gamma.Erf;

/**
 * The continuous ranked probability score as a training loss: {@code CRPS(F, y) = int (F(z) - 1{z >= y})^2 dz = E|Y -
 * y| - E|Y - Y'| / 2} (Y, Y' independent draws of F), a proper scoring rule in the units of y that rewards sharpness
 * and calibration together without the log score's sensitivity to density spikes (Gneiting and Raftery, "Strictly
 * Proper Scoring Rules, Prediction, and Estimation", JASA 2007). Build it with {@link Losses#crps()}; it composes like
 * every loss ({@code ce + 0.5 crps}). The batch value is the mean over the batch (over the non-ignored positions of a
 * histogram).
 *
 * <p>Closed forms, exact value and gradient per output kind:
 * <ul>
 *   <li>{@link GaussianMixture} ({@code pi = softmax(a)}, means mu, stds s): {@code sum_m pi_m A(mu_m - y, s_m) - 1/2
 *       sum_{m,n} pi_m pi_n A(mu_m - mu_n, sqrt(s_m^2 + s_n^2))} with the folded-normal mean {@code A(d, s) = E|N(d,
 *       s^2)| = d (2 Phi(d/s) - 1) + 2 s phi(d/s)}; O(K^2) per row. For K = 1 this is the Gaussian {@code s (z (2
 *       Phi(z) - 1) + 2 phi(z) - 1/sqrt(pi))}, {@code z = (y - mu) / s}.</li>
 *   <li>{@link Scalar} (a point prediction yHat, read as {@code N(yHat, 1/2)}, as cross-entropy reads it, so that
 *       {@code ce} and {@code crps} score the same Gaussian): with {@code e = yHat - y}, {@code e erf(e) + (exp(-e^2) -
 *       1/sqrt(2)) / sqrt(pi)}, gradient {@code erf(e)}.</li>
 *   <li>{@link TokenLogits} with {@link TokenLogits.Bins} (a histogram head: uniform bins, half-normal tails if it
 *       has them): the piecewise integral of {@code (F - 1{z >= y})^2}, O(V) per row (see {@link BinCrps}), at the
 *       exact label value ({@code Targets.Tokens.values()}, else the target bin's value); gradient through the
 *       softmax over the valid tokens.</li>
 *   <li>{@link QuantileKnots}: the exact CRPS of the knots' piecewise-linear quantile function with exponential
 *       tails, O(L) per row ({@link PiecewiseQuantiles#crps}).</li>
 *   <li>{@link TokenLogits} without bins (decoder digits) have no closed form and are refused in one line.</li>
 * </ul>
 *
 * <p>Example (checked in the tests against numerical integration): N(0, 1) at y = 0 gives {@code 2 phi(0) - 1/sqrt(pi)
 * = 0.2336950}; the quantile knots (-1, 1) at levels (0.25, 0.75) at y = 0 give 17/48.
 *
 * <p>Immutable and thread-safe.
 */
public final class Crps implements Loss {
    private static final double INV_SQRT_PI = 1 / Math.sqrt(Math.PI);
    private static final double INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
    private static final double SQRT_HALF = Math.sqrt(0.5);
    private static final Crps INSTANCE = new Crps();

    private Crps() {}

    static Crps create() {
        return INSTANCE;
    }

    @Override
    public double accumulate(HeadOutput output, Targets targets, double weight, HeadOutput gradient,
                             double[] perExample) {
        Checks.notNull("output", output);
        if (output instanceof QuantileKnots knots) {
            return knots(knots, targets, weight, gradient, perExample);
        }
        if (output instanceof TokenLogits logits) {
            return bins(logits, targets, weight, gradient, perExample);
        }
        return ContinuousForm.accumulate(name(), FORM, output, targets, weight, gradient, perExample);
    }

    private double knots(QuantileKnots out, Targets targets, double weight, HeadOutput gradient, double[] perExample) {
        KnotBatch k = KnotBatch.of(name(), out, targets, weight, gradient, perExample);
        PiecewiseQuantiles pq = PiecewiseQuantiles.of(out.levels());
        double scale = weight / k.batch;
        double total = 0;
        for (int b = 0; b < k.batch; b++) {
            double l = pq.crps(k.knots, b * k.levels, k.y[b], scale, k.grad, b * k.levels);
            perExample[b] += scale * l;
            total += l;
        }
        k.commit();
        return scale * total;
    }

    private double bins(TokenLogits out, Targets targets, double weight, HeadOutput gradient, double[] perExample) {
        TokenLogits.Bins bins = out.bins();
        if (bins == null) {
            throw new IllegalArgumentException("crps has no closed form on TokenLogits without bins (shape "
                    + Arrays.toString(out.logits().shape()) + ", a decoder's digits): use ce or ntl-was there; crps "
                    + "takes histogram, mixture, pointwise and quantile outputs");
        }
        TokenBatch b = TokenBatch.of(name(), out, targets, gradient, weight, perExample, null);
        int rows = b.batch; // T = 1
        int counted = 0;
        for (int row = 0; row < rows; row++) {
            if (b.token(row) != Targets.IGNORE) {
                counted++;
            }
        }
        if (counted == 0) {
            return 0.0;
        }
        int v = b.vocab;
        double[] z = new double[v]; // [V] logits of one row
        double[] p = new double[v]; // [V] probabilities
        double[] carrier = new double[v];
        double[] m = b.mask == null ? null : new double[v];
        double[] g = new double[v]; // [V] d CRPS / d p, then d CRPS / d z
        double[] jl = new double[v];
        double[] jr = new double[v];
        double scale = weight / counted;
        double sum = 0;
        for (int row = 0; row < rows; row++) {
            if (b.token(row) == Targets.IGNORE) {
                continue;
            }
            double y = b.labelValue(row);
            if (!Double.isFinite(y)) { // explicit test: the message is built only when it is thrown
                throw new IllegalArgumentException("crps needs a finite label value at " + b.where(row) + ", got " + y);
            }
            b.logits.read(row, z);
            double max = Double.NEGATIVE_INFINITY;
            if (m == null) {
                max = Simd.max(z, 0, v);
            } else {
                b.mask.read(row, m);
                for (int j = 0; j < v; j++) {
                    if (m[j] != 0) {
                        max = Math.max(max, z[j]);
                    }
                }
            }
            if (!(Math.abs(max) <= Double.MAX_VALUE)) { // explicit test: the message only when thrown
                throw new IllegalArgumentException("logits must be finite at valid tokens at " + b.where(row)
                        + ", got maximum " + max);
            }
            double s = FastExp.expShiftedSum(z, max, p, carrier, v);
            if (m != null) {
                s = 0;
                for (int j = 0; j < v; j++) {
                    p[j] = m[j] != 0 ? p[j] : 0.0;
                    s += p[j];
                }
            }
            if (!(s >= 1 && s < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("logits must be finite at valid tokens at " + b.where(row)
                        + ", got exponential sum " + s);
            }
            for (int j = 0; j < v; j++) {
                p[j] /= s;
            }
            double l = BinCrps.crps(bins, p, y, g, jl, jr);
            double mean = 0; // softmax backward: dz_j = p_j (g_j - sum_k p_k g_k)
            for (int j = 0; j < v; j++) {
                mean += p[j] * g[j];
            }
            for (int j = 0; j < v; j++) {
                g[j] = p[j] * (g[j] - mean);
            }
            b.gradient.addScaled(row, scale, g);
            perExample[row] += scale * l;
            sum += l;
        }
        b.commit();
        return scale * sum;
    }

    /** Mixture and scalar forms. */
    private static final ContinuousForm FORM = new ContinuousForm() {
        @Override
        public double mixture(Mixture.Parameters p, double y, double scale, Mixture.Gradients g) {
            return mixtureCrps(p.a(), p.mu(), p.s(), y, scale, g.da(), g.dMu(), g.dS());
        }

        @Override
        public double scalar(double yHat, double y, double[] slope) {
            double e = yHat - y;
            double erf = Erf.value(e);
            slope[0] = erf;
            return e * erf + (Math.exp(-e * e) - SQRT_HALF) * INV_SQRT_PI;
        }
    };

    /**
     * CRPS of one mixture; adds {@code scale *} its gradient. With {@code a_m = A(mu_m - y, s_m)}, {@code A_mn =
     * A(mu_m - mu_n, S_mn)}, {@code S_mn = sqrt(s_m^2 + s_n^2)}, {@code G = 2 Phi - 1}:
     * <pre>
     *   d/dmu_m = pi_m G((mu_m - y)/s_m) - pi_m sum_{n != m} pi_n G((mu_m - mu_n)/S_mn)
     *   d/ds_m  = pi_m 2 phi((mu_m - y)/s_m) - pi_m^2 / sqrt(pi) - pi_m sum_{n != m} pi_n 2 phi(.) s_m / S_mn
     *   d/dpi_m = h_m = a_m - sum_n pi_n A_mn,   d/da_m = pi_m (h_m - sum_j pi_j h_j)
     * </pre>
     */
    static double mixtureCrps(double[] a, double[] mu, double[] s, double y, double scale, double[] ga, double[] gm,
                              double[] gs) {
        int k = a.length;
        double[] pi = new double[k];
        Mixture.weights(a, pi);
        double[] h = new double[k]; // d CRPS / d pi
        double value = 0;
        for (int m = 0; m < k; m++) {
            double d = mu[m] - y;
            double z = d / s[m];
            double g = Erf.value(z * SQRT_HALF); // 2 Phi(z) - 1
            double phi2 = 2 * INV_SQRT_2PI * Math.exp(-0.5 * z * z); // 2 phi(z)
            double am = d * g + s[m] * phi2;
            double self = 2 * INV_SQRT_PI * s[m]; // A_mm = A(0, sqrt(2) s_m) = 2 s_m / sqrt(pi)
            h[m] += am - pi[m] * self;
            value += pi[m] * am - 0.5 * pi[m] * pi[m] * self;
            gm[m] += scale * pi[m] * g;
            gs[m] += scale * (pi[m] * phi2 - pi[m] * pi[m] * INV_SQRT_PI); // d/ds_m of -pi_m^2 A_mm / 2
        }
        for (int m = 0; m < k; m++) {
            for (int n = m + 1; n < k; n++) {
                double d = mu[m] - mu[n];
                double sq = Math.sqrt(s[m] * s[m] + s[n] * s[n]);
                double z = d / sq;
                double g = Erf.value(z * SQRT_HALF);
                double phi2 = 2 * INV_SQRT_2PI * Math.exp(-0.5 * z * z);
                double amn = d * g + sq * phi2;
                value -= pi[m] * pi[n] * amn; // the (m, n) and (n, m) halves of -1/2 sum
                h[m] -= pi[n] * amn;
                h[n] -= pi[m] * amn;
                double w = pi[m] * pi[n];
                gm[m] -= scale * w * g;
                gm[n] += scale * w * g;
                gs[m] -= scale * w * phi2 * s[m] / sq;
                gs[n] -= scale * w * phi2 * s[n] / sq;
            }
        }
        double mean = 0;
        for (int m = 0; m < k; m++) {
            mean += pi[m] * h[m];
        }
        for (int m = 0; m < k; m++) {
            ga[m] += scale * pi[m] * (h[m] - mean);
        }
        return value;
    }

    @Override
    public String name() {
        return "crps";
    }

    @Override
    public String toString() {
        return name();
    }
}
