/**
 * Losses for regression heads: cross-entropy ({@link io.regheads.losses.CrossEntropy}: CE, GCE) and the Number
 * Token Loss family ({@link io.regheads.losses.NumberTokenLoss}: NTL-MSE, NTL-MAE, NTL-Huber, NTL-WAS,
 * NTL-WAS-CDF), the continuous ranked probability score ({@link io.regheads.losses.Crps}, closed forms on mixture,
 * pointwise, histogram and quantile outputs) and the pinball loss of quantile outputs ({@link
 * io.regheads.losses.Pinball}), built by {@link io.regheads.losses.Losses} and composed with {@code Loss.plus}.
 *
 * <p>Shapes: B batch, T positions, V vocabulary, K components (or number tokens). Token losses take {@code
 * TokenLogits [B, T, V]} with {@code Targets.Tokens}; continuous forms take {@code GaussianMixture [B, K]} or {@code
 * Scalar [B]} with {@code Targets.Values}; pinball and CRPS also take {@code QuantileKnots [B, L]} (L levels).
 * Every loss adds {@code weight *} its gradient into a caller-owned buffer
 * of the output's form; token losses work directly on the host memory of float or double logits with plain Java
 * loops (no ND4J op per element, no second {@code [B, T, V]} array). Logits are FLOAT or DOUBLE; a validity mask
 * may have any numeric or BOOL type (non-zero = allowed; a non-float mask is cast once per call); logits or masks
 * that are not contiguous c-order are copied once per call; a contiguous c-order gradient buffer is written in
 * place (any other is accumulated through a copy, one extra full-size array per call).
 *
 * <p>Papers: Zausinger et al., "Regress, Don't Guess: A Regression-like Loss on Number Tokens for Language Models"
 * (ICML 2025, arXiv:2411.02083; NTL, GCE), Gneiting and Raftery, "Strictly Proper Scoring Rules, Prediction, and
 * Estimation" (JASA 2007; CRPS), and Song and Bahri, "Decoding-based Regression" (arXiv:2501.19383; the heads these
 * losses train). Formulas: the class comments of {@link io.regheads.losses.CrossEntropy} and {@link
 * io.regheads.losses.NumberTokenLoss}, and the table in docs/perf-losses.md. Performance: docs/perf-losses.md.
 */
package io.regheads.losses;
