package io.regheads.core.train;

import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import java.util.Properties;

/**
 * Settings of a {@link Trainer} run. Validated on construction; {@link #toString()} doubles as provenance.
 *
 * <p>Presets: {@link #defaults()} (batch 128, 300 epochs, Adam lr 1e-3, no weight decay, no clipping, 10%
 * validation, patience 20); {@link #paper()} (the decoding-regression paper's protocol: lr 1e-4, patience 5,
 * otherwise as defaults); {@link #shortRun()} (lr 1e-3, patience 5, at most 20 epochs). The last two are fixed
 * protocols: they do not follow changes of the defaults.
 *
 * <p>Settings as named keys: {@link #toProperties()} writes {@code trainer.seed}, {@code trainer.batchSize}, ... (the
 * field names under {@code trainer.}); {@link #of(Properties)} reads them back, naming the key it refuses.
 *
 * @param seed               seeds the validation split and the per-epoch shuffles (commons-rng XO_RO_SHI_RO_128_PP)
 * @param batchSize          rows per mini-batch, {@code >= 1}; the last, partial batch of an epoch is kept
 * @param maxEpochs          {@code >= 1}
 * @param learningRate       AdamW learning rate, {@code > 0} and finite
 * @param weightDecay        AdamW decoupled weight decay, {@code >= 0} (0: plain Adam)
 * @param clipNorm           global gradient-norm clip, {@code >= 0}; 0 turns clipping off (the default)
 * @param validationFraction share of the rows held out for early stopping by {@link Trainer#fit(TrainableModel,
 *                           io.regheads.core.data.Dataset)}, in [0, 0.9]; 0: no validation, no early stopping
 * @param patience           epochs without a strictly better validation loss before stopping, {@code >= 1}
 */
