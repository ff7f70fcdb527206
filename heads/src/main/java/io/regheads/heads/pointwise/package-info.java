/**
 * Pointwise head: one linear output (optionally squashed by a sigmoid), trained with squared, absolute or Huber
 * error; reported as a Gaussian around the prediction with a calibrated noise level so its NLL compares with the
 * other heads'.
 *
 * <p>Central types: {@link io.regheads.heads.pointwise.PointwiseHead} and its spec, {@link
 * io.regheads.heads.pointwise.PointwiseSpec}, which is its whole configuration ({@code spec.build(D, seed, type)}).
 * Shapes: B batch, D features.
 *
 * <p>Reference: the pointwise baseline of Song and Bahri, "Decoding-based Regression" (arXiv:2501.19383).
 */
package io.regheads.heads.pointwise;
