/**
 * The predictive-distribution contract and helpers shared by all heads.
 *
 * <p>{@link io.regheads.core.dist.PredictiveDistribution} (batched: B rows), {@link
 * io.regheads.core.dist.AffineTransformed} (reporting in original y units with the Jacobian correction), {@link
 * io.regheads.core.dist.Expm1Transformed} (the same through {@code y = shift + expm1(z)}, for log-scaled targets), {@link
 * io.regheads.core.dist.WithTails} (half-normal tails beyond a bounded support), {@link
 * io.regheads.core.dist.Temperable} (distributions a temperature sharpens or flattens), {@link
 * io.regheads.core.dist.SpecialValues} (the probabilities of NaN and infinite outcomes), {@link
 * io.regheads.core.dist.PointLoss} (the point that minimises a user's expected cost: mean, median, quantiles, the
 * MAPE-optimal and LINEX-optimal points, {@code PredictiveDistribution.point(PointLoss)}) and {@link
 * io.regheads.core.dist.PredictionCheck} (whether predictions on held-out rows have collapsed).
 */
package io.regheads.core.dist;
