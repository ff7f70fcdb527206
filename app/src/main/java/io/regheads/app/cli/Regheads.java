package io.regheads.app.cli;

import io.regheads.app.experiments.BbobCommand;
import io.regheads.app.experiments.CurveFitCommand;
import io.regheads.app.experiments.DataEfficiencyCommand;
import io.regheads.app.experiments.DecoderSizeCommand;
import io.regheads.app.experiments.DensityCommand;
import io.regheads.app.experiments.HammingCommand;
import io.regheads.app.experiments.RepeatMeanCommand;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code regheads} command line ({@code ./regheads} at the repository root runs it).
 *
 * <p>Subcommands: {@code compare} ({@link CompareCommand}), {@code uci} ({@link UciCommand}), {@code risk}
 * ({@link RiskCommand}) and {@code curves}
 * ({@link CurvesCommand}); the decoding paper's other experiments are in {@code io.regheads.app.experiments}
 * ({@code density}, {@code curve-fit}, {@code bbob}, {@code data-efficiency}, {@code hamming}, {@code decoder-size},
 * {@code repeat-mean}). Exit codes: 0 on
 * success; 2 for bad input (a missing or malformed CSV, a constant target, fewer than 10 rows, a bad option value),
 * reported as ONE line {@code regheads: <message>} on stderr without a stack trace; 1 for an unexpected failure (also
 * one line; set the environment variable {@code REGHEADS_DEBUG=1} for the stack trace).
 *
 * <p>Example (in-process, as the tests do): {@code Regheads.execute(new String[] {"compare", "--epochs", "2"}, out,
 * err)}.
 */
@Command(name = "regheads", mixinStandardHelpOptions = true, version = "regheads 0.1.0-SNAPSHOT",
        description = "Numeric regression heads: train, compare and plot them on tabular data.",
        subcommands = {CompareCommand.class, UciCommand.class, CurvesCommand.class, RiskCommand.class, RepeatCommand.class, ArithCommand.class,
            DensityCommand.class, CurveFitCommand.class, BbobCommand.class, DataEfficiencyCommand.class, HammingCommand.class,
            DecoderSizeCommand.class, RepeatMeanCommand.class,
            CommandLine.HelpCommand.class})
public final class Regheads implements Runnable {
    /** Exit code for bad input. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an unexpected failure. */
    public static final int EXIT_FAILURE = 1;

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
     * @return the exit code (0 success, 1 failure, 2 bad input)
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return commandLine(out, err).execute(args);
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
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            boolean badInput = ex instanceof IllegalArgumentException || ex instanceof UncheckedIOException;
            String msg = ex.getMessage() == null ? ex.getClass().getName() : ex.getMessage();
            c.getErr().println("regheads: " + (badInput ? "" : "failed: " + ex.getClass().getSimpleName() + ": ")
                    + msg.replace('\n', ' '));
            if ("1".equals(System.getenv("REGHEADS_DEBUG"))) {
                ex.printStackTrace(c.getErr());
            }
            c.getErr().flush();
            return badInput ? EXIT_BAD_INPUT : EXIT_FAILURE;
        });
        return cl;
    }
}
