package io.regheads.app.cli;

import io.regheads.core.train.ConsoleProgress;
import io.regheads.core.train.Progress;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainingResult;
import java.io.PrintWriter;

/**
 * The training listener of the commands: progress on stderr unless {@code --quiet} (a line rewritten in place on a
 * terminal, plain lines at most every 5 s into a file or pipe), and warnings (heavy-tailed
 * targets, clipped targets, inputs far outside the training range, a run that learned nothing) always, as a line
 * {@code warning: <message>} on the command's error stream. {@code --quiet} silences progress only.
 *
 * <p>The library also logs these warnings through SLF4J; the command line's logging configuration
 * ({@code simplelogger.properties}) keeps the library's loggers at ERROR, so each warning is printed once, here.
 *
 * <p>Not thread-safe (one per training run).
 */
final class CliProgress implements ProgressListener {
    private final ProgressListener progress;
    private final PrintWriter err;

    private CliProgress(ProgressListener progress, PrintWriter err) {
        this.progress = progress;
        this.err = err;
    }

    /**
     * @param quiet no progress, warnings only
     * @param err   where warnings go (the command's error stream)
     */
    static ProgressListener of(boolean quiet, PrintWriter err) {
        ProgressListener p = quiet ? ProgressListener.none()
                : System.console() != null ? new ConsoleProgress(System.err)
                : ConsoleProgress.plain(System.err, java.time.Duration.ofSeconds(5)); // a log file or a pipe
        return new CliProgress(p, err);
    }

    @Override
    public void onStep(Progress p) {
        progress.onStep(p);
    }

    @Override
    public void onEpochEnd(Progress p) {
        progress.onEpochEnd(p);
    }

    @Override
    public void onWarning(String message) {
        if (progress instanceof ConsoleProgress) {
            progress.onWarning(message); // ends the progress line first
        } else {
            err.println("warning: " + message);
            err.flush();
        }
    }

    @Override
    public void onFinish(TrainingResult r) {
        progress.onFinish(r);
    }
}
