package io.regheads.heads.model;

import io.regheads.core.data.TargetScaler;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import io.regheads.core.train.TrainerConfig;
import java.util.Properties;

/**
 * Everything that defines a {@link RegressionModel} before it sees data: the MLP encoder's depth and width, the
 * head, the loss expression ({@link LossSpec}; {@code null} means the head's default) and the trainer settings
 * (which carry the seed). Immutable; {@code toString()} doubles as provenance.
 *
 * <p>As named keys ({@link #toProperties()}, read back by {@link #of(Properties)}): {@code encoder.layers}, {@code
 * encoder.width}, the head's own keys ({@code head}, {@code head.version}, {@code head.<setting>}, see {@link
 * HeadSpec#toProperties()}), {@code loss}, {@code standardizeX} and the trainer's ({@code trainer.<field>}, see
 * {@link TrainerConfig#toProperties()}), and the target transform as a versioned setting ({@code target.version=1},
 * {@code target.transform=NONE|ROBUST|LOG}); tables without {@code target.transform} (models saved before it
 * existed) read as {@code NONE}, the min-max scaling they were trained with.
 *
 * @param encoderLayers hidden layers of the MLP encoder, 2..5
 * @param encoderWidth  units per hidden layer, 1..2048
 * @param head          which head
 * @param loss          loss expression such as {@code "ce+0.3*ntl-was"}, or null for the head's default
 * @param trainer       optimisation settings and seed
 * @param standardizeX  standardise x with the training mean and standard deviation (true by default; the PyTorch
 *                      reference implementation feeds its U[-1, 1] inputs raw)
 * @param targetTransform how y is mapped to the head's unit interval ({@link TargetScaler}): NONE (min-max, the
 *                        default), ROBUST (bounds 3 IQR beyond the quartiles, targets clipped) or LOG ({@code log1p(y - min)},
 *                        for positive heavy-tailed targets; predictions map back exactly)
 */
public record ModelConfig(int encoderLayers, int encoderWidth, HeadSpec head, String loss, TrainerConfig trainer,
        boolean standardizeX, TargetTransform targetTransform) {
    /** The version of the target settings ({@code target.*}) this class writes and the newest it reads. */
    public static final int TARGET_VERSION = 1;

    /**
     * @throws IllegalArgumentException on encoder sizes out of range, a missing head, trainer or target transform, or
     *                                  a loss expression that does not parse (the message names the value)
     */
    public ModelConfig {
        Checks.inRange("encoderLayers", encoderLayers, 2, 5);
        Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
        Checks.notNull("head", head);
        Checks.notNull("trainer", trainer);
        Checks.notNull("targetTransform", targetTransform);
        if (loss == null) {
            loss = head.defaultLoss();
        }
        LossSpec.parse(loss); // fail early on a bad expression
    }

    /** With min-max scaling of y ({@link TargetTransform#NONE}). */
    public ModelConfig(int encoderLayers, int encoderWidth, HeadSpec head, String loss, TrainerConfig trainer,
            boolean standardizeX) {
        this(encoderLayers, encoderWidth, head, loss, trainer, standardizeX, TargetTransform.NONE);
    }

    /** With x standardised and min-max scaling of y. */
    public ModelConfig(int encoderLayers, int encoderWidth, HeadSpec head, String loss, TrainerConfig trainer) {
        this(encoderLayers, encoderWidth, head, loss, trainer, true);
    }

    /**
     * The setup of the comparison with the PyTorch reference implementation ({@code docs/results.md}) for a head:
     * encoder 2 x 256, Adam 1e-3, batch 128, exactly 20 epochs on all rows (no validation split, no early stopping),
     * raw x.
     */
    public static ModelConfig referenceSetup(HeadSpec head) {
        return new ModelConfig(2, 256, head, null, TrainerConfig.shortRun().withValidationFraction(0), false);
    }

    /**
     * The defaults: encoder 2 x 256, the head's default loss, {@link TrainerConfig#defaults()} (Adam 1e-3, batch 128, up to
     * 300 epochs, early stopping with patience 20); chosen by cross-validation on training folds (docs/defaults.md).
     */
    public static ModelConfig defaults(HeadSpec head) {
        return new ModelConfig(2, 256, head, null, TrainerConfig.defaults());
    }

    /**
     * The configuration as named keys (see the class description).
     *
     * @return a new table
     */
    public Properties toProperties() {
        Properties p = new Properties();
        p.setProperty("encoder.layers", Integer.toString(encoderLayers));
        p.setProperty("encoder.width", Integer.toString(encoderWidth));
        p.putAll(head.toProperties());
        p.setProperty("loss", loss);
        p.setProperty("standardizeX", Boolean.toString(standardizeX));
        p.setProperty("target.version", Integer.toString(TARGET_VERSION));
        p.setProperty("target.transform", targetTransform.name());
        p.putAll(trainer.toProperties());
        return p;
    }

    /**
     * Reads the keys {@link #toProperties()} writes; the head through {@link HeadRegistry}.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed or out of range, or an unknown
     *                                  head
     */
    public static ModelConfig of(Properties p) {
        Settings s = Settings.of(p, "");
        int layers = Checks.inRange("encoder.layers", s.integer("encoder.layers"), 2, 5);
        int width = Checks.inRange("encoder.width", s.integer("encoder.width"), 1, 2048);
        HeadSpec head = HeadRegistry.read(p);
        String loss = s.string("loss");
        try {
            LossSpec.parse(loss);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("loss: " + e.getMessage(), e);
        }
        boolean standardize = s.bool("standardizeX");
        TrainerConfig trainer = TrainerConfig.of(p);
        TargetTransform target = TargetTransform.NONE;
        if (p.getProperty("target.transform") != null) {
            Settings t = Settings.of(p, "target.");
            t.version(TARGET_VERSION);
            target = t.choice("transform", TargetTransform.class);
        }
        return new ModelConfig(layers, width, head, loss, trainer, standardize, target);
    }

    /** The same configuration with another loss expression (null: the head's default). */
    public ModelConfig withLoss(String newLoss) {
        return new ModelConfig(encoderLayers, encoderWidth, head, newLoss, trainer, standardizeX, targetTransform);
    }

    /** The same configuration with another head (its default loss if the loss was the old head's default). */
    public ModelConfig withHead(HeadSpec newHead) {
        Checks.notNull("head", newHead);
        return new ModelConfig(encoderLayers, encoderWidth, newHead, loss.equals(head.defaultLoss()) ? null : loss,
                trainer, standardizeX, targetTransform);
    }

    /** The same configuration with other trainer settings. */
    public ModelConfig withTrainer(TrainerConfig newTrainer) {
        return new ModelConfig(encoderLayers, encoderWidth, head, loss, newTrainer, standardizeX, targetTransform);
    }

    /** The same configuration with another encoder depth and width. */
    public ModelConfig withEncoder(int layers, int width) {
        return new ModelConfig(layers, width, head, loss, trainer, standardizeX, targetTransform);
    }

    /** The same configuration with another target transform. */
    public ModelConfig withTargetTransform(TargetTransform transform) {
        return new ModelConfig(encoderLayers, encoderWidth, head, loss, trainer, standardizeX, transform);
    }
}
