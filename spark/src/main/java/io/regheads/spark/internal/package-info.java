/**
 * Helpers of the Spark integration, not public API: model bytes and the per-executor model cache, the scoring
 * partition function, the training partition block, order-independent (TwoSum) sums and the scaler workaround.
 */
package io.regheads.spark.internal;