public record TrainerConfig(long seed, int batchSize, int maxEpochs, double learningRate, double weightDecay,
        double clipNorm, double validationFraction, int patience) {

    /** Validates every field; see the record description. */
    public TrainerConfig {
        Checks.atLeast("batchSize", batchSize, 1);
        Checks.atLeast("maxEpochs", maxEpochs, 1);
        Checks.positive("learningRate", learningRate);
        Checks.nonNegative("weightDecay", weightDecay);
        Checks.nonNegative("clipNorm", clipNorm);
        Checks.inClosedRange("validationFraction", validationFraction, 0, 0.9);
        Checks.atLeast("patience", patience, 1);
    }

    /**
     * Batch 128, 300 epochs, lr 1e-3, no weight decay, no clipping, validation 0.1, patience 20, seed 0: the values
     * {@code regheads defaults} chose by cross-validation on training folds (docs/defaults.md).
     */
    public static TrainerConfig defaults() {
        return new TrainerConfig(0L, 128, 300, 1e-3, 0.0, 0.0, 0.1, 20);
    }

    /**
     * The training protocol of Song and Bahri, "Decoding-based Regression" (arXiv:2501.19383): Adam lr 1e-4, batch
     * 128, at most 300 epochs, early stopping with patience 5 on a 10% validation split.
     *
     * @return the settings
     */
    public static TrainerConfig paper() {
        return new TrainerConfig(0L, 128, 300, 1e-4, 0.0, 0.0, 0.1, 5);
    }

    /**
     * A short fixed-budget run: Adam lr 1e-3, batch 128, validation 0.1, patience 5, no weight decay or clipping, at
     * most 20 epochs. With {@code withValidationFraction(0)} every run takes exactly 20 epochs, the setup of the
     * comparison with the PyTorch reference implementation in {@code docs/results.md}.
     *
     * @return the settings
     */
    public static TrainerConfig shortRun() {
        return new TrainerConfig(0L, 128, 20, 1e-3, 0.0, 0.0, 0.1, 5);
    }

    /** The prefix of the named keys, {@code "trainer."}. */
    public static final String PREFIX = "trainer.";

    /**
     * The settings as named keys {@code trainer.<field>} (seed, batchSize, maxEpochs, learningRate, weightDecay,
     * clipNorm, validationFraction, patience); doubles as {@link Double#toString} writes them, so {@link #of}
     * gives back an equal config.
     *
     * @return a new table
     */
    public Properties toProperties() {
        Properties p = new Properties();
        p.setProperty(PREFIX + "seed", Long.toString(seed));
        p.setProperty(PREFIX + "batchSize", Integer.toString(batchSize));
        p.setProperty(PREFIX + "maxEpochs", Integer.toString(maxEpochs));
        p.setProperty(PREFIX + "learningRate", Double.toString(learningRate));
        p.setProperty(PREFIX + "weightDecay", Double.toString(weightDecay));
        p.setProperty(PREFIX + "clipNorm", Double.toString(clipNorm));
        p.setProperty(PREFIX + "validationFraction", Double.toString(validationFraction));
        p.setProperty(PREFIX + "patience", Integer.toString(patience));
        return p;
    }

    /**
     * Reads the keys {@link #toProperties()} writes (other keys of the table are ignored).
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed or out of range, e.g. "trainer.batchSize
     *                                  must be >= 1, got 0"
     */
    public static TrainerConfig of(Properties p) {
        Settings s = Settings.of(p, PREFIX);
        long seed = s.longInteger("seed");
        int batchSize = s.integer("batchSize");
        int maxEpochs = s.integer("maxEpochs");
        double learningRate = s.real("learningRate");
        double weightDecay = s.real("weightDecay");
        double clipNorm = s.real("clipNorm");
        double validationFraction = s.real("validationFraction");
        int patience = s.integer("patience");
        return s.validated(() -> new TrainerConfig(seed, batchSize, maxEpochs, learningRate, weightDecay, clipNorm,
                validationFraction, patience));
    }

    /** True when gradient clipping is on ({@code clipNorm > 0}). */
    public boolean clipping() {
        return clipNorm > 0;
    }

    /**
     * {@return a copy with another seed}
     * @param s the seed
     */
    public TrainerConfig withSeed(long s) {
        return new TrainerConfig(s, batchSize, maxEpochs, learningRate, weightDecay, clipNorm, validationFraction, patience);
    }

    /**
     * {@return a copy with another batch size}
     * @param b the batch size, at least 1
     */
    public TrainerConfig withBatchSize(int b) {
        return new TrainerConfig(seed, b, maxEpochs, learningRate, weightDecay, clipNorm, validationFraction, patience);
    }

    /**
     * {@return a copy with another epoch limit}
     * @param e the largest number of epochs, at least 1
     */
    public TrainerConfig withMaxEpochs(int e) {
        return new TrainerConfig(seed, batchSize, e, learningRate, weightDecay, clipNorm, validationFraction, patience);
    }

    /**
     * {@return a copy with another learning rate}
     * @param lr the learning rate, positive and finite
     */
    public TrainerConfig withLearningRate(double lr) {
        return new TrainerConfig(seed, batchSize, maxEpochs, lr, weightDecay, clipNorm, validationFraction, patience);
    }

    /**
     * {@return a copy with another weight decay}
     * @param wd the weight decay, at least 0
     */
    public TrainerConfig withWeightDecay(double wd) {
        return new TrainerConfig(seed, batchSize, maxEpochs, learningRate, wd, clipNorm, validationFraction, patience);
    }

    /**
     * {@return a copy with another clipping norm}
     * @param c the global gradient-norm limit, 0 for none
     */
    public TrainerConfig withClipNorm(double c) {
        return new TrainerConfig(seed, batchSize, maxEpochs, learningRate, weightDecay, c, validationFraction, patience);
    }

    /**
     * {@return a copy with another validation share}
     * @param f the share of the rows held out for validation, in [0, 0.9]
     */
    public TrainerConfig withValidationFraction(double f) {
        return new TrainerConfig(seed, batchSize, maxEpochs, learningRate, weightDecay, clipNorm, f, patience);
    }

    /**
     * {@return a copy with another patience}
     * @param p epochs without improvement before stopping, at least 1
     */
    public TrainerConfig withPatience(int p) {
        return new TrainerConfig(seed, batchSize, maxEpochs, learningRate, weightDecay, clipNorm, validationFraction, p);
    }
}
