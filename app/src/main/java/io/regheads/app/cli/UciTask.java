package io.regheads.app.cli;

import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;

/**
 * One independent fit of {@code regheads uci}: train head {@code head} in its grid variant {@code variant} on the
 * training rows of fold {@code fold} of {@code dataset}, then measure it ({@link UciFit#run}). Tasks share nothing, so
 * they may run in any order, on any thread or machine; {@link #key()} identifies a task's result in a results file.
 *
 * <p>Example: {@code new UciTask("yacht", 3, "histogram", "bins=16", null, TrainerConfig.paper())}.
 *
 * @param dataset       data set name ({@code <name>.csv} with {@code splits/<name>/fold.txt})
 * @param fold          test fold, {@code >= 0}
 * @param head          head name in the {@link HeadCatalog}
 * @param variant       grid variant label of that head, or its preset with settings changed ({@link
 *                      HeadCatalog#variant}, e.g. {@code bins=32,tails=true})
 * @param loss          loss expression, or {@code null} for the head's default (a head whose output cannot take the
 *                      expression trains with its default, see {@link HeadRun#chooseLoss})
 * @param trainer       trainer settings (carry the seed)
 * @param encoderLayers hidden layers of the MLP encoder, 2..5
 * @param encoderWidth  units per hidden layer, 1..2048
 */
public record UciTask(String dataset, int fold, String head, String variant, String loss, TrainerConfig trainer,
        int encoderLayers, int encoderWidth) {
    /** The encoder of the paper's protocol and of results files written before the encoder was a setting. */
    public static final String DEFAULT_ENCODER = TrainingOptions.DEFAULT_LAYERS + "x" + TrainingOptions.DEFAULT_WIDTH;

    /** Validates the names (non-blank, no {@code |}), the fold and the encoder sizes. */
    public UciTask {
        for (String[] f : new String[][] {{"dataset", dataset}, {"head", head}, {"variant", variant}}) {
            Checks.require(f[1] != null && !f[1].isBlank() && !f[1].contains("|"),
                    "%s must be non-blank without '|', got '%s'", f[0], f[1]);
        }
        Checks.atLeast("fold", fold, 0);
        Checks.notNull("trainer", trainer);
        Checks.inRange("encoderLayers", encoderLayers, 2, 5);
        Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
    }

    /** With the default encoder, 2 x 256. */
    public UciTask(String dataset, int fold, String head, String variant, String loss, TrainerConfig trainer) {
        this(dataset, fold, head, variant, loss, trainer, TrainingOptions.DEFAULT_LAYERS, TrainingOptions.DEFAULT_WIDTH);
    }

    /** The encoder as {@code layers x width}, e.g. {@code 2x256}. */
    public String encoder() {
        return encoderLayers + "x" + encoderWidth;
    }

    /** The loss as the key writes it: the expression, or {@code "default"}. */
    public String lossLabel() {
        return loss == null || loss.isBlank() ? "default" : loss;
    }

    /**
     * {@code dataset|fold|head|variant|loss|trainer}, and {@code |encoder=LxW} for an encoder other than {@value
     * #DEFAULT_ENCODER}: equal for equal tasks, so a rerun can find finished ones (and those of files written before
     * the encoder was a setting).
     */
    public String key() {
        return key(dataset, fold, head, variant, lossLabel(), trainer.toString(), encoder());
    }

    /** The key of the task with these fields (the loss as {@link #lossLabel()}, the trainer as its text). */
    static String key(String dataset, int fold, String head, String variant, String loss, String trainer,
            String encoder) {
        return dataset + "|" + fold + "|" + head + "|" + variant + "|" + loss + "|" + trainer
                + (DEFAULT_ENCODER.equals(encoder) ? "" : "|encoder=" + encoder);
    }
}
