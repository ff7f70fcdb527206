package io.regheads.spark.internal;

import java.io.Serializable;

/**
 * Column statistics of the training rows, gathered over partitions as a single-JVM pass would gather them: per
 * feature the sum of the values and of the squared deviations from a given mean (two passes, as the library's
 * {@code StandardScaler.fit}), the largest absolute value; the label's minimum and maximum; the row count.
 * Partition sums are merged with {@link CompensatedSums} (order-independent); within a partition values are added
 * in row order, so one partition reproduces {@code StandardScaler.fit} bit for bit.
 *
 * <p>Mutable; serializable.
 */
public final class ColumnMoments implements Serializable {
    private static final long serialVersionUID = 1L;

    private CompensatedSums sums; // per feature: sum of x (first pass) or of (x - mean)^2 (second pass)
    private double[] maxAbs;
    private double yMin = Double.POSITIVE_INFINITY;
    private double yMax = Double.NEGATIVE_INFINITY;
    private long rows;

    /** No rows yet: the identity of {@link #merge}. */
    public static ColumnMoments empty() {
        return new ColumnMoments();
    }

    /**
     * One partition's statistics.
     *
     * @param x        rows {@code [n * d]} row-major
     * @param y        labels {@code [n]}
     * @param d        features
     * @param mean     null for the first pass (sums of x); the means for the second (sums of squared deviations)
     */
    public static ColumnMoments of(double[] x, double[] y, int d, double[] mean) {
        ColumnMoments m = new ColumnMoments();
        int n = y.length;
        if (n == 0) {
            return m;
        }
        double[] s = new double[d];
        double[] maxAbs = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                double v = x[i * d + j];
                if (mean == null) {
                    s[j] += v;
                } else {
                    double dev = v - mean[j];
                    s[j] += dev * dev;
                }
                maxAbs[j] = Math.max(maxAbs[j], Math.abs(v));
            }
            m.yMin = Math.min(m.yMin, y[i]);
            m.yMax = Math.max(m.yMax, y[i]);
        }
        m.sums = CompensatedSums.of(s);
        m.maxAbs = maxAbs;
        m.rows = n;
        return m;
    }

    /** Adds {@code other} into this (or returns other if this is empty). */
    public ColumnMoments merge(ColumnMoments other) {
        if (other.rows == 0) {
            return this;
        }
        if (rows == 0) {
            return other;
        }
        sums.merge(other.sums);
        for (int j = 0; j < maxAbs.length; j++) {
            maxAbs[j] = Math.max(maxAbs[j], other.maxAbs[j]);
        }
        yMin = Math.min(yMin, other.yMin);
        yMax = Math.max(yMax, other.yMax);
        rows += other.rows;
        return this;
    }

    public long rows() {
        return rows;
    }

    /** Per feature: the sum (of x or of squared deviations) divided by the row count. */
    public double[] meanOfSums() {
        double[] out = sums.values();
        for (int j = 0; j < out.length; j++) {
            out[j] /= rows;
        }
        return out;
    }

    /** Largest |x| per feature. */
    public double[] maxAbs() {
        return maxAbs.clone();
    }

    public double yMin() {
        return yMin;
    }

    public double yMax() {
        return yMax;
    }
}
