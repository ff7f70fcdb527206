/**
 * The head contract and the output forms that losses understand.
 *
 * <p>{@link io.regheads.core.head.RegressionHead} maps features {@code phi [B, D]} to a {@link
 * io.regheads.core.head.HeadOutput}: {@link io.regheads.core.head.TokenLogits} {@code [B, T, V]} (histogram: T = 1,
 * V = bins, with their {@link io.regheads.core.head.TokenLogits.Bins}; decoder: T digits), {@link
 * io.regheads.core.head.GaussianMixture} {@code [B, K]}, {@link io.regheads.core.head.Scalar} {@code [B]} or {@link
 * io.regheads.core.head.QuantileKnots} {@code [B, L]}. Shape legend: B batch, D features, T positions, V vocabulary,
 * K components, L quantile levels.
 */
package io.regheads.core.head;
