package io.regheads.app.cli;

import io.regheads.core.data.TargetTransform;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.model.ModelConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How the commands that train build their models (a picocli mixin of {@code train}, {@code compare}, {@code uci},
 * {@code curves} and {@code settings}): the loss, the head's settings ({@code -H KEY=VALUE}, see {@link
 * HeadOptions}), the trainer's (seed, epochs, learning rate, patience, batch size, weight decay, gradient clipping,
 * validation share), the MLP encoder's width and depth, and a settings file ({@code --config FILE}, see {@link
 * ConfigFile}). Each setting comes from, in order of precedence: the command line, the settings file, the command's
 * default (each command passes its own trainer defaults: {@code compare} and {@code train} train up to 300 epochs
 * with patience 20, {@code uci} the paper's protocol).
 *
 * <p>Every option value is checked with a one-line message naming the option, the rule and the value, e.g. {@code
 * --batch-size must be >= 1, got 0}.
 *
 * <p>Not thread-safe (picocli fills the fields).
 */
final class TrainingOptions {
    /** The encoder's hidden layers and width unless told otherwise (ModelConfig.defaults). */
    static final int DEFAULT_LAYERS = 2;
    static final int DEFAULT_WIDTH = 256;

    @Option(names = "--loss", paramLabel = "EXPR",
            description = "Training loss (ce, mse, ce+0.3*ntl-was, gce:0.5, ntl-was-cdf:0.5, crps, ce+0.5*crps, ...: see "
                    + "the user guide). With several heads it applies to every head whose output takes it; the others "
                    + "keep their default and a note says so. Default: each head's own.")
    String loss;

    @Option(names = {"-H", "--head-option"}, paramLabel = "KEY=VALUE",
            description = "A setting of the head over its preset, repeatable: e.g. -H bins=32 -H tails=true "
                    + "(histogram), -H components=5 (mdn), -H base=2 -H length=8 (decoder). 'regheads settings "
                    + "--head NAME' lists a head's keys. With several heads a key goes to every head that has it; "
                    + "NAME.KEY=VALUE to one head.")
    List<String> headOptions = new ArrayList<>();

    @Option(names = "--config", paramLabel = "FILE",
            description = "Model settings file (properties: head=..., head.*, trainer.*, encoder.*, loss, "
                    + "target.transform), as 'regheads settings' prints it; options given here override it.")
    Path config;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of initialisation, validation split, shuffles, "
            + "samples and random folds (default: 0).")
    Long seed;

    @Option(names = "--epochs", paramLabel = "N", description = "Maximum epochs; early stopping on the validation "
            + "share of the training rows ends most runs sooner.")
    Integer epochs;

    @Option(names = "--lr", paramLabel = "RATE", description = "AdamW learning rate.")
    Double learningRate;

    @Option(names = "--patience", paramLabel = "N", description = "Epochs without a better validation loss before "
            + "stopping.")
    Integer patience;

    @Option(names = "--batch-size", paramLabel = "N", description = "Rows per mini-batch (default: 128).")
    Integer batchSize;

    @Option(names = "--weight-decay", paramLabel = "W", description = "AdamW decoupled weight decay (default: 0).")
    Double weightDecay;

    @Option(names = "--clip-norm", paramLabel = "C", description = "Clip the gradient's global norm at C (default: 0, "
            + "no clipping).")
    Double clipNorm;

    @Option(names = "--validation-share", paramLabel = "F", description = "Share of the training rows held out for "
            + "early stopping, in [0, 0.9]; 0 trains on every row for --epochs epochs (default: 0.1).")
    Double validationShare;

    @Option(names = "--encoder-width", paramLabel = "N", description = "Units per hidden layer of the MLP encoder, "
            + "1 to 2048 (default: 256).")
    Integer encoderWidth;

    @Option(names = {"--encoder-layers", "--encoder-depth"}, paramLabel = "N",
            description = "Hidden layers of the MLP encoder, 2 to 5 (default: 2).")
    Integer encoderLayers;

    private ConfigFile file;
    private boolean fileRead;

    /** The settings file, or null without {@code --config} (read once). */
    ConfigFile file() {
        if (!fileRead) {
            file = config == null ? null : ConfigFile.read(config);
            fileRead = true;
        }
        return file;
    }

    /**
     * Checks the loss expressions (the option's and the file's) and every option value, before any output or
     * training.
     *
     * @throws IllegalArgumentException naming the option, the rule and the value
     */
    void check() {
        HeadRun.checkLoss(loss);
        ConfigFile f = file();
        if (f != null && f.loss() != null) {
            try {
                HeadRun.checkLoss(f.loss());
            } catch (IllegalArgumentException e) {
                throw f.error(e.getMessage().replaceFirst("^--loss: ", "loss: "));
            }
        }
        trainer(TrainerConfig.defaults());
        encoderLayers();
        encoderWidth();
    }

    /** The seed: the option's, else the file's {@code trainer.seed}, else 0. */
    long seed() {
        if (seed != null) {
            return seed;
        }
        return file() == null ? 0 : file().trainer(TrainerConfig.defaults()).seed();
    }

    /**
     * The trainer settings: {@code base} (the command's defaults), then the file's, then the options given.
     *
     * @throws IllegalArgumentException naming the option (or the file's key) and the value it refuses
     */
    TrainerConfig trainer(TrainerConfig base) {
        TrainerConfig t = file() == null ? base : file().trainer(base);
        if (seed != null) {
            t = t.withSeed(seed);
        }
        if (epochs != null) {
            t = t.withMaxEpochs(Checks.atLeast("--epochs", epochs, 1));
        }
        if (learningRate != null) {
            t = t.withLearningRate(Checks.positive("--lr", learningRate));
        }
        if (patience != null) {
            t = t.withPatience(Checks.atLeast("--patience", patience, 1));
        }
        if (batchSize != null) {
            t = t.withBatchSize(Checks.atLeast("--batch-size", batchSize, 1));
        }
        if (weightDecay != null) {
            t = t.withWeightDecay(Checks.nonNegative("--weight-decay", weightDecay));
        }
        if (clipNorm != null) {
            t = t.withClipNorm(Checks.nonNegative("--clip-norm", clipNorm));
        }
        if (validationShare != null) {
            t = t.withValidationFraction(Checks.inClosedRange("--validation-share", validationShare, 0, 0.9));
        }
        return t;
    }

    /** The encoder's hidden layers: the option, the file, else 2. */
    int encoderLayers() {
        if (encoderLayers != null) {
            return Checks.inRange("--encoder-layers", encoderLayers, 2, 5);
        }
        return file() == null ? DEFAULT_LAYERS : file().encoderLayers(DEFAULT_LAYERS);
    }

    /** The encoder's width: the option, the file, else 256. */
    int encoderWidth() {
        if (encoderWidth != null) {
            return Checks.inRange("--encoder-width", encoderWidth, 1, 2048);
        }
        return file() == null ? DEFAULT_WIDTH : file().encoderWidth(DEFAULT_WIDTH);
    }

    /** Whether x is standardised: the file's {@code standardizeX}, else true. */
    boolean standardizeX() {
        return file() == null || file().standardizeX();
    }

    /** The target transform: {@code option} if given (not null), else the file's, else NONE. */
    TargetTransform targetTransform(TargetTransform option) {
        if (option != null) {
            return option;
        }
        return file() == null ? TargetTransform.NONE : file().targetTransform(TargetTransform.NONE);
    }

    /** The head the settings file names, or null. */
    String fileHead() {
        return file() == null ? null : file().head();
    }

    /** The parsed {@code -H} options. @throws IllegalArgumentException on a malformed one */
    HeadOptions headOptions(HeadCatalog catalog) {
        return HeadOptions.parse(headOptions, catalog);
    }

    /**
     * {@code preset} with the settings file's head settings (if the file names this head) and the {@code -H} options
     * that go to it: a preset of the same name whose spec has them.
     *
     * @param only whether it is the only head the command trains (every unqualified {@code -H} goes to it)
     * @throws IllegalArgumentException the head's reader's message, naming the option or the file
     */
    HeadCatalog.Preset configured(HeadCatalog.Preset preset, HeadOptions options, boolean only) {
        String name = preset.spec().get().name();
        ConfigFile f = file();
        Map<String, String> fileKeys = f != null && name.equals(f.head()) ? f.headKeys() : Map.of();
        HeadSpec spec = options.apply(preset, fileKeys, f, only);
        return new HeadCatalog.Preset(preset.name(), preset.description(), preset.paperColumn(), () -> spec);
    }

    /**
     * The loss for a head: {@code --loss}, else the file's {@code loss} when the file names no head or this one (a
     * saved model's loss is its head's), else null (the head's default).
     */
    String loss(HeadSpec spec) {
        if (loss != null) {
            return loss;
        }
        ConfigFile f = file();
        return f != null && (f.head() == null || f.head().equals(spec.name())) ? f.loss() : null;
    }

    /** The model settings of one head: these encoder settings, the spec, its loss, the trainer and the transform. */
    ModelConfig model(HeadSpec spec, String lossExpression, TrainerConfig trainer, TargetTransform transform) {
        return new ModelConfig(encoderLayers(), encoderWidth(), spec, lossExpression, trainer, standardizeX(),
                transform);
    }

    /** What {@link HeadRun} needs besides the head: encoder, trainer and target transform. */
    HeadRun.Setup setup(TrainerConfig trainer, TargetTransform transform) {
        return new HeadRun.Setup(encoderLayers(), encoderWidth(), standardizeX(), trainer, transform);
    }

    /** One line describing the encoder and {@code t} for the output header. */
    String describe(TrainerConfig t) {
        return describe(encoderLayers(), encoderWidth(), t);
    }

    /**
     * One line describing an encoder of {@code layers} x {@code width} and {@code t}, e.g. {@code MLP 2x256 ReLU;
     * AdamW lr 0.001, batch 128, up to 300 epochs, patience 20 on 10% of the training rows; seed 0}.
     */
    static String describe(int layers, int width, TrainerConfig t) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "MLP %dx%d ReLU; AdamW lr %s, batch %d",
                layers, width, Fmt.plain(t.learningRate()), t.batchSize()));
        if (t.weightDecay() > 0) {
            sb.append(", weight decay ").append(Fmt.plain(t.weightDecay()));
        }
        if (t.clipping()) {
            sb.append(", gradient norm clipped at ").append(Fmt.plain(t.clipNorm()));
        }
        if (t.validationFraction() > 0) {
            sb.append(String.format(Locale.ROOT, ", up to %d epochs, patience %d on %s%% of the training rows",
                    t.maxEpochs(), t.patience(), Fmt.percent(t.validationFraction())));
        } else {
            sb.append(String.format(Locale.ROOT, ", %d epochs on every training row", t.maxEpochs()));
        }
        return sb.append("; seed ").append(t.seed()).toString();
    }
}
