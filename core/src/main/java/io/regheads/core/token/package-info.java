/**
 * The number tokenizer contract: {@link io.regheads.core.token.NumberTokenizer} (y &lt;-> fixed-length token
 * sequences, validity masks, token values) and {@link io.regheads.core.token.Interval} (the y-range of a
 * sequence, for densities), with the optional facets a tokenizer implements when it has the structure: {@link
 * io.regheads.core.token.PrefixRanges} (every prefix stands for one value range), {@link
 * io.regheads.core.token.FixedPointDigits} (fixed-point digits of [0, 1], equal bins under every prefix) and {@link
 * io.regheads.core.token.Voting} (a repetition code whose copies vote). Implementations live in the {@code
 * regheads-tokenizers} module.
 */
package io.regheads.core.token;
