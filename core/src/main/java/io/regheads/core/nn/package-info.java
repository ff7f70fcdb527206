/**
 * The engine's layers: explicit forward and backward on ND4J, llm.c style.
 *
 * <p>Central types: {@link io.regheads.core.nn.Layer} (forward returns an immutable record cache; backward
 * <em>adds</em> into {@link io.regheads.core.nn.Param#grad()} and returns dInput), {@link io.regheads.core.nn.Arena}
 * (scratch buffers reused across steps), and the layers {@link io.regheads.core.nn.Linear}, {@link
 * io.regheads.core.nn.ReLU}, {@link io.regheads.core.nn.GELU}, {@link io.regheads.core.nn.LayerNorm}, {@link
 * io.regheads.core.nn.Embedding}, {@link io.regheads.core.nn.MultiHeadSelfAttention}, {@link
 * io.regheads.core.nn.TransformerBlock} and the encoder {@link io.regheads.core.nn.MlpEncoder}.
 *
 * <p>Inference: {@code Linear}, {@code LayerNorm}, {@code MultiHeadSelfAttention} and {@code TransformerBlock} each
 * give an immutable {@code snapshot()} of their parameters. {@link io.regheads.core.nn.TransformerBlock.Snapshot}
 * runs the block's key/value-cached incremental step (one new position of N rows against the cached keys and values
 * of their earlier positions, {@link io.regheads.core.nn.CachedAttention}), the inference engine of the decoder
 * head; its reference is the block's causal {@code forward}, and {@code TransformerBlockStepTest} compares the two.
 *
 * <p>Caches hold references, not copies: the arena buffers of the pass and the caller's input arrays (contiguous
 * inputs are used as they are). Do not modify an input between a forward pass and its backward pass.
 *
 * <p>Shape legend: B batch, T positions, d model width, H heads, dh = d / H, ff MLP width, V vocabulary, D_in input
 * features, N = product of leading dimensions (rows).
 *
 * <p>Data types: every layer works in the data type of its parameters, FLOAT for training and DOUBLE for gradient
 * checks; inputs of another type are rejected (no silent casts).
 *
 * <p>Speed: matrix products go through {@link io.regheads.core.internal.Gemm} (direct OpenBLAS on the CPU backend,
 * {@code Nd4j.gemm} elsewhere) into arena buffers (transposes by flags, gradients accumulated by beta = 1); layer
 * norm, GELU, ReLU, the embedding gather/scatter and small-T attention are plain-Java loops, because ND4J's fixed
 * cost per op dominates at these sizes. The hot ones copy their inputs into
 * arena-held Java arrays ({@link io.regheads.core.nn.Arena#floats}), loop, and copy back; reshaped views come from
 * {@link io.regheads.core.nn.Arena#view}. After the first step of a steady loop nothing is allocated but small Java
 * objects. Host copies go through the project's one host-access layer, which keeps each array alive for the whole
 * copy and synchronises host and device on a device backend, so the kernels are also correct (if slower) on CUDA;
 * attention keeps an ND4J-ops path as well. Measured figures: {@code docs/perf-engine.md}.
 *
 * <p>Argument policy: shapes, ranks and data types are always checked (O(1)) and raise {@link
 * java.lang.IllegalArgumentException} naming the argument, the rule and the value. Values are not scanned for
 * NaN/Inf inside the network (they propagate and the trainer's divergence check sees them); the scans that are
 * done are cheap and at entry points: {@link io.regheads.core.nn.MlpEncoder} checks its input (one native
 * reduction), {@link io.regheads.core.nn.Embedding} range-checks every id, attention checks its mask.
 *
 * <p>Initialisation follows PyTorch's defaults: {@code nn.Linear} uniform on +-1/sqrt(fan_in) for weight and bias,
 * {@code nn.Embedding} N(0, 1), LayerNorm gain 1 and bias 0.
 */
package io.regheads.core.nn;

import io.regheads.core.internal.Host;
