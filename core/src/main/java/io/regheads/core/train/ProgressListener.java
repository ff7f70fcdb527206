package io.regheads.core.train;

/**
 * Receives {@link Progress} from a {@link Trainer}: after every optimizer step, at every epoch's end, and once with
 * the final {@link TrainingResult}; and warnings from whoever prepares the run. Called on the training thread; keep it cheap (a step may take under a
 * millisecond). {@link ConsoleProgress} is the command-line display.
 */
public interface ProgressListener {

    /** After each optimizer step. */
    default void onStep(Progress progress) {}

    /** After each completed epoch (with its validation loss). */
    default void onEpochEnd(Progress progress) {}

    /**
     * A warning about the run that does not stop it, e.g. heavy-tailed targets ({@link
     * io.regheads.core.data.TargetCheck}); one line, before training starts.
     */
    default void onWarning(String message) {}

    /** Once, when training stops for any reason. */
    default void onFinish(TrainingResult result) {}

    /** A listener that ignores everything. */
    static ProgressListener none() {
        return new ProgressListener() {};
    }
}
