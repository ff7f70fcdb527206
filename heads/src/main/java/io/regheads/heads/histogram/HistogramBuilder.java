package io.regheads.heads.histogram;

import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Gemm;
import io.regheads.core.internal.Host;
import io.regheads.core.internal.RowParallel;
import io.regheads.core.internal.Simd;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The fast path of the histogram head's prediction. Reference: {@link HistogramHead#distribution}, the exact softmax
 * in double row by row ({@link BinProbabilities#exactRow}); {@code HeadDistributionTest} compares the two
 * within the bound {@link HistogramHead#distributionBuilder} states, and {@link BinSoftmax}'s kernels against a
 * plain-loop softmax ({@code BinSoftmaxTest}).
 *
 * <p>Fills one columnar {@link HistogramDistribution} chunk by chunk: {@code phi W} into an arena buffer (one matrix
 * product, no bias broadcast), then per row the bias, the exponentials with {@link BinSoftmax} and the mean, the
 * rows split over as many threads as the matrix products use (the same bits for any number of threads). FLOAT
 * models: vectorised float exponentials, the logits copied out of the product's output a block of rows at a time,
 * each row's exponentials and their sum kept; DOUBLE models: double exponentials, the logits kept. The
 * probabilities ({@code B * n} doubles) are built on the distribution's first query that needs them (from the kept
 * exponentials, or by the same kernels from the kept logits), so a prediction asked for its means only never builds
 * them. Rows the kernels do not cover are computed as the reference computes them, exact log probabilities
 * included: a spread above 86 (700 for DOUBLE), and logits that overflowed in float, recomputed in double from phi
 * ({@link Linear#inferRowInDouble}).
 *
 * <p>One builder per prediction; not thread-safe. Package-private: {@link HistogramHead#distributionBuilder} makes
 * it.
 */
final class HistogramBuilder implements RegressionHead.DistributionBuilder {
    private final Linear proj;
    private final Bins bins;
    private final int inputWidth;
    private final int rows;
    private final int n;
    private final int size;
    private final boolean isFloat;
    private final float[] exps; // [B * n] each row's exp(l - max), for the probabilities (FLOAT)
    private final double[] sums; // [B] their sums (FLOAT)
    private final double[] zd; // [B * n] double logits without bias (DOUBLE)
    private final float[] biasF; // [n]
    private final double[] biasD; // [n]
    private final double[] means; // [B]
    private final double[] values; // [n] each bin's component mean
    private final BinSoftmax.FloatRows floatRows; // FLOAT: bias, values, exps, sums, means
    private final BinSoftmax.DoubleRows doubleMeans; // DOUBLE: zd, bias, values, means (probabilities deferred)
    private int next;
    // the rows computed exactly (few: a very wide or overflowed row), compactly: row r's n probabilities and exact
    // log probabilities at slot[r] * n of exactProbs and exactLogs; slot null until the first one
    private int[] slot; // [B], -1 for a row the kernels computed
    private double[] exactProbs = new double[0];
    private double[] exactLogs = new double[0];
    private int kept;

    /**
     * @param proj       the head's linear map {@code [D, n]}
     * @param bins       the head's bins (n of them)
     * @param inputWidth D
     * @param rows       B, the rows of the prediction, at least 1
     * @throws IllegalArgumentException if rows is below 1
     */
    HistogramBuilder(Linear proj, Bins bins, int inputWidth, int rows) {
        Checks.atLeast("rows", rows, 1);
        Simd.startWarmUp(); // this builder's kernels run in SIMD lanes once the warm-up has compiled them
        this.proj = proj;
        this.bins = bins;
        this.inputWidth = inputWidth;
        this.rows = rows;
        this.n = bins.n;
        this.size = Math.multiplyExact(rows, n);
        this.isFloat = proj.dataType() == DataType.FLOAT;
        this.exps = isFloat ? new float[size] : null;
        this.sums = isFloat ? new double[rows] : null;
        this.zd = isFloat ? null : new double[size];
        this.biasF = isFloat ? Host.read(proj.bias().value(), new float[n]) : null;
        this.biasD = isFloat ? null : Host.read(proj.bias().value(), new double[n]);
        this.means = new double[rows];
        this.values = bins.componentMean;
        this.floatRows = isFloat ? new BinSoftmax.FloatRows(biasF, values, exps, sums, means) : null;
        this.doubleMeans = isFloat ? null : new BinSoftmax.DoubleRows(zd, biasD, values, null, means);
    }

    @Override
    public void add(INDArray phi, int row, Arena arena) {
        int added = RegressionHead.DistributionBuilder.checkChunk(phi, row, next, rows);
        int b = added - next;
        Checks.require(phi.size(1) == inputWidth && phi.dataType() == proj.dataType(),
                "phi must be [b, %d] %s, got %s %s", inputWidth, proj.dataType(),
                Arrays.toString(phi.shape()), phi.dataType());
        INDArray logits = arena.get(proj.dataType(), b, n); // [b, n] = phi W; the bias is added on the host
        Gemm.gemm(phi, proj.weight().value(), logits, false, false, 1.0, 0.0);
        if (isFloat) {
            BinSoftmax.expRowsInParallel(
                    (r, count, dst) -> Host.read(logits, (long) (r - row) * n, dst, 0, count * n), floatRows, row,
                    added, r -> {
                        float[] z = new float[n];
                        Host.read(logits, (long) (r - row) * n, z, 0, n);
                        double[] l = new double[n];
                        for (int j = 0; j < n; j++) {
                            l[j] = z[j] + biasF[j]; // the float sum, as the fast rows see it
                        }
                        exact(l, phi, r - row, row);
                    });
        } else {
            Host.read(logits, 0, zd, row * n, b * n);
            BinSoftmax.rowsInParallel(doubleMeans, row, added, r -> {
                double[] l = new double[n];
                for (int j = 0; j < n; j++) {
                    l[j] = zd[r * n + j] + biasD[j];
                }
                exact(l, phi, r - row, row);
            });
        }
        next = added;
    }

    /** Row r of the chunk from its logits l (recomputed in double from phi when not finite), exactly. */
    private void exact(double[] l, INDArray phi, int r, int first) {
        for (double v : l) {
            if (!Double.isFinite(v)) {
                l = proj.inferRowInDouble("phi", phi, r, first + r);
                break;
            }
        }
        if (slot == null) {
            slot = new int[rows];
            Arrays.fill(slot, -1);
        }
        int o = kept * n;
        if (o + n > exactProbs.length) {
            int capacity = Math.max(4 * n, 2 * exactProbs.length);
            exactProbs = Arrays.copyOf(exactProbs, capacity);
            exactLogs = Arrays.copyOf(exactLogs, capacity);
        }
        BinProbabilities.exactRow(l, 0, n, exactProbs, exactLogs, o);
        double m = 0;
        for (int j = 0; j < n; j++) {
            m += exactProbs[o + j] * values[j];
        }
        means[first + r] = m;
        slot[first + r] = kept++;
    }

    /**
     * The probabilities are computed on the distribution's first query that needs them, by the same kernels; the
     * rows they hand over again are the rows computed exactly, copied in from the kept ones. The deferred
     * computation holds the arrays it needs, not this builder.
     */
    @Override
    public HistogramDistribution build() {
        Checks.require(next == rows, "every row must be added before build: got %d of %d", next, rows);
        int[] exactSlot = slot;
        double[] exactP = exactProbs;
        double[] exactLp = slot == null ? null : Arrays.copyOf(exactLogs, kept * n);
        int rows = this.rows;
        int n = this.n;
        int size = this.size;
        float[] exps = this.exps;
        double[] sums = this.sums;
        double[] zd = this.zd;
        double[] biasD = this.biasD;
        double[] values = this.values;
        boolean isFloat = this.isFloat;
        return new HistogramDistribution(bins, rows, () -> {
            double[] p = new double[size];
            // the kernels hand over exactly the rows computed exactly when they were added
            BinSoftmax.Fallback copyExact = r -> System.arraycopy(exactP, exactSlot[r] * n, p, r * n, n);
            if (isFloat) {
                RowParallel.run(0, rows, Math.max(1, BinSoftmax.MIN_LOGITS_PER_THREAD / n), (a, b) -> {
                    for (int r = a; r < b; r++) {
                        if (exactSlot != null && exactSlot[r] >= 0) {
                            copyExact.row(r);
                        } else {
                            BinSoftmax.probabilities(exps, sums, r, n, p);
                        }
                    }
                });
            } else {
                BinSoftmax.rowsInParallel(new BinSoftmax.DoubleRows(zd, biasD, values, p, null), 0, rows, copyExact);
            }
            return p;
        }, exactSlot, exactLp, means);
    }
}
