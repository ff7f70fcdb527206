package io.regheads.app.cli;

import io.regheads.core.internal.Checks;
import io.regheads.core.train.TrainerConfig;

/**
 * One independent fit of {@code regheads uci}: train head {@code head} in its grid variant {@code variant} on the
 * training rows of fold {@code fold} of {@code dataset}, then measure it ({@link UciFit#run}). Tasks share nothing, so
 * they may run in any order, on any thread or machine; {@link #key()} identifies a task's result in a results file.
 *
 * <p>Example: {@code new UciTask("yacht", 3, "histogram", "bins=16", null, TrainerConfig.paper())}.
 *
 * @param dataset data set name ({@code <name>.csv} with {@code splits/<name>/fold.txt})
 * @param fold    test fold, {@code >= 0}
 * @param head    head name in the {@link HeadCatalog}
 * @param variant grid variant label of that head ({@link HeadCatalog#variant})
 * @param loss    loss expression, or {@code null} for the head's default (a head whose output cannot take the
 *                expression trains with its default, see {@link HeadRun#chooseLoss})
 * @param trainer trainer settings (carry the seed)
 */
public record UciTask(String dataset, int fold, String head, String variant, String loss, TrainerConfig trainer) {

    /** Validates the names (non-blank, no {@code |}) and the fold. */
    public UciTask {
        for (String[] f : new String[][] {{"dataset", dataset}, {"head", head}, {"variant", variant}}) {
            Checks.require(f[1] != null && !f[1].isBlank() && !f[1].contains("|"),
                    "%s must be non-blank without '|', got '%s'", f[0], f[1]);
        }
        Checks.atLeast("fold", fold, 0);
        Checks.notNull("trainer", trainer);
    }

    /** The loss as the key writes it: the expression, or {@code "default"}. */
    public String lossLabel() {
        return loss == null || loss.isBlank() ? "default" : loss;
    }

    /**
     * {@code dataset|fold|head|variant|loss|trainer}: equal for equal tasks, so a rerun can find finished ones.
     */
    public String key() {
        return key(dataset, fold, head, variant, lossLabel(), trainer.toString());
    }

    /** The key of the task with these fields (the loss as {@link #lossLabel()}, the trainer as its text). */
    static String key(String dataset, int fold, String head, String variant, String loss, String trainer) {
        return dataset + "|" + fold + "|" + head + "|" + variant + "|" + loss + "|" + trainer;
    }
}
