/**
 * Number tokenizers: implementations of {@link io.regheads.core.token.NumberTokenizer} that turn a real y into a
 * fixed-length token sequence and back, with validity masks for constrained decoding.
 *
 * <ul>
 *   <li>{@link io.regheads.tokenizers.NormalizedTokenizer}: base-B digits of y in [0, 1] (K digits, decode to the
 *       bin centre).</li>
 *   <li>{@link io.regheads.tokenizers.UnnormalizedTokenizer}: sign, exponent sign, E exponent digits, M mantissa
 *       digits; exact round-to-nearest (correctly rounded significant digits).</li>
 *   <li>{@link io.regheads.tokenizers.HammingTokenizer}: K-bit strings ordered by number of ones, then value.</li>
 *   <li>{@link io.regheads.tokenizers.RepeatedTokenizer}: r-fold repetition with hard and soft majority votes.</li>
 * </ul>
 *
 * <p>Shape legend: T tokens per number ({@code sequenceLength()}), V vocabulary size. Configurations are records
 * with presets ({@link io.regheads.tokenizers.NormalizedConfig}, {@link io.regheads.tokenizers.UnnormalizedConfig}).
 * Text encodings of numbers (P10, P1000, B1999, FP15, xVal) are in {@code io.regheads.tokenizers.text}.
 *
 * <p>Source: Song and Bahri, "Decoding-based Regression" (normalized/unnormalized tokens, repetition error
 * correction, Hamming ordering). All types are immutable and thread-safe.
 */
package io.regheads.tokenizers;
