/**
 * The number tokenizer contract: {@link io.regheads.core.token.NumberTokenizer} (y &lt;-> fixed-length token
 * sequences, validity masks, token values) and {@link io.regheads.core.token.Interval} (the y-range of a
 * sequence, for densities). Implementations live in the {@code regheads-tokenizers} module.
 */
package io.regheads.core.token;
