package io.regheads.spark.internal;

import java.io.Serializable;

/**
 * What {@link ScorePartition} computes, fixed on the driver from the scorer's parameters and the input schema.
 *
 * @param featureIndex   position in the input row of each model input, {@code [D]}
 * @param featureNames   the feature column names in the model's input order, {@code [D]}
 * @param labelIndex     position of the label column, or -1 for none (no log density)
 * @param labelName      the label column name, or null
 * @param mean           add the predictive mean
 * @param median         add the median
 * @param quantiles      levels of the quantile array column (empty: no such column)
 * @param interval       central interval bounds as levels {@code {lower, upper}}, or null for none
 * @param batchSize      rows per prediction call
 * @param keepInvalid    rows with a missing or non-finite feature get null outputs instead of failing the job
 */
public record ScoringPlan(int[] featureIndex, String[] featureNames, int labelIndex, String labelName, boolean mean,
        boolean median, double[] quantiles, double[] interval, int batchSize, boolean keepInvalid)
        implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Number of columns the plan appends to each row. */
    public int outputColumns() {
        return (mean ? 1 : 0) + (median ? 1 : 0) + (quantiles.length > 0 ? 1 : 0) + (interval != null ? 2 : 0)
                + (labelIndex >= 0 ? 1 : 0);
    }
}
