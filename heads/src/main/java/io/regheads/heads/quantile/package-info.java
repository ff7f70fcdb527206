/**
 * Quantile head: L non-crossing quantiles at fixed levels (99 equally spaced by default), trained with the pinball
 * loss averaged over the levels or with the CRPS, and its predictive distribution.
 *
 * <p>Central types: {@link io.regheads.heads.quantile.QuantileSpec} (the head in a model, {@code head=quantile}),
 * {@link io.regheads.heads.quantile.QuantileHead} (a first knot plus softplus increments, monotone by construction)
 * and {@link io.regheads.heads.quantile.QuantileDistribution} (the piecewise-linear cdf through the knots with
 * exponential tails matched to the outer spacing). Shapes: B batch, D features, L levels.
 *
 * <p>References: R. Koenker and G. Bassett, "Regression Quantiles" (Econometrica 1978) for the pinball loss; T.
 * Gneiting and A. E. Raftery, "Strictly Proper Scoring Rules, Prediction, and Estimation" (JASA 2007) for the CRPS
 * and its quantile decomposition; the multi-quantile outputs of GluonTS, pytorch-forecasting and Chronos-Bolt
 * ("Chronos: Learning the Language of Time Series", arXiv:2403.07815).
 */
package io.regheads.heads.quantile;
