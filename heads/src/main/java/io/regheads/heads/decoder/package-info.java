/**
 * Decoder heads (Song &amp; Bahri, "Decoding-based Regression", arXiv:2501.19383): a small causal transformer
 * that spells y as T tokens of any {@link io.regheads.core.token.NumberTokenizer}.
 *
 * <p>Central types:
 * <ul>
 *   <li>{@link io.regheads.heads.decoder.DecoderSpec} and {@link io.regheads.heads.decoder.UnnormalizedDecoderSpec}:
 *       a model's settings (normalized digits; sign-exponent-mantissa tokens), the only records of them; they build
 *       the head.
 *   <li>{@link io.regheads.heads.decoder.DecoderHead}: training by teacher forcing, {@code [B, T, V]} logits with
 *       validity masks.
 *   <li>{@link io.regheads.heads.decoder.DecoderDistribution}: the predictive distributions of B rows, a facade over
 *       one inference strategy chosen in its constructor (below): exact density, CDF, quantiles, the mean under a
 *       certified error budget per row, the density mode, P(NaN) and P(+-Inf) with special tokens, point estimates
 *       ({@code point(Decoding)}).
 *   <li>{@link io.regheads.heads.decoder.DecoderSampling}: token-by-token decoding of those rows (temperature, top-k
 *       and top-p sampling with one decoder step per distinct prefix, beam search, greedy decoding, votes, sample
 *       mean and Harrell-Davis median).
 * </ul>
 *
 * <p>Inside (package-private). One engine: {@code DecoderSnapshot} copies the head's parameters; its blocks run the
 * key/value-cached step of {@link io.regheads.core.nn.TransformerBlock.Snapshot} (the first block tabulated by
 * position and token), and {@code DecoderState} keeps the books of an incremental decoding (prefixes, caches,
 * logits, masks). One route: {@code DigitTree} is the sealed interface of the exact strategies, {@code
 * FixedPointWalk} (normalized digits: tree walks, {@code MeanExpander}'s certified expansion), {@code
 * PrefixRangeWalk} (prefix value ranges with the detached zero cell), {@code VoteTable} (repetition codes: the
 * distribution of the voted value, enumerated by {@code VoteEnumeration}) and {@code LeafTable} (every valid
 * sequence; also the tabulated form of the walks). They receive {@code DecoderRows} (the snapshot and the rows of
 * phi), {@code SpecialMass} and the options, never the distribution; {@code PrefixSampler} is the shared-prefix
 * sampler behind {@code DecoderSampling}.
 *
 * <p>Shapes: B batch rows, D feature width, T token positions, V vocabulary, d model width.
 */
package io.regheads.heads.decoder;
