/**
 * Numbers in text: a transformer encoder over token sequences with the xVal number embedding, the building blocks
 * of an arithmetic benchmark that compares number encodings and output heads.
 *
 * <p>Central types: {@link io.regheads.heads.text.SequenceEncoder} (token + position embedding, xVal multiplicative
 * or multi-scale {@code [NUM]} embedding, non-causal pre-LN blocks with a padding mask, mean pooling to phi),
 * {@link io.regheads.heads.text.SequenceBatch} (padded sequences and their numbers),
 * {@link io.regheads.heads.text.SequenceModel} (encoder + any {@link io.regheads.core.head.RegressionHead} + loss,
 * trainable by {@link io.regheads.core.train.Trainer}). The command line's {@code regheads arith} (module
 * {@code app}, not part of the library) builds its arithmetic benchmark from these types.
 *
 * <p>Shapes: B batch, T (= L) positions, d width, V vocabulary, k multi-scale order.
 *
 * <p>References: Golkar et al., "xVal: A Continuous Number Encoding for Large Language Models" (arXiv:2310.02989);
 * Zausinger et al., "Regress, Don't Guess: A Regression-like Loss on Number Tokens for Language Models" (ICML 2025,
 * arXiv:2411.02083).
 */
package io.regheads.heads.text;
