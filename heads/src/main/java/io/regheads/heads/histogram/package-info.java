/**
 * Histogram ("Riemann", bar distribution) head and its predictive distribution.
 *
 * <p>Central types: {@link io.regheads.heads.histogram.HistogramDistribution}: softmax probabilities over n bins
 * with given borders, uniform inside each bin, optional half-normal tails for full support; {@link
 * io.regheads.heads.histogram.HistogramHead} and its spec, {@link io.regheads.heads.histogram.HistogramSpec}, which
 * is its whole configuration (bins, range, tails: {@code spec.build(D, seed, type)}; the borders are computed from
 * it). Shapes: B batch, D features, K = n bins. The fast prediction path, {@code HistogramBuilder} over the kernels
 * of {@code BinSoftmax}, lives beside the head and names its reference, {@code HistogramHead.distribution}.
 *
 * <p>References: the Riemann baseline of Song and Bahri, "Decoding-based Regression" (arXiv:2501.19383);
 * TabPFN's (full-support) bar distribution, whose tail inconsistency (TabPFN issue #1200) is fixed here.
 */
package io.regheads.heads.histogram;
