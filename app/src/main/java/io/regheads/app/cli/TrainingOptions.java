package io.regheads.app.cli;

import io.regheads.core.train.TrainerConfig;
import picocli.CommandLine.Option;

/**
 * Training options shared by the commands (a picocli mixin). Defaults are set by each command through the
 * constructor, since {@code compare} and {@code uci} train with different presets.
 *
 * <p>Not thread-safe (picocli fills the fields).
 */
final class TrainingOptions {
    @Option(names = "--heads", paramLabel = "LIST",
            description = "Comma-separated heads to train (default: all: pointwise, histogram, mdn, decoder, unnormalized-decoder, xval).")
    String heads;

    @Option(names = "--loss", paramLabel = "EXPR",
            description = "Training loss, e.g. ce, ce+0.3*ntl-was, ntl-was-cdf, gce:0.5, mse. Applied to every head "
                    + "whose output takes it; the others keep their default (pointwise: mse; histogram: gce:0.05; mdn: ce; decoder: gce:0.5) and "
                    + "the table says so. Default: each head's default.")
    String loss;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of initialisation, validation split, shuffles, "
            + "samples and random folds (default: ${DEFAULT-VALUE}).")
    long seed = 0;

    @Option(names = "--epochs", paramLabel = "N", description = "Maximum epochs; early stopping on a 10%% validation "
            + "share of the training rows ends most runs sooner.")
    Integer epochs;

    @Option(names = "--lr", paramLabel = "RATE", description = "AdamW learning rate.")
    Double learningRate;

    @Option(names = "--patience", paramLabel = "N", description = "Epochs without a better validation loss before "
            + "stopping.")
    Integer patience;

    /** The trainer settings: {@code base} with the options given on the command line. */
    TrainerConfig trainer(TrainerConfig base) {
        TrainerConfig t = base.withSeed(seed);
        if (epochs != null) {
            t = t.withMaxEpochs(epochs);
        }
        if (learningRate != null) {
            t = t.withLearningRate(learningRate);
        }
        if (patience != null) {
            t = t.withPatience(patience);
        }
        return t;
    }

    /** One line describing {@code t} for the output header. */
    static String describe(TrainerConfig t) {
        return String.format(java.util.Locale.ROOT,
                "MLP encoder 2x256 ReLU; AdamW lr %g, batch %d, at most %d epochs, early stopping (patience %d) on %.0f%% "
                        + "of the training rows; seed %d",
                t.learningRate(), t.batchSize(), t.maxEpochs(), t.patience(), 100 * t.validationFraction(), t.seed());
    }
}
