/**
 * Decoder heads (Song &amp; Bahri, "Decoding-based Regression", arXiv:2501.19383): a small causal transformer
 * that spells y as T tokens of any {@link io.regheads.core.token.NumberTokenizer}.
 *
 * <p>Central types: {@link io.regheads.heads.decoder.DecoderSpec} and {@link
 * io.regheads.heads.decoder.UnnormalizedDecoderSpec} (a model's settings), {@link
 * io.regheads.heads.decoder.DecoderHead} (training by teacher forcing, {@code [B, T, V]} logits with validity
 * masks), {@link io.regheads.heads.decoder.DecoderState} (key/value-cached incremental decoding, one position per
 * step) and {@link io.regheads.heads.decoder.DecoderDistribution} (exact density, CDF, tree-walk quantiles for
 * normalized and unnormalized tokenizers (the latter in {@code PrefixRangeWalk}: prefix value ranges, a tokenizer capability), exact mean under a certified error
 * budget per row ({@code MeanExpander}, prefix value ranges for unnormalized tokens), density-mode beam search,
 * temperature/top-k/top-p sampling with one decoder step per distinct prefix, Harrell-Davis median, point estimates
 * ({@code point(Decoding)}), P(NaN) and P(+-Inf) with special tokens, and for repeated tokenizers the distribution
 * of the voted value ({@code VoteTable})).
 *
 * <p>Shapes: B batch rows, D feature width, T token positions, V vocabulary, d model width.
 */
package io.regheads.heads.decoder;
