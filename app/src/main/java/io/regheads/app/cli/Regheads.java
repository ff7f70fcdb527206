package io.regheads.app.cli;

import io.regheads.app.experiments.BbobCommand;
import io.regheads.app.experiments.CurveFitCommand;
import io.regheads.app.experiments.DataEfficiencyCommand;
import io.regheads.app.experiments.DecoderSizeCommand;
import io.regheads.app.experiments.DensityCommand;
import io.regheads.app.experiments.HammingCommand;
import io.regheads.app.experiments.RepeatMeanCommand;
import io.regheads.app.experiments.ScoringRulesCommand;
import io.regheads.core.train.TrainingFailedException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code regheads} command line ({@code ./regheads} at the repository root runs it).
 *
 * <p>Subcommands: {@code compare} ({@link CompareCommand}), {@code train} ({@link TrainCommand}), {@code predict}
 * ({@link PredictCommand}), {@code settings} ({@link SettingsCommand}), {@code evaluate} ({@link EvaluateCommand}), {@code calibrate} ({@link CalibrateCommand}), {@code uci} ({@link UciCommand}), {@code risk}
 * ({@link RiskCommand}) and {@code curves}
 * ({@link CurvesCommand}); the decoding paper's other experiments are in {@code io.regheads.app.experiments}
 * ({@code density}, {@code curve-fit}, {@code bbob}, {@code data-efficiency}, {@code hamming}, {@code decoder-size},
 * {@code repeat-mean}). Exit codes:
 * <ul>
 *   <li>{@value #EXIT_OK}: success (every head trained; {@code predict}: every row scored);</li>
 *   <li>{@value #EXIT_HEAD_FAILED}: the command ran to the end, but training failed for at least one head (it
 *       diverged or left an unusable model, e.g. at a too large learning rate); those heads are marked
 *       {@code FAILED} in the output, the others are reported as usual;</li>
 *   <li>{@value #EXIT_BAD_INPUT}: bad input (a missing or malformed CSV, a constant target, fewer than 10 rows, a bad
 *       option value);</li>
 *   <li>{@value #EXIT_FAILURE}: an unexpected failure, or out of memory (the line names {@code REGHEADS_HEAP}, the
 *       launcher's heap setting).</li>
 * </ul>
 * Errors are ONE line {@code regheads: <message>} on stderr, without a stack trace (set the environment variable
 * {@code REGHEADS_DEBUG=1} for one).
 *
 * <p>Example (in-process, as the tests do): {@code Regheads.execute(new String[] {"compare", "--epochs", "2"}, out,
 * err)}.
 */
@Command(name = "regheads", mixinStandardHelpOptions = true, version = "regheads 0.1.0-SNAPSHOT",
        description = "Numeric regression heads: train, compare and plot them on tabular data.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success (every head trained; predict: every row scored)",
            "1:training failed for some head (marked FAILED in the output; the other heads ran)",
            "2:bad input (file, data or option)",
            "3:unexpected failure or out of memory (more heap: REGHEADS_HEAP=8g)"},
        footer = {"%nErrors are one line on stderr; REGHEADS_DEBUG=1 adds the stack trace."},
        subcommands = {CompareCommand.class, TrainCommand.class, PredictCommand.class, SettingsCommand.class,
            EvaluateCommand.class, CalibrateCommand.class, UciCommand.class, CurvesCommand.class, RiskCommand.class, RepeatCommand.class, ArithCommand.class,
            DensityCommand.class, CurveFitCommand.class, BbobCommand.class, DataEfficiencyCommand.class, HammingCommand.class,
            DecoderSizeCommand.class, RepeatMeanCommand.class, ScoringRulesCommand.class,
            DefaultsCommand.class,
            CommandLine.HelpCommand.class})
public final class Regheads implements Runnable {
    /** Exit code when everything trained. */
    public static final int EXIT_OK = 0;
    /** Exit code when the command completed but training failed for at least one head. */
    public static final int EXIT_HEAD_FAILED = 1;
    /** Exit code for bad input. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an unexpected failure, out of memory included. */
    public static final int EXIT_FAILURE = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command line and exits the JVM with its exit code. */
    public static void main(String[] args) {
        int code = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        System.exit(code);
    }

    /**
     * Runs the command line with {@code args}, writing results to {@code out} and errors to {@code err}.
     *
     * @return the exit code (see the class description)
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        try {
            return commandLine(out, err).execute(args);
        } catch (OutOfMemoryError e) { // an Error passes picocli's handlers
            return report(e, err);
        }
    }

    /**
     * Prints the one line for a failure and returns its exit code (see the class description); the stack trace
     * only with {@code REGHEADS_DEBUG=1}.
     */
    static int report(Throwable ex, PrintWriter err) {
        OutOfMemoryError oom = outOfMemory(ex);
        int code;
        if (oom != null) {
            // a heap or native (javacpp) allocation: both limits follow -Xmx, which REGHEADS_HEAP sets
            err.println(String.format(java.util.Locale.ROOT, "regheads: out of memory (%s) with a Java heap of %d MiB; "
                    + "run with more, e.g. REGHEADS_HEAP=8g ./regheads ..., or use fewer rows, folds or heads",
                    oneLine(oom), Runtime.getRuntime().maxMemory() >> 20));
            code = EXIT_FAILURE;
        } else if (ex instanceof HeadRun.FailedRun || ex instanceof TrainingFailedException) {
            err.println("regheads: " + oneLine(ex));
            code = EXIT_HEAD_FAILED;
        } else if (ex instanceof IllegalArgumentException || ex instanceof UncheckedIOException) {
            err.println("regheads: " + oneLine(ex));
            code = EXIT_BAD_INPUT;
        } else {
            err.println("regheads: failed: " + ex.getClass().getSimpleName() + ": " + oneLine(ex));
            code = EXIT_FAILURE;
        }
        if ("1".equals(System.getenv("REGHEADS_DEBUG"))) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    private static String oneLine(Throwable t) {
        String msg = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
        return msg.replace('\n', ' ');
    }

    /** The OutOfMemoryError in {@code t}'s cause chain (also behind an initializer error), or null. */
    private static OutOfMemoryError outOfMemory(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof OutOfMemoryError o) {
                return o;
            }
        }
        return null;
    }

    /** The configured picocli command line (one-line error handlers installed). */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Regheads());
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("regheads: " + ex.getMessage() + " (see '" + c.getCommandSpec().qualifiedName() + " --help')");
            c.getErr().flush();
            return EXIT_BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> report(ex, c.getErr()));
        return cl;
    }
}
