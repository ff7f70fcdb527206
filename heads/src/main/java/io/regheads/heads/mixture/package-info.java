/**
 * Mixture density head (Bishop's MDN) and its predictive distribution.
 *
 * <p>Central types: {@link io.regheads.heads.mixture.MixtureDistribution}, B Gaussian mixtures with K components
 * ({@code pi = softmax}, {@code sigma = ELU(.) + 1} in the head); {@link io.regheads.heads.mixture.MixtureHead}
 * and its spec, {@link io.regheads.heads.mixture.MixtureSpec}, which is its whole configuration ({@code
 * spec.build(D, seed, type)}). Shapes: B batch, D features, K components. The fast prediction path, {@code
 * MixtureBuilder}, lives beside the head and names its reference, {@code MixtureHead.distribution}.
 *
 * <p>Reference: C. M. Bishop, Mixture Density Networks (1994); the MDN baseline of Song and Bahri,
 * "Decoding-based Regression" (arXiv:2501.19383).
 */
package io.regheads.heads.mixture;
