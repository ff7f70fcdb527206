package io.regheads.core.train;

import io.regheads.core.check.Checks;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * A one-line progress display for the command line: the line is rewritten in place with a carriage return,
 * e.g.
 * <pre>
 * epoch 3/300  step 17/40  loss 0.01234  val 0.02345  best 0.02100 @2  1.2s
 * </pre>
 * Step updates are throttled to one per {@code minInterval} (default 100 ms); epoch ends always print; {@link
 * #onFinish} prints the final summary and a newline.
 *
 * <p>For a log file or a pipe ({@link #plain}): no carriage returns and no step updates, one line per epoch end at
 * most every {@code minInterval}, and the final summary. Not thread-safe (one per training run).
 */
public final class ConsoleProgress implements ProgressListener {
    private final PrintStream out;
    private final long minIntervalNanos;
    private final boolean plain;
    private long lastPrint = Long.MIN_VALUE;
    private int lastLength;

    /** Prints to {@code out}, at most every 100 ms for steps. */
    public ConsoleProgress(PrintStream out) {
        this(out, Duration.ofMillis(100));
    }

    /**
     * @param out         where to print (e.g. {@code System.err})
     * @param minInterval minimum time between step updates, {@code >= 0}
     */
    public ConsoleProgress(PrintStream out, Duration minInterval) {
        this(out, minInterval, false);
    }

    private ConsoleProgress(PrintStream out, Duration minInterval, boolean plain) {
        this.out = Checks.notNull("out", out);
        Checks.notNull("minInterval", minInterval);
        Checks.require(!minInterval.isNegative(), "minInterval must be >= 0, got %s", minInterval);
        this.minIntervalNanos = minInterval.toNanos();
        this.plain = plain;
    }

    /**
     * Plain lines for a log file or a pipe: one line per epoch end, at most every {@code minInterval} (e.g. 5 s),
     * and the final summary; no carriage returns.
     */
    public static ConsoleProgress plain(PrintStream out, Duration minInterval) {
        return new ConsoleProgress(out, minInterval, true);
    }

    @Override
    public void onStep(Progress p) {
        if (plain) {
            return;
        }
        long now = System.nanoTime();
        if (lastPrint != Long.MIN_VALUE && now - lastPrint < minIntervalNanos) {
            return;
        }
        lastPrint = now;
        print(format(p));
    }

    @Override
    public void onEpochEnd(Progress p) {
        long now = System.nanoTime();
        if (plain) {
            if (lastPrint == Long.MIN_VALUE || now - lastPrint >= minIntervalNanos || p.epoch() == p.maxEpochs()) {
                lastPrint = now;
                out.println(format(p));
                out.flush();
            }
            return;
        }
        lastPrint = now;
        print(format(p));
    }

    /** Prints {@code "warning: " + message} on a line of its own. */
    @Override
    public void onWarning(String message) {
        if (lastLength > 0) {
            out.print('\n');
            lastLength = 0;
        }
        out.println("warning: " + message);
        out.flush();
    }

    @Override
    public void onFinish(TrainingResult r) {
        if (plain) {
            out.println(r.message());
            out.flush();
            return;
        }
        print(r.message());
        out.print('\n');
        out.flush();
        lastLength = 0;
    }

    /** The display text of one report (without the carriage return). */
    static String format(Progress p) {
        StringBuilder s = new StringBuilder(96);
        s.append(String.format(Locale.ROOT, "epoch %d/%d  step %d/%d  loss %.5g", p.epoch(), p.maxEpochs(), p.step(),
                p.stepsPerEpoch(), p.trainLoss()));
        if (!Double.isNaN(p.validationLoss())) {
            s.append(String.format(Locale.ROOT, "  val %.5g", p.validationLoss()));
        }
        if (p.bestEpoch() > 0) {
            s.append(String.format(Locale.ROOT, "  best %.5g @%d", p.bestValidationLoss(), p.bestEpoch()));
        }
        s.append(String.format(Locale.ROOT, "  %.1fs", p.elapsed().toMillis() / 1000.0));
        return s.toString();
    }

    private void print(String text) {
        StringBuilder s = new StringBuilder(text.length() + 8).append('\r').append(text);
        for (int i = text.length(); i < lastLength; i++) {
            s.append(' '); // blank out the tail of a longer previous line
        }
        lastLength = text.length();
        out.print(s);
        out.flush();
    }
}
