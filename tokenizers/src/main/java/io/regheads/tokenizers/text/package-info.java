/**
 * Text encodings of numbers for number-in-text models.
 *
 * <ul>
 *   <li>{@link io.regheads.tokenizers.text.ChartonTokenizer} with {@link io.regheads.tokenizers.text.ChartonScheme}:
 *       P10, P1000, B1999, FP15 (Charton 2022, as compared in the xVal paper): sign, three significant digits,
 *       exponent E-8..E+8; also a {@link io.regheads.core.token.NumberTokenizer}.</li>
 *   <li>{@link io.regheads.tokenizers.text.TextNumberCodec}: whole strings with those encodings.</li>
 *   <li>{@link io.regheads.tokenizers.text.XValCodec}: the xVal encoding (one {@code [NUM]} per number plus the
 *       list of values) and the multi-scale coefficients.</li>
 *   <li>{@link io.regheads.tokenizers.text.CharVocabulary} and {@link io.regheads.tokenizers.text.NumberParser}:
 *       the character tokens for the non-number parts and the number finder.</li>
 * </ul>
 *
 * <p>Shapes: L tokens of a text, T tokens per number, V vocabulary. Source: Golkar et al., "xVal: A Continuous
 * Number Encoding for Large Language Models" (arXiv:2310.02989) and its public reference code (number parsing,
 * the {@code [NUM]} placeholder, the baseline encodings with 3 significant figures). All types are immutable and
 * thread-safe.
 */
package io.regheads.tokenizers.text;
