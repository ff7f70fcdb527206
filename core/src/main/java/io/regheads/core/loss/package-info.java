/**
 * The loss contract: {@link io.regheads.core.loss.Loss} adds {@code weight * gradient} into a caller-owned buffer,
 * so weighted sums ({@link io.regheads.core.loss.WeightedSum}, built by {@code plus} and {@code times}) fuse into one
 * gradient. {@link io.regheads.core.head.Targets} carries token or value labels. Implementations live in the
 * {@code regheads-losses} module.
 */
package io.regheads.core.loss;
