package io.regheads.heads.histogram;

import io.regheads.core.internal.FastExp;
import io.regheads.core.internal.RowParallel;
import io.regheads.core.internal.Simd;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Row softmax of logits {@code z [B, n]} plus a bias {@code [n]} straight into the columns of a {@link
 * HistogramDistribution}: with {@code l_rj = z_rj + bias_j}, {@code probs[r n + j] = exp(l_rj - max_r) / sum_j
 * exp(l_rj - max_r)} and {@code means[r] = sum_j exp(l_rj - max_r) values_j / sum_j exp(...)}. A prediction asks for
 * the means first and for the probabilities only when a query needs them.
 *
 * <p>Float logits ({@link #expRows}), per row, on row-sized buffers that stay in the L1 cache, the logits copied out
 * of the product's output a block of rows at a time: the bias added and the row's maximum and minimum ({@link
 * Simd#addMaxMin}: one pass in SIMD lanes, else vectorised and scalar passes); the exponentials, written straight
 * into the kept ones ({@link FastExp#expShiftedInRange}: in SIMD lanes where the JVM has the Vector API, else a
 * vectorised pass and a scalar one, the same bits either way; without clamps, as the row's spread has been checked);
 * one pass that adds them and their {@code values}-weighted sum in double ({@link Simd#weightedSums}: four partial
 * sums each, in the lanes of a double vector or in scalar code, the same bits either way). The row's exponentials
 * (float) and sum are kept, so its probabilities are later one pass, each exponential times the reciprocal of the
 * sum ({@link #probabilities}). Float logits use the float kernel (relative error at most {@link
 * FastExp#FLOAT_MAX_RELATIVE_ERROR} per exponential). Double logits ({@link #rows}) use the double kernel and
 * compute the means and the probabilities by the same arithmetic, in either order the same bits. The arrays a pass
 * works on travel together: {@link FloatRows} and {@link DoubleRows}, and a row's scratch in {@code RowScratch}.
 * Adding the bias here rather than before the matrix product gives the same float sums ({@code fl(acc + b)} either
 * way, for products that accumulate in one pass). Deterministic: a fixed order of operations per row.
 * Package-private; stateless.
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
         * @param r the row
         */
        void row(int r);
    }

    /** Fewest logits per thread when rows are split over threads (about a tenth of a millisecond of work). */
    static final int MIN_LOGITS_PER_THREAD = 1 << 16;

    /** Copies rows of a float product's output (logits without bias) into a scratch array. */
    interface Logits {
        /**
         * Copies rows {@code [first, first + count)} into {@code dst[0, count n)}, row-major.
         */
        void copy(int first, int count, float[] dst);
    }

    /** Floats of logits per block copied out of the product's output (64 rows of 256: in the L2 cache). */
    static final int BLOCK_FLOATS = 1 << 14;

    /**
     * What the float kernels ({@link #expRows}) work on besides the logits: n = {@code bias.length} bins.
     *
     * @param bias   {@code [n]} added to every row's logits
     * @param values {@code [n]} the value whose expectation goes into {@code means} (each bin's component mean)
     * @param exps   {@code [B * n]} destination of each row's exponentials, row r at {@code [r n, (r + 1) n)}
     * @param sums   {@code [B]} destination of their sums
     * @param means  {@code [B]} destination of the rows' means
     */
    record FloatRows(float[] bias, double[] values, float[] exps, double[] sums, double[] means) {
        /** {@return n, the logits per row} */
        int n() {
            return bias.length;
        }
    }

    /**
     * What the double kernel ({@link #rows}) works on: n = {@code bias.length} bins.
     *
     * @param z      {@code [B * n]} the logits without bias, row-major
     * @param bias   {@code [n]} added to every row's logits
     * @param values {@code [n]} the value whose expectation goes into {@code means}
     * @param probs  {@code [B * n]} destination of the rows' probabilities, or null for the means only
     * @param means  {@code [B]} destination of the rows' means, or null for the probabilities only
     */
    record DoubleRows(double[] z, double[] bias, double[] values, double[] probs, double[] means) {
        /** {@return n, the logits per row} */
        int n() {
            return bias.length;
        }
    }

    /**
     * One pass's scratch for {@link #row}: {@code row} holds l_r, then the carriers of the scalar exponentials,
     * {@code e} the polynomials of the scalar exponentials (unused in SIMD lanes), {@code maxMin} the row's maximum
     * and minimum, {@code weighted} its two sums.
     */
    private record RowScratch(float[] row, float[] e, float[] maxMin, double[] weighted) {
        RowScratch(int n) {
            this(new float[n], new float[n], new float[2], new double[2]);
        }
    }

    /**
     * As {@link #expRows}, the rows split over {@link RowParallel}'s threads (each row's arithmetic unchanged: the
     * same bits); the fallback runs in the calling thread after the split pass, in row order.
     */
    static void expRowsInParallel(Logits logits, FloatRows rows, int from, int to, Fallback fallback) {
        split(from, to, rows.n(), fallback, (a, b, handOver) -> expRows(logits, rows, a, b, handOver));
    }

    /**
     * Rows {@code [from, to)} of float logits: each row's exponentials {@code e_j = exp(l_j - max)} into {@code
     * rows.exps()}, their sum into {@code rows.sums()} and their mean over {@code rows.values()} into {@code
     * rows.means()}, the logits copied out of {@code logits} a block of rows at a time. {@link #probabilities} turns a
     * row's exponentials and sum into its probabilities later, when a query needs them, with no second softmax. Rows
     * the kernels do not cover go to {@code fallback}, their entries here untouched.
     *
     * @param rows     the bias, the values and the destinations
     * @param fallback computes the rows these kernels do not cover (it writes their means)
     */
    static void expRows(Logits logits, FloatRows rows, int from, int to, Fallback fallback) {
        int n = rows.n();
        int block = Math.max(1, Math.min(to - from, BLOCK_FLOATS / n));
        float[] z = new float[block * n];
        RowScratch scratch = new RowScratch(n);
        for (int first = from; first < to; first += block) {
            int count = Math.min(block, to - first);
            logits.copy(first, count, z);
            for (int i = 0; i < count; i++) {
                row(z, i * n, first + i, scratch, rows, fallback);
            }
        }
    }

    /**
     * Row r of {@link #expRows}, its logits at {@code z[at, at + n)}, in the pass's scratch arrays. A method of its
     * own so the JIT compiles it after a few predictions (it is invoked once per row); as the body of the loop in
     * {@code expRows}, invoked once or twice per prediction, it waited for that loop's own count, many predictions
     * later (docs/performance.md, "the first calls").
     */
    private static void row(float[] z, int at, int r, RowScratch scratch, FloatRows rows, Fallback fallback) {
        int n = rows.n();
        float[] row = scratch.row();
        float[] maxMin = scratch.maxMin();
        double[] weighted = scratch.weighted();
        float[] exps = rows.exps();
        Simd.addMaxMin(z, at, rows.bias(), row, n, maxMin);
        float max = maxMin[0];
        if (!(max - maxMin[1] <= FLOAT_SPREAD)) { // NaN (a NaN or infinite logit) included
            fallback.row(r);
            return;
        }
        FastExp.expShiftedInRange(row, max, exps, r * n, scratch.e(), 0, n); // every l - max in [-FLOAT_SPREAD, 0]
        Simd.weightedSums(exps, r * n, rows.values(), n, weighted);
        rows.sums()[r] = weighted[0];
        rows.means()[r] = weighted[1] / weighted[0];
    }

    /**
     * Row r's probabilities from {@link #expRows}: {@code probs[r n + j] = exps[r n + j] * (1 / sums[r])}.
     */
    static void probabilities(float[] exps, double[] sums, int r, int n, double[] probs) {
        double inv = 1 / sums[r]; // >= 1: the maximum's exp(0)
        int o = r * n;
        for (int j = 0; j < n; j++) {
            probs[o + j] = exps[o + j] * inv;
        }
    }

    /**
     * As {@link #rows}, the rows split over {@link RowParallel}'s threads (each row's arithmetic unchanged: the same
     * bits); the fallback runs in the calling thread after the split pass, in row order.
     */
    static void rowsInParallel(DoubleRows rows, int from, int to, Fallback fallback) {
        split(from, to, rows.n(), fallback, (a, b, handOver) -> rows(rows, a, b, handOver));
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
     * Double logits {@code rows.z()} ({@code [B * n]}, without bias, row-major): rows {@code [from, to)}, their
     * means, and their probabilities when {@code rows.probs()} is not null, with the double kernel. The means come
     * out of the same arithmetic either way, so a first call for the means only and a later one for the
     * probabilities describe the same distribution, bit for bit.
     *
     * @param rows     the logits, the bias, the values and the destinations (probabilities, means or both)
     * @param fallback computes the rows these kernels do not cover (it writes their probabilities and means)
     */
    static void rows(DoubleRows rows, int from, int to, Fallback fallback) {
        int n = rows.n();
        double[] z = rows.z();
        double[] bias = rows.bias();
        double[] values = rows.values();
        double[] probs = rows.probs();
        double[] means = rows.means();
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
