/**
 * Decoder heads (Song &amp; Bahri, "Decoding-based Regression", ../shared/papers/000): a small causal transformer
 * that spells y as T tokens of any {@link io.regheads.core.token.NumberTokenizer}.
 *
 * <p>Central types: {@link io.regheads.heads.decoder.DecoderConfig} (sizes and presets), {@link
 * io.regheads.heads.decoder.DecoderHead} (training by teacher forcing, {@code [B, T, V]} logits with validity
 * masks), {@link io.regheads.heads.decoder.DecoderState} (key/value-cached incremental decoding, one position per
 * step) and {@link io.regheads.heads.decoder.DecoderDistribution} (exact density, CDF, tree-walk quantiles for
 * fixed-point digits and tokenizers with prefix ranges (the latter in {@code PrefixRangeWalk}), exact mean under a certified error
 * budget per row, beam-search mode, temperature/top-k/top-p sampling with one decoder step per distinct prefix,
 * Harrell-Davis median, repetition votes).
 *
 * <p>Shapes: B batch rows, D feature width, T token positions, V vocabulary, d model width.
 */
package io.regheads.heads.decoder;
