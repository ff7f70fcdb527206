/**
 * Training: the {@link io.regheads.core.train.TrainableModel} contract (params, trainStep, evaluate), the
 * {@link io.regheads.core.train.Trainer} (seeded shuffling, mini-batches, AdamW, optional gradient clipping,
 * early stopping on a validation split that restores a copy of the best weights, divergence detection), its
 * validated {@link io.regheads.core.train.TrainerConfig} with presets, the {@link
 * io.regheads.core.train.TrainingResult}, and progress reporting ({@link io.regheads.core.train.ProgressListener},
 * the one-line {@link io.regheads.core.train.ConsoleProgress}).
 *
 * <p>Shapes: x batches {@code [B, D]} (B = batch size, smaller for an epoch's last batch), y batches {@code [B]}.
 * Configs and results are immutable; a Trainer mutates only the model's parameters and gradients.
 */
package io.regheads.core.train;
