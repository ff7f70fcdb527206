/**
 * Helpers of the Spark integration, not public API: model bytes and the per-executor model cache, the scoring
 * partition function, the training partition block, order-independent (TwoSum) sums, Spark job failures back into the
 * library's exceptions and the scaler workaround.
 */
package io.regheads.spark.internal;
