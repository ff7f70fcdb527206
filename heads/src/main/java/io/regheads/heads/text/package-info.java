/**
 * Numbers in text: a transformer encoder over token sequences with the xVal number embedding, and the arithmetic
 * benchmark that compares number encodings and output heads.
 *
 * <p>Central types: {@link io.regheads.heads.text.SequenceEncoder} (token + position embedding, xVal multiplicative
 * or multi-scale {@code [NUM]} embedding, non-causal pre-LN blocks with a padding mask, mean pooling to phi),
 * {@link io.regheads.heads.text.SequenceBatch} (padded sequences and their numbers),
 * {@link io.regheads.heads.text.SequenceModel} (encoder + any {@link io.regheads.core.head.RegressionHead} + loss,
 * trainable by {@link io.regheads.core.train.Trainer}), {@link io.regheads.app.arith.ArithmeticTask} (seeded
 * expression generator) and {@link io.regheads.app.arith.ArithmeticBenchmark}.
 *
 * <p>Shapes: B batch, T (= L) positions, d width, V vocabulary, k multi-scale order.
 *
 * <p>References: Golkar et al., xVal (../shared/papers/002_*.txt); Zausinger et al., Number Token Loss
 * (../shared/papers/004_*.txt).
 */
package io.regheads.heads.text;
