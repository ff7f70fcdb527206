/**
 * Optimizers over lists of {@link io.regheads.core.nn.Param}: {@link io.regheads.core.optim.Adam} (coupled L2)
 * and {@link io.regheads.core.optim.AdamW} (decoupled weight decay), both with PyTorch semantics and defaults
 * ({@link io.regheads.core.optim.AdamConfig}), and {@link io.regheads.core.optim.GradientClipping} by global
 * norm.
 *
 * <p>State is preallocated at construction; a step allocates nothing. On the CPU backend the update is one
 * plain-Java pass over each parameter's host buffer (measured faster than a sequence of in-place ND4J ops; figures in
 * docs/perf-engine.md); other backends use in-place ND4J ops. Optimizers are not thread-safe.
 */
package io.regheads.core.optim;
