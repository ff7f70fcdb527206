package io.regheads.core.testing;

import io.regheads.core.dist.PredictiveDistribution;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * The contract every {@link PredictiveDistribution} must meet, as one reusable check (test code, shipped in the
 * core test-jar). Each method throws {@link AssertionError} naming the row, the point and the numbers.
 *
 * <ul>
 *   <li>{@link #quantileRoundTrip}: {@code cdf(icdf(p)) = p} and {@code icdf(cdf(y)) = y} at sampled points;
 *   <li>{@link #densityIsCdfDerivative}: central differences of the cdf equal the density where it is smooth;
 *   <li>{@link #densityIntegratesToOne}: the density integrates to the cdf's mass between far quantiles;
 *   <li>{@link #sampleMoments}: the mean of n samples lies within 4 sigma / sqrt(n) of {@code mean()}, the sample
 *       variance within 5% of {@code variance()};
 *   <li>{@link #modeAndMedian}: {@code median() = icdf(0.5)}; no sampled or grid point has higher density than
 *       the mode; quantiles stay inside the support bounds;
 *   <li>{@link #batchQueriesAgree}: the batch queries ({@code quantiles}, {@code cumulativeProbabilityGrid}, {@code
 *       logDensityGrid}, {@code centralInterval}) return the single-value methods' numbers bit for bit, and refuse
 *       bad levels, grids and coverages.
 * </ul>
 */
public final class DistributionContract {
    private static final double[] LEVELS = {1e-4, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1 - 1e-4};

    private DistributionContract() {}

    /** Runs every check with {@code n} samples per row (1e5 is the contract's size) and a seeded generator. */
    public static void verify(PredictiveDistribution d, int n, long seed) {
        UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(seed);
        double[][] samples = d.sample(rng, n);
        quantileRoundTrip(d, samples);
        densityIsCdfDerivative(d, samples);
        densityIntegratesToOne(d, 200_000);
        sampleMoments(d, samples);
        modeAndMedian(d, samples);
        batchQueriesAgree(d, samples);
    }

    static double scale(PredictiveDistribution d, int b) {
        double iqr = d.inverseCumulativeProbability(0.75)[b] - d.inverseCumulativeProbability(0.25)[b];
        return Math.max(iqr, 1e-12);
    }

    private static double[] column(double[][] samples, int s) {
        return samples[s].clone();
    }

    public static void quantileRoundTrip(PredictiveDistribution d, double[][] samples) {
        int bs = d.batchSize();
        for (double p : LEVELS) {
            double[] q = d.inverseCumulativeProbability(p);
            double[] c = d.cumulativeProbability(q);
            for (int b = 0; b < bs; b++) {
                if (!(Math.abs(c[b] - p) <= 1e-9)) {
                    throw new AssertionError(String.format("row %d: cdf(icdf(%s)) = %.15g (icdf = %.15g)", b, p, c[b], q[b]));
                }
            }
        }
        for (int s = 0; s < Math.min(samples.length, 200); s++) {
            double[] y = column(samples, s);
            double[] c = d.cumulativeProbability(y);
            double[] dens = d.logDensity(y);
            for (int b = 0; b < bs; b++) {
                if (dens[b] == Double.NEGATIVE_INFINITY || c[b] <= 0 || c[b] >= 1) {
                    continue; // a point of zero density has no unique inverse
                }
                double back = d.inverseCumulativeProbability(c[b])[b];
                double tol = 1e-7 * scale(d, b) + 1e-9 * Math.abs(y[b]);
                if (!(Math.abs(back - y[b]) <= tol)) {
                    throw new AssertionError(String.format(
                            "row %d: icdf(cdf(%.15g)) = %.15g (cdf %.15g), tolerance %.3g", b, y[b], back, c[b], tol));
                }
            }
        }
    }

    public static void densityIsCdfDerivative(PredictiveDistribution d, double[][] samples) {
        int bs = d.batchSize();
        int checked = 0;
        for (int s = 0; s < Math.min(samples.length, 200); s++) {
            double[] y = column(samples, s);
            for (int b = 0; b < bs; b++) {
                double h = 1e-5 * scale(d, b);
                double[] lo = y.clone();
                double[] hi = y.clone();
                lo[b] -= h;
                hi[b] += h;
                double f = Math.exp(d.logDensity(y)[b]);
                double fl = Math.exp(d.logDensity(lo)[b]);
                double fh = Math.exp(d.logDensity(hi)[b]);
                if (Math.abs(fl - f) > 1e-3 * f || Math.abs(fh - f) > 1e-3 * f) {
                    continue; // a jump (bin border) inside the stencil
                }
                double num = (d.cumulativeProbability(hi)[b] - d.cumulativeProbability(lo)[b]) / (2 * h);
                if (!(Math.abs(num - f) <= 1e-4 * f + 1e-9)) {
                    throw new AssertionError(String.format(
                            "row %d at y = %.15g: density %.12g but d/dy cdf = %.12g", b, y[b], f, num));
                }
                checked++;
            }
        }
        if (checked == 0) {
            throw new AssertionError("no smooth point found to compare the density with the cdf's derivative");
        }
    }

    /** Trapezoid over [icdf(1e-7), icdf(1 - 1e-7)] with {@code points} nodes per row vs the cdf's mass there. */
    public static void densityIntegratesToOne(PredictiveDistribution d, int points) {
        int bs = d.batchSize();
        double[] lo = d.inverseCumulativeProbability(1e-7);
        double[] hi = d.inverseCumulativeProbability(1 - 1e-7);
        double[] sum = new double[bs];
        double[] y = new double[bs];
        for (int i = 0; i <= points; i++) {
            for (int b = 0; b < bs; b++) {
                y[b] = lo[b] + (hi[b] - lo[b]) * i / points;
            }
            double[] l = d.logDensity(y);
            for (int b = 0; b < bs; b++) {
                double w = (i == 0 || i == points) ? 0.5 : 1;
                sum[b] += w * Math.exp(l[b]) * (hi[b] - lo[b]) / points;
            }
        }
        double[] mass = new double[bs];
        double[] cl = d.cumulativeProbability(lo);
        double[] ch = d.cumulativeProbability(hi);
        for (int b = 0; b < bs; b++) {
            mass[b] = ch[b] - cl[b];
            if (!(Math.abs(sum[b] - mass[b]) <= 2e-3) || !(Math.abs(mass[b] - 1) <= 1e-6)) {
                throw new AssertionError(String.format(
                        "row %d: density integrates to %.8f over [%.6g, %.6g], cdf mass there %.8f (expected ~1)",
                        b, sum[b], lo[b], hi[b], mass[b]));
            }
        }
    }

    public static void sampleMoments(PredictiveDistribution d, double[][] samples) {
        int bs = d.batchSize();
        int n = samples.length;
        double[] mean = d.mean();
        double[] var = d.variance();
        for (int b = 0; b < bs; b++) {
            double s = 0;
            for (double[] row : samples) {
                s += row[b];
            }
            double m = s / n;
            double ss = 0;
            for (double[] row : samples) {
                ss += (row[b] - m) * (row[b] - m);
            }
            double sv = ss / (n - 1);
            double se = Math.sqrt(var[b] / n);
            if (!(Math.abs(m - mean[b]) <= 4 * se)) {
                throw new AssertionError(String.format(
                        "row %d: sample mean %.10g vs mean() %.10g differ by %.3g > 4 SE = %.3g", b, m, mean[b], Math.abs(m - mean[b]), 4 * se));
            }
            if (!(Math.abs(sv - var[b]) <= 0.05 * var[b])) {
                throw new AssertionError(String.format("row %d: sample variance %.10g vs variance() %.10g", b, sv, var[b]));
            }
        }
    }

    /** Levels of the batch check: both ends, the contract's levels and a repeat. */
    private static final double[] BATCH_LEVELS = {0, 1e-4, 0.05, 0.25, 0.5, 0.5, 0.75, 0.95, 1 - 1e-4, 1};

    public static void batchQueriesAgree(PredictiveDistribution d, double[][] samples) {
        int bs = d.batchSize();
        double[][] q = d.quantiles(BATCH_LEVELS);
        if (q.length != BATCH_LEVELS.length) {
            throw new AssertionError("quantiles returned " + q.length + " rows for " + BATCH_LEVELS.length + " levels");
        }
        for (int l = 0; l < BATCH_LEVELS.length; l++) {
            same("quantiles level " + BATCH_LEVELS[l], d.inverseCumulativeProbability(BATCH_LEVELS[l]), q[l]);
        }
        double[][] ci = d.centralInterval(0.9);
        double[][] q90 = d.quantiles((1 - 0.9) / 2, (1 + 0.9) / 2);
        same("centralInterval(0.9) lower", q90[0], ci[0]);
        same("centralInterval(0.9) upper", q90[1], ci[1]);
        // a grid from the rows' quantiles and samples (finite points, unsorted, with a repeat) plus far points
        double[] lo = d.inverseCumulativeProbability(0.01);
        double[] hi = d.inverseCumulativeProbability(0.99);
        java.util.List<Double> pts = new java.util.ArrayList<>();
        for (int b = 0; b < bs; b++) {
            pts.add(lo[b]);
            pts.add(hi[b]);
            pts.add(0.5 * (lo[b] + hi[b]));
        }
        for (int s = 0; s < Math.min(samples.length, 7); s++) {
            pts.add(samples[s][s % bs]);
        }
        pts.add(pts.get(0));
        pts.add(-1e300);
        pts.add(1e300);
        double[] grid = pts.stream().filter(Double::isFinite).mapToDouble(Double::doubleValue).toArray();
        double[][] cg = d.cumulativeProbabilityGrid(grid);
        double[][] lg = d.logDensityGrid(grid);
        double[] y = new double[bs];
        for (int g = 0; g < grid.length; g++) {
            java.util.Arrays.fill(y, grid[g]);
            same("cumulativeProbabilityGrid at " + grid[g], d.cumulativeProbability(y), cg[g]);
            same("logDensityGrid at " + grid[g], d.logDensity(y), lg[g]);
        }
        if (d.quantiles().length != 0 || d.cumulativeProbabilityGrid(new double[0]).length != 0) {
            throw new AssertionError("empty levels or grid must give an empty result");
        }
        refuses("quantiles(1.5)", () -> d.quantiles(0.5, 1.5));
        refuses("quantiles(NaN)", () -> d.quantiles(Double.NaN));
        refuses("cumulativeProbabilityGrid(NaN)", () -> d.cumulativeProbabilityGrid(new double[] {0, Double.NaN}));
        refuses("logDensityGrid(Infinity)", () -> d.logDensityGrid(new double[] {Double.POSITIVE_INFINITY}));
        refuses("centralInterval(-0.1)", () -> d.centralInterval(-0.1));
    }

    private static void same(String what, double[] expected, double[] actual) {
        if (actual.length != expected.length) {
            throw new AssertionError(what + ": length " + actual.length + ", expected " + expected.length);
        }
        for (int b = 0; b < expected.length; b++) {
            if (Double.doubleToLongBits(expected[b]) != Double.doubleToLongBits(actual[b])) {
                throw new AssertionError(String.format("%s, row %d: batch query gives %.17g, single-value method %.17g",
                        what, b, actual[b], expected[b]));
            }
        }
    }

    private static void refuses(String what, Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException expected) {
            return;
        }
        throw new AssertionError(what + " must throw IllegalArgumentException");
    }

    public static void modeAndMedian(PredictiveDistribution d, double[][] samples) {
        int bs = d.batchSize();
        double[] median = d.median();
        double[] half = d.inverseCumulativeProbability(0.5);
        double[] mode = d.mode();
        double[] modeDensity = d.logDensity(mode);
        double[] lower = d.supportLowerBound();
        double[] upper = d.supportUpperBound();
        for (int b = 0; b < bs; b++) {
            if (!(Math.abs(median[b] - half[b]) <= 1e-12 * Math.max(1, Math.abs(half[b])))) {
                throw new AssertionError(String.format("row %d: median %.15g != icdf(0.5) %.15g", b, median[b], half[b]));
            }
        }
        for (double p : LEVELS) {
            double[] q = d.inverseCumulativeProbability(p);
            for (int b = 0; b < bs; b++) {
                if (!(q[b] >= lower[b] && q[b] <= upper[b])) {
                    throw new AssertionError(String.format("row %d: icdf(%s) = %s outside the support [%s, %s]", b, p, q[b], lower[b], upper[b]));
                }
            }
        }
        for (int s = 0; s < samples.length; s += Math.max(1, samples.length / 2000)) {
            double[] l = d.logDensity(samples[s]);
            for (int b = 0; b < bs; b++) {
                if (l[b] > modeDensity[b] + 1e-9 * Math.max(1, Math.abs(modeDensity[b]))) {
                    throw new AssertionError(String.format(
                            "row %d: log density %.12g at %.12g exceeds the mode's %.12g at %.12g",
                            b, l[b], samples[s][b], modeDensity[b], mode[b]));
                }
            }
        }
    }
}
