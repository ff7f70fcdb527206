package io.regheads.spark.internal;

import java.io.Serializable;

/**
 * What one synchronous step (or one validation pass) gathers from the partitions: the row-weighted gradient sum
 * {@code sum_k B_k * grad_k} (each {@code grad_k} the gradient of partition k's <em>mean</em> loss over its
 * {@code B_k} rows), the loss sum {@code sum_k B_k * loss_k} and the row count {@code sum_k B_k}. Dividing by the row
 * count gives the gradient and loss of the mean over all rows of the step: what one machine computes on the union
 * batch.
 *
 * <p>Sums are {@link CompensatedSums}, so the result does not depend on the order in which Spark merges partitions.
 * The empty value (no rows) is the identity of {@link #merge}. Mutable; serializable (plain arrays only).
 */
public final class StepSums implements Serializable {
    private static final long serialVersionUID = 1L;

    private CompensatedSums gradient; // null: no gradient (empty, or a validation pass)
    private CompensatedSums loss; // one element
    private long rows;

    /** The empty value: no rows, no gradient. */
    public static StepSums empty() {
        return new StepSums();
    }

    /**
     * One partition's contribution.
     *
     * @param gradientSum {@code B_k * grad_k}, flat (taken, not copied), or null for a validation pass
     * @param lossSum     {@code B_k * loss_k}
     * @param rows        {@code B_k >= 1}
     */
    public static StepSums of(double[] gradientSum, double lossSum, long rows) {
        StepSums s = new StepSums();
        s.gradient = gradientSum == null ? null : CompensatedSums.of(gradientSum);
        s.loss = CompensatedSums.of(new double[] {lossSum});
        s.rows = rows;
        return s;
    }

    /** Adds {@code other} into this (or returns other if this is empty); returns the merged value. */
    public StepSums merge(StepSums other) {
        if (other.rows == 0) {
            return this;
        }
        if (rows == 0) {
            return other;
        }
        if (gradient != null && other.gradient != null) {
            gradient.merge(other.gradient);
        } else if (gradient != null || other.gradient != null) {
            throw new IllegalStateException("cannot merge a gradient step with a validation pass");
        }
        loss.merge(other.loss);
        rows += other.rows;
        return this;
    }

    /** Rows summed over. */
    public long rows() {
        return rows;
    }

    /** {@code sum_k B_k * loss_k} (0 when empty). */
    public double lossSum() {
        return rows == 0 ? 0.0 : loss.value(0);
    }

    /** The mean gradient {@code sum_k B_k grad_k / sum_k B_k}, flat; null for a validation pass or when empty. */
    public double[] meanGradient() {
        if (gradient == null) {
            return null;
        }
        double[] g = gradient.values();
        for (int i = 0; i < g.length; i++) {
            g[i] /= rows;
        }
        return g;
    }
}
