package io.regheads.heads.histogram;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.StdNormal;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * B piecewise-constant densities over n bins with borders {@code b_0 < b_1 < ... < b_n} (the Riemann or
 * "bar" distribution): bin i holds probability {@code p_i}, spread uniformly, so the density on {@code [b_i,
 * b_{i+1})} is {@code p_i / w_i}, {@code w_i = b_{i+1} - b_i}.
 *
 * <p><b>Half-normal tails</b> (optional, needs n >= 2): the outer bins' mass is spread over half-normals anchored
 * at the inner borders, which gives full support: bin 0 becomes {@code p_0 HN_{s_0}(b_1 - y)} on {@code (-inf,
 * b_1]} and bin n-1 becomes {@code p_{n-1} HN_{s_1}(y - b_{n-1})} on {@code [b_{n-1}, +inf)} (each tail includes
 * its inner border, where its density peaks, so the mode is attained), with {@code s = w /
 * Phi^-1(0.75)} so that half of each tail's mass lies within one bin width (as in TabPFN's full-support bar
 * distribution). Unlike TabPFN (issue #1200), the tails are used <em>consistently</em> in density, cdf, quantile,
 * mean, variance, mode and sampling.
 *
 * <p>Conventions: a value equal to an inner border belongs to the bin on its right; {@code b_n} belongs to the
 * last bin. The mode is the centre of the bin of highest density {@code p_i / w_i} (not highest probability); a
 * tail's density is highest at its inner border, which is then the mode. Quantiles are exact: linear inside a bin,
 * the half-normal quantile in a tail, and for levels that fall on a run of empty bins the smallest y reaching the
 * level.
 *
 * <p>Example: borders {0, 0.5, 1}, p = (0.25, 0.75) without tails: density 0.5 on [0, 0.5) and 1.5 on [0.5, 1];
 * cdf(0.75) = 0.625; median = 0.5 + 0.5 * 0.25 / 0.75 = 0.6667; mean = 0.25*0.25 + 0.75*0.75 = 0.625; mode 0.75.
 *
 * <p>Immutable (inputs copied) and thread-safe.
 */
public final class HistogramDistribution implements PredictiveDistribution {
    /** {@code Phi^-1(0.75)}: the median of a standard half-normal. */
    static final double HALF_NORMAL_MEDIAN = StdNormal.quantile(0.75);

    private static final double SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);

    private final double[] borders; // [n + 1]
    private final double[][] probs; // [B][n]
    private final double[][] logProbs; // [B][n]: log probs, finite for every bin when built from finite logits
    private final double[][] cum; // [B][n] cumulative sums
    private final boolean tails;
    private final double sLeft;
    private final double sRight;

    /**
     * @param borders strictly increasing finite bin borders {@code [n + 1]}, n >= 1
     * @param probs   {@code [B][n]} bin probabilities, non-negative, rows summing to 1 within 1e-6 (renormalised)
     * @param tails   whether the outer bins become half-normal tails (needs n >= 2)
     * @throws IllegalArgumentException on any violation, naming the offending value
     */
    public HistogramDistribution(double[] borders, double[][] probs, boolean tails) {
        this(borders, probs, null, tails);
    }

    /**
     * The distributions of {@code p = softmax(logits)} per row, computed stably; the log probabilities are kept
     * exactly ({@code logits_i - max - log sum exp(logits - max)}), so {@link #logDensity} stays finite inside the
     * support even for bins whose probability underflows to 0 in double (logits that differ by more than about
     * 745), as for inputs far outside the training range.
     *
     * @param borders as for the constructor
     * @param logits  {@code [B][n]} finite
     * @param tails   as for the constructor
     * @throws IllegalArgumentException as the constructor, or if a logit is not finite (naming row and bin)
     */
    public static HistogramDistribution fromLogits(double[] borders, double[][] logits, boolean tails) {
        Checks.require(logits != null && logits.length > 0, "logits must have at least one row");
        double[][] p = new double[logits.length][];
        double[][] lp = new double[logits.length][];
        for (int b = 0; b < logits.length; b++) {
            double[] z = Checks.notNull("logits row " + b, logits[b]);
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < z.length; i++) {
                if (!Double.isFinite(z[i])) { // explicit test: no varargs boxing per element
                    throw new IllegalArgumentException("logits[" + b + "][" + i + "] must be finite, got " + z[i]);
                }
                max = Math.max(max, z[i]);
            }
            p[b] = new double[z.length];
            lp[b] = new double[z.length];
            double s = 0;
            for (int i = 0; i < z.length; i++) {
                p[b][i] = Math.exp(z[i] - max);
                s += p[b][i];
            }
            double logS = Math.log(s);
            for (int i = 0; i < z.length; i++) {
                lp[b][i] = z[i] - max - logS;
                p[b][i] /= s;
            }
        }
        return new HistogramDistribution(borders, p, lp, tails);
    }

    private HistogramDistribution(double[] borders, double[][] probs, double[][] logProbs, boolean tails) {
        Checks.require(borders != null && borders.length >= 2, "borders must have at least 2 entries");
        int n = borders.length - 1;
        for (int i = 0; i <= n; i++) {
            Checks.require(Double.isFinite(borders[i]), "borders[%d] must be finite, got %s", i, borders[i]);
            if (i > 0) {
                Checks.require(borders[i] > borders[i - 1],
                        "borders must be strictly increasing, got %s then %s at index %d", borders[i - 1], borders[i], i);
            }
        }
        Checks.require(!tails || n >= 2, "half-normal tails need at least 2 bins, got %d", n);
        Checks.require(probs != null && probs.length > 0, "probs must have at least one row");
        this.borders = borders.clone();
        this.tails = tails;
        this.probs = new double[probs.length][n];
        this.logProbs = new double[probs.length][n];
        this.cum = new double[probs.length][n];
        for (int b = 0; b < probs.length; b++) {
            if (probs[b].length != n) {
                throw new IllegalArgumentException("probs row " + b + " must have n = " + n + " entries, got " + probs[b].length);
            }
            double s = 0;
            for (int i = 0; i < n; i++) {
                double p = probs[b][i];
                if (!(p >= 0 && p <= 1)) { // explicit test: no varargs boxing per element
                    throw new IllegalArgumentException("probs[" + b + "][" + i + "] must be in [0, 1], got " + p);
                }
                s += p;
            }
            if (!(Math.abs(s - 1) <= 1e-6)) {
                throw new IllegalArgumentException("probs of row " + b + " must sum to 1, got " + s);
            }
            double c = 0;
            double logS = Math.log(s);
            for (int i = 0; i < n; i++) {
                this.probs[b][i] = probs[b][i] / s;
                // from logits: the exact log (renormalising by s ~ 1 only shifts it by log s)
                this.logProbs[b][i] = logProbs != null ? logProbs[b][i] - logS : Math.log(this.probs[b][i]);
                c += this.probs[b][i];
                cum[b][i] = c;
            }
            cum[b][n - 1] = 1;
        }
        this.sLeft = (borders[1] - borders[0]) / HALF_NORMAL_MEDIAN;
        this.sRight = (borders[n] - borders[n - 1]) / HALF_NORMAL_MEDIAN;
    }

    /** {@code n} equal-width borders on {@code [lo, hi]}. */
    public static double[] equalBorders(int n, double lo, double hi) {
        Checks.atLeast("n", n, 1);
        Checks.finite("lo", lo);
        Checks.finite("hi", hi);
        Checks.require(hi > lo, "hi must be > lo, got lo = %s, hi = %s", lo, hi);
        double[] b = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            b[i] = lo + (hi - lo) * i / n;
        }
        b[n] = hi;
        return b;
    }

    @Override
    public int batchSize() {
        return probs.length;
    }

    /** Bins n. */
    public int bins() {
        return borders.length - 1;
    }

    /** Whether the outer bins are half-normal tails. */
    public boolean hasTails() {
        return tails;
    }

    /** A copy of the borders. */
    public double[] borders() {
        return borders.clone();
    }

    /** A copy of the bin probabilities {@code [B][n]}. */
    public double[][] probabilities() {
        double[][] c = new double[probs.length][];
        for (int i = 0; i < c.length; i++) {
            c[i] = probs[i].clone();
        }
        return c;
    }

    /** The bin index of y: {@code b_i <= y < b_{i+1}}, with {@code b_n} in the last bin; -1 or n outside. */
    public int binOf(double y) {
        int n = bins();
        if (y < borders[0]) {
            return -1;
        }
        if (y > borders[n]) {
            return n;
        }
        if (y == borders[n]) {
            return n - 1;
        }
        int i = Arrays.binarySearch(borders, y);
        return i >= 0 ? i : -i - 2;
    }

    private void checkY(double[] y) {
        Checks.rowValues("y", y, batchSize());
    }

    private static double halfNormalLogPdf(double d, double s) {
        return Math.log(SQRT_2_OVER_PI / s) - 0.5 * (d / s) * (d / s);
    }

    private double logDensity(int b, double y) {
        int n = bins();
        if (tails) {
            if (y <= borders[1]) {
                return logProbs[b][0] + halfNormalLogPdf(borders[1] - y, sLeft);
            }
            if (y >= borders[n - 1]) {
                return logProbs[b][n - 1] + halfNormalLogPdf(y - borders[n - 1], sRight);
            }
        }
        int i = binOf(y);
        if (i < 0 || i >= n) {
            return Double.NEGATIVE_INFINITY;
        }
        return logProbs[b][i] - Math.log(borders[i + 1] - borders[i]);
    }

    private double cdf(int b, double y) {
        int n = bins();
        if (tails) {
            if (y <= borders[1]) {
                // p0 * P(HN >= b1 - y) = p0 * 2 Phi(-(b1 - y)/s)
                return probs[b][0] * 2 * StdNormal.cdf(-(borders[1] - y) / sLeft);
            }
            if (y >= borders[n - 1]) {
                double below = n >= 2 ? cum[b][n - 2] : 0;
                double inTail = 1 - 2 * StdNormal.cdf(-(y - borders[n - 1]) / sRight);
                return Math.min(1, below + probs[b][n - 1] * inTail);
            }
        }
        int i = binOf(y);
        if (i < 0) {
            return 0;
        }
        if (i >= n) {
            return 1;
        }
        double below = i > 0 ? cum[b][i - 1] : 0;
        double frac = (y - borders[i]) / (borders[i + 1] - borders[i]);
        return Math.min(1, below + probs[b][i] * frac);
    }

    private double quantile(int b, double q) {
        int n = bins();
        if (q == 0) {
            return tails ? Double.NEGATIVE_INFINITY : firstNonEmptyBorder(b);
        }
        if (q == 1 && tails) {
            return Double.POSITIVE_INFINITY;
        }
        // smallest i with cum_i >= q and p_i > 0
        int i = 0;
        while (i < n - 1 && (cum[b][i] < q || probs[b][i] == 0)) {
            i++;
        }
        while (probs[b][i] == 0 && i > 0) {
            i--; // rounding left q above every cumulative sum: the last non-empty bin
        }
        double below = i > 0 ? cum[b][i - 1] : 0;
        double r = Math.min(1, Math.max(0, (q - below) / probs[b][i])); // level inside bin i
        if (tails && i == 0) {
            return borders[1] + sLeft * StdNormal.quantile(r / 2);
        }
        if (tails && i == n - 1) {
            return borders[n - 1] + sRight * StdNormal.quantile(0.5 + r / 2);
        }
        return borders[i] + (borders[i + 1] - borders[i]) * r;
    }

    private double firstNonEmptyBorder(int b) {
        for (int i = 0; i < bins(); i++) {
            if (probs[b][i] > 0) {
                return borders[i];
            }
        }
        return borders[0];
    }

    @Override
    public double[] logDensity(double[] y) {
        checkY(y);
        double[] out = new double[y.length];
        for (int b = 0; b < out.length; b++) {
            out[b] = logDensity(b, y[b]);
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        checkY(y);
        double[] out = new double[y.length];
        for (int b = 0; b < out.length; b++) {
            out[b] = cdf(b, y[b]);
        }
        return out;
    }

    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.inClosedRange("p", p, 0, 1);
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            out[b] = quantile(b, p);
        }
        return out;
    }

    /** Mean of bin i's component: its centre, or the half-normal mean in a tail. */
    private double componentMean(int i) {
        int n = bins();
        if (tails && i == 0) {
            return borders[1] - sLeft * SQRT_2_OVER_PI;
        }
        if (tails && i == n - 1) {
            return borders[n - 1] + sRight * SQRT_2_OVER_PI;
        }
        return 0.5 * (borders[i] + borders[i + 1]);
    }

    /** Variance of bin i's component: w^2 / 12, or s^2 (1 - 2/pi) in a tail. */
    private double componentVariance(int i) {
        int n = bins();
        if (tails && i == 0) {
            return sLeft * sLeft * (1 - 2 / Math.PI);
        }
        if (tails && i == n - 1) {
            return sRight * sRight * (1 - 2 / Math.PI);
        }
        double w = borders[i + 1] - borders[i];
        return w * w / 12;
    }

    @Override
    public double[] mean() {
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            double s = 0;
            for (int i = 0; i < bins(); i++) {
                s += probs[b][i] * componentMean(i);
            }
            out[b] = s;
        }
        return out;
    }

    @Override
    public double[] variance() {
        double[] m = mean();
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            double s = 0;
            for (int i = 0; i < bins(); i++) {
                double d = componentMean(i) - m[b];
                s += probs[b][i] * (componentVariance(i) + d * d);
            }
            out[b] = s;
        }
        return out;
    }

    @Override
    public double[] mode() {
        int n = bins();
        double[] out = new double[batchSize()];
        for (int b = 0; b < out.length; b++) {
            double best = Double.NEGATIVE_INFINITY;
            double at = Double.NaN;
            for (int i = 0; i < n; i++) {
                double dens;
                double x;
                if (tails && i == 0) {
                    dens = probs[b][0] * SQRT_2_OVER_PI / sLeft;
                    x = borders[1];
                } else if (tails && i == n - 1) {
                    dens = probs[b][n - 1] * SQRT_2_OVER_PI / sRight;
                    x = borders[n - 1];
                } else {
                    dens = probs[b][i] / (borders[i + 1] - borders[i]);
                    x = 0.5 * (borders[i] + borders[i + 1]);
                }
                if (dens > best) {
                    best = dens;
                    at = x;
                }
            }
            out[b] = at;
        }
        return out;
    }

    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        Checks.notNull("rng", rng);
        Checks.atLeast("n", n, 0);
        double[][] out = new double[n][batchSize()];
        for (int s = 0; s < n; s++) {
            for (int b = 0; b < batchSize(); b++) {
                double u = ((rng.nextLong() >>> 11) + 0.5) * 0x1.0p-53; // in (0, 1)
                out[s][b] = quantile(b, u);
            }
        }
        return out;
    }

    @Override
    public double[] supportLowerBound() {
        double[] v = new double[batchSize()];
        Arrays.fill(v, tails ? Double.NEGATIVE_INFINITY : borders[0]);
        return v;
    }

    @Override
    public double[] supportUpperBound() {
        double[] v = new double[batchSize()];
        Arrays.fill(v, tails ? Double.POSITIVE_INFINITY : borders[bins()]);
        return v;
    }
}
