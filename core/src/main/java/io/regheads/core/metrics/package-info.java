/**
 * Evaluation metrics: {@link io.regheads.core.metrics.Metrics} (MSE, relative MSE, Kendall's tau-b in O(N log N),
 * mean NLL, CRPS from samples in O(n log n)) and {@link io.regheads.core.metrics.Calibration} (central-interval
 * coverage, PIT values and histogram). Shapes: N test examples, n samples per example, B rows of a {@link
 * io.regheads.core.dist.PredictiveDistribution}. All methods are static, stateless and thread-safe.
 */
package io.regheads.core.metrics;
