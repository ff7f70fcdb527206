package io.regheads.heads.histogram;

import io.regheads.core.internal.FastExp;
import io.regheads.core.internal.RowParallel;
import io.regheads.core.internal.Simd;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Row softmax of logits {@code z [B, n]} plus a bias {@code [n]} straight into the columns of a {@link
 * HistogramDistribution}: with {@code l_rj = z_rj + bias_j}, {@code probs[r n + j] = exp(l_rj - max_r) / sum_j
 * exp(l_rj - max_r)} and {@code means[r] = sum_j exp(l_rj - max_r) values_j / sum_j exp(...)}. A prediction asks for
 * the means first and for the probabilities only when a query needs them; both come out of the same per-row
 * arithmetic, so either order gives the same bits.
 *
 * <p>Per row, on row-sized buffers that stay in the L1 cache: the row copied out of z with the bias added, its maximum
 * and minimum ({@link Simd#addMaxMin}: one pass in SIMD lanes, else vectorised and scalar passes); the exponentials
 * ({@link FastExp#expShifted}: in SIMD lanes where the JVM has the Vector API, else a vectorised pass and a scalar one,
 * the same bits either way); one pass that adds them and their {@code values}-weighted sum in double ({@link
 * Simd#weightedSums}: four partial sums each, in the lanes of a double vector or in scalar code, the same bits either
 * way); and, when the probabilities are asked for, one pass that stores each exponential times the reciprocal of the
 * sum. Float logits use the float kernel (relative error at most {@link FastExp#FLOAT_MAX_RELATIVE_ERROR} per
 * exponential; an entry more than 87 below its row's maximum gets the kernel's floor {@code e^-87} instead of
 * underflowing), double logits the double kernel. Adding the bias here rather than before the matrix product gives the
 * same float sums ({@code fl(acc + b)} either way, for products that accumulate in one pass). Deterministic: a fixed
 * order of operations per row. Package-private; stateless.
 *
 * <p>Rows the kernels do not cover within their bounds go to the caller's {@link Fallback} instead: a row with a
 * non-finite logit (a float product that overflowed) or whose logits spread over more than {@link #FLOAT_SPREAD}
 * ({@link #DOUBLE_SPREAD} for double logits), where the kernel's floor would replace exponentials that the exact
 * softmax keeps (and the exact log probabilities need). So every row computed here has all its exponential
 * arguments in the kernel's stated range.
 */
final class BinSoftmax {
    private BinSoftmax() {}

    /** Largest {@code max - min} of a float row's logits that the float kernel takes (its range starts at -87). */
    static final float FLOAT_SPREAD = 86f;
    /** Largest {@code max - min} of a double row's logits that the double kernel takes (its range starts at -708). */
    static final double DOUBLE_SPREAD = 700;

    /** Computes a row the kernels do not cover (see the class description). */
    interface Fallback {
        /**
         * @param r the row (its logits are row r of z)
         */
        void row(int r);
    }

    /** Fewest logits per thread when rows are split over threads (about a tenth of a millisecond of work). */
    static final int MIN_LOGITS_PER_THREAD = 1 << 16;

    /**
     * As {@link #rows(float[], float[], int, int, int, double[], double[], double[], Fallback)}, the rows split over
     * {@link RowParallel}'s threads (each row's arithmetic unchanged: the same bits); the fallback runs in the
     * calling thread after the split pass, in row order.
     */
    static void rowsInParallel(float[] z, float[] bias, int from, int to, int n, double[] values, double[] probs,
            double[] means, Fallback fallback) {
        split(from, to, n, fallback, (a, b, handOver) -> rows(z, bias, a, b, n, values, probs, means, handOver));
    }

    /** As {@link #rowsInParallel(float[], float[], int, int, int, double[], double[], double[], Fallback)}. */
    static void rowsInParallel(double[] z, double[] bias, int from, int to, int n, double[] values, double[] probs,
            double[] means, Fallback fallback) {
        split(from, to, n, fallback, (a, b, handOver) -> rows(z, bias, a, b, n, values, probs, means, handOver));
    }

    /** Rows {@code [from, to)} of one of the kernels, handing the rows they do not cover to {@code handOver}. */
    private interface Part {
        void rows(int from, int to, Fallback handOver);
    }

    /** Runs {@code part} over {@link RowParallel}'s threads, then the rows handed over, in the caller, in order. */
    private static void split(int from, int to, int n, Fallback fallback, Part part) {
        ConcurrentLinkedQueue<Integer> handed = new ConcurrentLinkedQueue<>();
        RowParallel.run(from, to, Math.max(1, MIN_LOGITS_PER_THREAD / n), (a, b) -> part.rows(a, b, handed::add));
        handed.stream().sorted().forEach(fallback::row);
    }

    /**
     * Rows {@code [from, to)}: their means, and their probabilities when {@code probs} is not null. The means come
     * out of the same arithmetic either way, so a first call for the means only and a later one for the
     * probabilities describe the same distribution, bit for bit.
     *
     * @param z      {@code [B * n]} float logits without bias, row-major; row r at {@code [r n, (r + 1) n)}
     * @param bias   {@code [n]}
     * @param from   the first row
     * @param to     one past the last row
     * @param values {@code [n]} the value whose expectation goes into {@code means} (each bin's component mean)
     * @param probs  {@code [B * n]} destination of the rows' probabilities, or null for the means only
     * @param means  {@code [B]} destination of the rows' means, or null for the probabilities only
     * @param fallback computes the rows these kernels do not cover (it writes their probabilities and means)
     */
    static void rows(float[] z, float[] bias, int from, int to, int n, double[] values, double[] probs,
            double[] means, Fallback fallback) {
        float[] row = new float[n]; // l_r, then the carriers of the scalar exponentials
        float[] exps = new float[n];
        double[] sums = new double[2];
        float[] maxMin = new float[2];
        for (int r = from; r < to; r++) {
            row(z, bias, r, n, row, exps, maxMin, sums, values, probs, means, fallback);
        }
    }

    /**
     * Row r of {@link #rows(float[], float[], int, int, int, double[], double[], double[], Fallback)}, in scratch
     * arrays {@code row}, {@code exps}, {@code maxMin} and {@code sums}. A method of its own so the JIT compiles it
     * after a few predictions (it is invoked once per row); as the body of the loop in {@code rows}, invoked once or
     * twice per prediction, it waited for that loop's own count, many predictions later (docs/performance.md, "the
     * first calls").
     */
    private static void row(float[] z, float[] bias, int r, int n, float[] row, float[] exps, float[] maxMin,
            double[] sums, double[] values, double[] probs, double[] means, Fallback fallback) {
        Simd.addMaxMin(z, r * n, bias, row, n, maxMin);
        float max = maxMin[0];
        if (!(max - maxMin[1] <= FLOAT_SPREAD)) { // NaN (a NaN or infinite logit) included
            fallback.row(r);
            return;
        }
        FastExp.expShifted(row, max, exps, row, 0, n);
        sums(exps, n, values, sums, probs, means, r);
    }

    /**
     * Adds a row's exponentials and their {@code values}-weighted sum in double ({@link Simd#weightedSums}: four
     * partial sums each), then writes the mean and, when {@code probs} is not null, the probabilities {@code e * (1 /
     * s)}.
     */
    private static void sums(float[] exps, int n, double[] values, double[] sums, double[] probs, double[] means,
            int row) {
        Simd.weightedSums(exps, values, n, sums);
        double s = sums[0];
        if (probs != null) {
            double inv = 1 / s; // s >= 1: the maximum's exp(0)
            int o = row * n;
            for (int k = 0; k < n; k++) {
                probs[o + k] = exps[k] * inv;
            }
        }
        if (means != null) {
            means[row] = sums[1] / s;
        }
    }

    /** As {@link #rows(float[], float[], int, int, int, double[], double[], double[], Fallback)} for double logits. */
    static void rows(double[] z, double[] bias, int from, int to, int n, double[] values, double[] probs,
            double[] means, Fallback fallback) {
        double[] row = new double[n];
        double[] poly = new double[n];
        for (int r = from; r < to; r++) {
            int first = r * n;
            double max = Double.NEGATIVE_INFINITY;
            double min = Double.POSITIVE_INFINITY;
            for (int j = 0; j < n; j++) {
                row[j] = z[first + j] + bias[j];
                max = Math.max(max, row[j]);
                min = Math.min(min, row[j]);
            }
            if (!(max - min <= DOUBLE_SPREAD)) { // NaN (a NaN or infinite logit) included
                fallback.row(r);
                continue;
            }
            FastExp.expShifted(row, max, poly, row, 0, n); // poly: the exponentials
            double s = 0;
            double m = 0;
            for (int j = 0; j < n; j++) {
                double e = poly[j];
                s += e;
                m += e * values[j];
            }
            if (probs != null) {
                double inv = 1 / s; // s >= 1: the maximum's exp(0)
                for (int j = 0; j < n; j++) {
                    probs[first + j] = poly[j] * inv;
                }
            }
            if (means != null) {
                means[r] = m / s;
            }
        }
    }
}
