package io.regheads.heads.mixture;

import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.FastExp;
import io.regheads.core.internal.Host;
import io.regheads.core.internal.Simd;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The fast path of the mixture head's prediction. Reference: {@link MixtureHead#distribution}, row by row with
 * {@link Math#exp} ({@link MixtureDistribution#fromLogits}); {@code HeadDistributionTest} compares the two within
 * the bound {@link MixtureHead#distributionBuilder} states.
 *
 * <p>Fills one columnar {@link MixtureDistribution} chunk by chunk: the linear output {@code [b, 3K]} into an arena
 * buffer, one host copy of it, then the stable softmax of the log-weights and {@code sigma = ELU(s) + 1 + floor}
 * with the vectorised double exponential ({@link FastExp}) over the whole chunk at once, straight into the
 * distribution's flat arrays. A row whose float output overflowed is recomputed in double from phi ({@link
 * Linear#inferRowInDouble}).
 *
 * <p>One builder per prediction; not thread-safe. Package-private: {@link MixtureHead#distributionBuilder} makes
 * it.
 */
final class MixtureBuilder implements RegressionHead.DistributionBuilder {
    private final Linear proj;
    private final int rows;
    private final int k;
    private final double floor;
    private final double[] w; // [B * K]
    private final double[] mu; // [B * K]
    private final double[] sd; // [B * K]
    private int next;

    /**
     * @param proj  the head's linear map {@code [D, 3K]}
     * @param k     K, the components
     * @param floor the head's sigma floor
     * @param rows  B, the rows of the prediction, at least 1
     * @throws IllegalArgumentException if rows is below 1
     */
    MixtureBuilder(Linear proj, int k, double floor, int rows) {
        Checks.atLeast("rows", rows, 1);
        Simd.startWarmUp(); // this builder's kernels run in SIMD lanes once the warm-up has compiled them
        this.proj = proj;
        this.rows = rows;
        this.k = k;
        this.floor = floor;
        this.w = new double[Math.multiplyExact(rows, k)];
        this.mu = new double[rows * k];
        this.sd = new double[rows * k];
    }

    @Override
    public void add(INDArray phi, int row, Arena arena) {
        int added = RegressionHead.DistributionBuilder.checkChunk(phi, row, next, rows);
        int b = added - next;
        INDArray out = proj.forward(phi, arena).output(); // [b, 3K]
        double[] raw = hostDoubles(out, arena); // [b * 3K]
        double[] logit = arena.doubles(b * k); // [b * K] log-weights minus their row maximum
        double[] scale = arena.doubles(b * k); // [b * K] min(s, 0)
        double[] e = arena.doubles(b * k);
        double[] carrier = arena.doubles(b * k);
        boolean finite = allFinite(raw, 0, b * 3 * k); // else some row's float product overflowed
        for (int i = 0; i < b; i++) {
            int r = i * 3 * k;
            if (!finite && !allFinite(raw, r, r + 3 * k)) { // this row again, in double
                System.arraycopy(proj.inferRowInDouble("phi", phi, i, row + i), 0, raw, r, 3 * k);
            }
            double max = Simd.max(raw, r, k);
            for (int j = 0; j < k; j++) {
                logit[i * k + j] = raw[r + j] - max;
                scale[i * k + j] = Math.min(raw[r + 2 * k + j], 0.0);
            }
        }
        FastExp.expShifted(logit, 0.0, e, carrier, 0, b * k);
        FastExp.expShifted(scale, 0.0, logit, carrier, 0, b * k); // logit := exp(min(s, 0))
        for (int i = 0; i < b; i++) {
            int r = i * 3 * k;
            int o = (row + i) * k;
            double sum = 0;
            for (int j = 0; j < k; j++) {
                sum += e[i * k + j];
            }
            for (int j = 0; j < k; j++) {
                w[o + j] = e[i * k + j] / sum; // sum >= 1: the maximum's exp(0)
            }
            System.arraycopy(raw, r + k, mu, o, k);
            for (int j = 0; j < k; j++) {
                // ELU + 1 + floor without a branch: max(s, 0) + exp(min(s, 0)) is s + 1 for s > 0, exp(s)
                // for s <= 0 (a sign that varies from row to row mispredicts a branch half the time)
                sd[o + j] = (Math.max(raw[r + 2 * k + j], 0.0) + logit[i * k + j]) + floor;
            }
        }
        next = added;
    }

    @Override
    public MixtureDistribution build() {
        Checks.require(next == rows, "every row must be added before build: got %d of %d", next, rows);
        return MixtureDistribution.normalised(k, w, mu, sd);
    }

    /** Whether {@code x[from, to)} is finite everywhere: products with zero in four chains, NaN if any entry is not. */
    private static boolean allFinite(double[] x, int from, int to) {
        double a0 = 0;
        double a1 = 0;
        double a2 = 0;
        double a3 = 0;
        int i = from;
        for (; i + 3 < to; i += 4) {
            a0 += x[i] * 0.0;
            a1 += x[i + 1] * 0.0;
            a2 += x[i + 2] * 0.0;
            a3 += x[i + 3] * 0.0;
        }
        for (; i < to; i++) {
            a0 += x[i] * 0.0;
        }
        return (a0 + a1) + (a2 + a3) == 0;
    }

    /** The elements of a FLOAT or DOUBLE array as doubles, in arena scratch (a float copy widened in one loop). */
    private static double[] hostDoubles(INDArray a, Arena arena) {
        int n = Math.toIntExact(a.length());
        double[] d = arena.doubles(n);
        if (a.dataType() == DataType.FLOAT) {
            float[] f = Host.read(a, arena.floats(n));
            for (int i = 0; i < n; i++) {
                d[i] = f[i];
            }
        } else {
            Host.read(a, d);
        }
        return d;
    }
}
