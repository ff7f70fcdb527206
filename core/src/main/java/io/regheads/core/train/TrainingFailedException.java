package io.regheads.core.train;

import io.regheads.core.check.Checks;

/**
 * Thrown by {@link TrainingResult#requireConverged()} when a run diverged or left an unusable model. The message is
 * the result's one-line {@link TrainingResult#message()} (what went wrong, epoch and step, what to try); {@link
 * #result()} has the rest. An {@link IllegalStateException}, so callers that caught that before keep working.
 */
public final class TrainingFailedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final transient TrainingResult result;

    /**
     * @param result a failed result ({@link TrainingResult#failed()})
     * @throws IllegalArgumentException if result is null or did not fail
     */
    public TrainingFailedException(TrainingResult result) {
        super(Checks.notNull("result", result).message());
        Checks.require(result.failed(), "result must be a failed run, got stop reason %s", result.stopReason());
        this.result = result;
    }

    /** The failed run (null after deserialisation). */
    public TrainingResult result() {
        return result;
    }

    /** Why the run failed: {@link TrainingResult.StopReason#DIVERGED} or {@link TrainingResult.StopReason#FAILED}. */
    public TrainingResult.StopReason reason() {
        return result == null ? null : result.stopReason();
    }
}
