package io.regheads.heads.histogram;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.Temperable;
import io.regheads.core.check.Checks;
import java.util.Arrays;
import java.util.function.Supplier;
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
 * <p><b>Layout.</b> Columnar: one flat {@code double[B * n]} of probabilities (row b at {@code [b n, (b + 1) n)})
 * and, built on first use, one flat array of their cumulative sums; no per-row objects. Quantiles find their bin by
 * binary search in the cumulative sums ({@code O(log n)} per row and level). The batch queries ({@link
 * #quantiles}, {@link #cumulativeProbabilityGrid}, {@link #logDensityGrid}) return the same numbers as the
 * single-value methods, bit for bit; the grid forms locate each grid point's bin once for all rows.
 *
 * <p><b>Where the arithmetic lives.</b> This class holds the columns and answers the queries; the arithmetic is in
 * package-private classes beside it, one concern each: {@code BinProbabilities} (the reference softmax, given
 * probabilities, cumulative sums), {@code BinDensity} and {@code BinCdf} (each with its row form beside its grid form),
 * {@code BinQuantile}, {@code BinMoments} (mean, variance, mode), {@code LogProbs} (the kept exact logs) and {@code
 * Bins} (the bins and the half-normal tails).
 *
 * <p><b>Log densities.</b> Distributions built by {@link #fromLogits} keep the exact log probabilities {@code
 * logits_i - max - log sum exp(logits - max)}, so {@link #logDensity} stays finite inside the support even for bins
 * whose probability underflows to 0 in double (logits that differ by more than about 745), as for inputs far
 * outside the training range; otherwise the log density is {@code log p_i} plus the bin's or tail's log density.
 *
 * <p>Immutable (inputs copied) and thread-safe: the cumulative sums and means are computed at most once per
 * thread that races to them, identically, and published through volatile fields. A model's prediction computes its
 * means first and the probabilities on the first query that needs them (once, under this object's lock, from the
 * kept logits, with the same arithmetic as the means): asking for the means only never builds the {@code B * n}
 * probabilities.
 */
public final class HistogramDistribution implements PredictiveDistribution, Temperable {
    private final Bins bins;
    private final int rows;
    private volatile double[] probs; // [B * n], each row sums to 1; null until a deferred softmax has run
    private Supplier<double[]> deferred; // computes probs on first use, or null; guarded by this
    private final LogProbs logProbs; // the exact log probabilities kept, if any
    private volatile double[] cum; // [B * n] cumulative sums, last of each row exactly 1; built on first use
    private volatile double[] means; // [B], built on first use or given

    /**
     * @param borders strictly increasing finite bin borders {@code [n + 1]}, n >= 1
     * @param probs   {@code [B][n]} bin probabilities, non-negative, rows summing to 1 within 1e-6 (renormalised)
     * @param tails   whether the outer bins become half-normal tails (needs n >= 2)
     * @throws IllegalArgumentException on any violation, naming the offending value
     */
    public HistogramDistribution(double[] borders, double[][] probs, boolean tails) {
        this(Bins.of(borders, tails), BinProbabilities.normalised(probs, borders.length - 1), null, null);
    }

    /**
     * Trusted: {@code probs [B * n]} already normalised (rows of non-negative values summing to 1 up to rounding),
     * owned by the new object; {@code logProbs [B * n]} (owned) their exact logarithms, or null; {@code means [B]}
     * (owned) or null to compute them on first use.
     */
    HistogramDistribution(Bins bins, double[] probs, double[] logProbs, double[] means) {
        this.bins = bins;
        this.rows = probs.length / bins.n;
        this.probs = probs;
        this.logProbs = new LogProbs(bins.n, logProbs, null);
        this.means = means;
    }

    /**
     * Trusted, with the probabilities computed on first use: {@code probs} returns them as the other constructor
     * takes them ({@code [rows * n]}, owned), once, under this object's lock; {@code means [rows]} (owned) must be
     * given. A prediction asked for its means only never builds the {@code rows * n} probabilities. The few rows
     * with exact log probabilities keep them compactly: row b's n values at {@code logProbs[logSlot[b] * n]} (owned),
     * none where {@code logSlot[b] < 0}; both null when no row has them.
     */
    HistogramDistribution(Bins bins, int rows, Supplier<double[]> probs, int[] logSlot, double[] logProbs,
            double[] means) {
        Checks.require((logSlot == null) == (logProbs == null), "logSlot and logProbs must both be given or both null");
        Checks.require(logSlot == null || logSlot.length == rows, "logSlot must have %d entries, got %d", rows,
                logSlot == null ? 0 : logSlot.length);
        this.bins = bins;
        this.rows = rows;
        this.deferred = probs;
        this.logProbs = new LogProbs(bins.n, logProbs, logSlot);
        this.means = means;
    }

    /** The probabilities {@code [B * n]}, computed on the first call when they were deferred. */
    private double[] probs() {
        double[] p = probs;
        return p != null ? p : computeProbs();
    }

    private synchronized double[] computeProbs() {
        if (probs == null) {
            double[] p = deferred.get();
            Checks.require(p.length == rows * bins.n, "deferred probabilities must be [%d], got [%d]", rows * bins.n,
                    p.length);
            probs = p;
            deferred = null;
        }
        return probs;
    }

    /**
     * The distributions of {@code p = softmax(logits)} per row, computed stably in double precision ({@code
     * exp(z - max) / sum}); the log probabilities are kept exactly ({@code logits_i - max - log sum exp(logits -
     * max)}), so {@link #logDensity} stays finite inside the support even for bins whose probability underflows to 0
     * in double (logits that differ by more than about 745), as for inputs far outside the training range.
     *
     * <p>Example: borders {0, 1, 2}, logits {{0, -1000}} without tails: p = (1, 0), and the log density at 1.5 is
     * -1000 - log(1 + e^-1000) - log 1 = -1000, not -infinity.
     *
     * @param borders as for the constructor
     * @param logits  {@code [B][n]} finite
     * @param tails   as for the constructor
     * @throws IllegalArgumentException as the constructor, or if a logit is not finite (naming row and bin)
     */
    public static HistogramDistribution fromLogits(double[] borders, double[][] logits, boolean tails) {
        Bins bins = Bins.of(borders, tails);
        Checks.require(logits != null && logits.length > 0, "logits must have at least one row");
        int n = bins.n;
        double[] p = new double[Math.multiplyExact(logits.length, n)]; // [B * n]
        double[] lp = new double[p.length]; // [B * n]
        for (int b = 0; b < logits.length; b++) {
            double[] z = Checks.notNull("logits row " + b, logits[b]);
            if (z.length != n) {
                throw new IllegalArgumentException("logits row " + b + " must have n = " + n + " entries, got " + z.length);
            }
            for (int i = 0; i < n; i++) {
                if (!Double.isFinite(z[i])) { // explicit test: no varargs boxing per element
                    throw new IllegalArgumentException("logits[" + b + "][" + i + "] must be finite, got " + z[i]);
                }
            }
            BinProbabilities.exactRow(z, 0, n, p, lp, b * n);
        }
        return new HistogramDistribution(bins, p, lp, null);
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
        return rows;
    }

    /** Bins n. */
    public int bins() {
        return bins.n;
    }

    /** Whether the outer bins are half-normal tails. */
    public boolean hasTails() {
        return bins.tails;
    }

    /** A copy of the borders. */
    public double[] borders() {
        return bins.borders.clone();
    }

    /** A copy of the bin probabilities {@code [B][n]}. */
    public double[][] probabilities() {
        double[] p = probs();
        int n = bins.n;
        double[][] c = new double[rows][];
        for (int b = 0; b < rows; b++) {
            c[b] = Arrays.copyOfRange(p, b * n, (b + 1) * n);
        }
        return c;
    }

    /** The bin index of y: {@code b_i <= y < b_{i+1}}, with {@code b_n} in the last bin; -1 or n outside. */
    public int binOf(double y) {
        return bins.binOf(y);
    }

    /** The cumulative sums, built once (a racing thread builds the same array). */
    private double[] cum() {
        double[] c = cum;
        if (c == null) {
            c = BinProbabilities.cumulative(probs(), rows, bins.n);
            cum = c;
        }
        return c;
    }

    private void checkY(double[] y) {
        Checks.rowValues("y", y, rows);
    }

    /**
     * The histogram at temperature t ({@link Temperable}): each row's bin probabilities {@code softmax(log p / t)},
     * computed stably in double from the exact log probabilities; the bins, and the tails' shapes, unchanged.
     */
    @Override
    public HistogramDistribution tempered(double t) {
        Checks.positive("t", t);
        if (t == 1) {
            return this;
        }
        int n = bins.n;
        double[] p = probs();
        double[] z = new double[n];
        double[] outP = new double[rows * n];
        double[] outLp = new double[rows * n];
        for (int b = 0; b < rows; b++) {
            for (int i = 0; i < n; i++) {
                double lp = logProbs.of(p, b, i);
                z[i] = lp == Double.NEGATIVE_INFINITY ? -Double.MAX_VALUE : lp / t;
            }
            BinProbabilities.exactRow(z, 0, n, outP, outLp, b * n);
        }
        return new HistogramDistribution(bins, outP, outLp, null);
    }

    @Override
    public double[] logDensity(double[] y) {
        checkY(y);
        double[] p = probs();
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = BinDensity.at(bins, logProbs, p, b, y[b]);
        }
        return out;
    }

    @Override
    public double[] cumulativeProbability(double[] y) {
        checkY(y);
        double[] p = probs();
        double[] c = cum();
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = BinCdf.at(bins, p, c, b, y[b]);
        }
        return out;
    }

    @Override
    public double[] inverseCumulativeProbability(double p) {
        Checks.inClosedRange("p", p, 0, 1);
        double[] probs = probs();
        double[] c = cum();
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            out[b] = BinQuantile.at(bins, probs, c, b, p);
        }
        return out;
    }

    @Override
    public double[] mean() {
        double[] m = means;
        if (m == null) {
            m = BinMoments.means(bins, probs(), rows);
            means = m;
        }
        return m.clone();
    }

    @Override
    public double[] variance() {
        double[] m = mean();
        return BinMoments.variances(bins, probs(), m, rows);
    }

    @Override
    public double[] mode() {
        return BinMoments.modes(bins, probs(), rows);
    }

    @Override
    public double[][] sample(UniformRandomProvider rng, int n) {
        Checks.notNull("rng", rng);
        Checks.atLeast("n", n, 0);
        double[] c = cum();
        double[] p = probs();
        double[][] out = new double[n][rows];
        for (int s = 0; s < n; s++) {
            for (int b = 0; b < rows; b++) {
                double u = ((rng.nextLong() >>> 11) + 0.5) * 0x1.0p-53; // in (0, 1)
                out[s][b] = BinQuantile.at(bins, p, c, b, u);
            }
        }
        return out;
    }

    @Override
    public double[] supportLowerBound() {
        double[] v = new double[rows];
        Arrays.fill(v, bins.tails ? Double.NEGATIVE_INFINITY : bins.borders[0]);
        return v;
    }

    @Override
    public double[] supportUpperBound() {
        double[] v = new double[rows];
        Arrays.fill(v, bins.tails ? Double.POSITIVE_INFINITY : bins.borders[bins.n]);
        return v;
    }

    // ------------------------------------------------------------------ batch queries

    /** As the interface; row by row so that each row's cumulative sums are read once for every level. */
    @Override
    public double[][] quantiles(double... levels) {
        Checks.allInClosedRange("levels", levels, 0, 1);
        double[] c = cum();
        double[] p = probs();
        double[][] out = new double[levels.length][rows];
        for (int b = 0; b < rows; b++) {
            for (int l = 0; l < levels.length; l++) {
                out[l][b] = BinQuantile.at(bins, p, c, b, levels[l]);
            }
        }
        return out;
    }

    /** As the interface; the bin of each grid point (shared by all rows) is found once. */
    @Override
    public double[][] cumulativeProbabilityGrid(double[] grid) {
        Checks.allFinite("grid", grid);
        double[] p = probs();
        double[] c = cum();
        return BinCdf.grid(bins, p, c, rows, grid);
    }

    /** As the interface; the bin of each grid point (shared by all rows) is found once. */
    @Override
    public double[][] logDensityGrid(double[] grid) {
        Checks.allFinite("grid", grid);
        double[] p = probs();
        return BinDensity.grid(bins, logProbs, p, rows, grid);
    }
}
