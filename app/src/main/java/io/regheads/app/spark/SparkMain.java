package io.regheads.app.spark;

import io.regheads.core.train.TrainingFailedException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The Spark command line, for {@code spark-submit --class io.regheads.app.spark.SparkMain} (the assembly jar's main
 * class) and {@code scripts/spark-local}: {@code score} ({@link SparkScoreCommand}), {@code train} ({@link
 * SparkTrainCommand}), {@code uci} ({@link SparkUciCommand}) and {@code throughput} ({@link ThroughputCommand}); {@code
 * --help} on the whole and on each command lists the options.
 *
 * <p>Spark is not part of the command line's class path ({@code ./regheads} runs without it): these commands need it
 * supplied, by spark-submit on a cluster or by {@code scripts/spark-local}. Without it a command fails with one line
 * saying so (exit code 2); {@code --help} works either way. This class and the commands' option classes refer to no
 * Spark type; the Spark work is in {@link SparkJobs}, loaded only after the check.
 *
 * <p>Exit codes as {@code regheads}: 0 success; 1 training failed (diverged or left an unusable model; nothing
 * saved); 2 bad input (a file, column or option; Spark missing); 3 an unexpected failure. Errors are one line {@code
 * regheads-spark: <message>} on stderr ({@code REGHEADS_DEBUG=1} adds the stack trace).
 *
 * <p>Example (in-process, as the tests run it): {@code SparkMain.execute(new String[] {"score", "--master",
 * "local[2]", "--model", "m.rgh", "--input", "in.csv", "--output", "out.parquet"}, out, err)}.
 */
@Command(name = "regheads-spark", mixinStandardHelpOptions = true, version = "regheads-spark 0.1.0-SNAPSHOT",
        description = {"regheads on Apache Spark: score tables with a saved model, train one over a cluster's "
                + "partitions, and run experiment grids as Spark tasks.",
            "Run it with spark-submit (--class io.regheads.app.spark.SparkMain, the assembly jar) or locally with "
                + "scripts/spark-local; see docs/spark.md."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success",
            "1:training failed (diverged or left an unusable model; nothing saved)",
            "2:bad input (file, column or option), or Spark not on the class path",
            "3:unexpected failure"},
        footer = {"%nInputs ending in .csv are read as CSV with a header row, anything else as Parquet. Outside "
                + "spark-submit give --master (e.g. local[2]).",
            "Errors are one line on stderr; REGHEADS_DEBUG=1 adds the stack trace."},
        subcommands = {SparkScoreCommand.class, SparkTrainCommand.class, SparkUciCommand.class, ThroughputCommand.class,
            CommandLine.HelpCommand.class})
public final class SparkMain implements Runnable {
    /** Exit code on success. */
    public static final int EXIT_OK = 0;
    /** Exit code when training failed. */
    public static final int EXIT_TRAINING_FAILED = 1;
    /** Exit code for bad input, Spark missing included. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an unexpected failure. */
    public static final int EXIT_FAILURE = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Runs the command line and exits the JVM with its exit code when it is not 0. */
    public static void main(String[] args) {
        int code = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (code != EXIT_OK) {
            System.exit(code);
        }
    }

    /**
     * Runs the command line with {@code args}, writing results to {@code out} and errors to {@code err}.
     *
     * @return the exit code (see the class description)
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new SparkMain());
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("regheads-spark: " + ex.getMessage() + " (see '" + c.getCommandSpec().qualifiedName()
                    + " --help')");
            c.getErr().flush();
            return EXIT_BAD_INPUT;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> report(ex, c.getErr()));
        return cl.execute(args);
    }

    /** Prints the one line for a failure and returns its exit code. */
    static int report(Exception ex, PrintWriter err) {
        int code;
        if (ex instanceof TrainingFailedException) {
            err.println("regheads-spark: " + oneLine(ex));
            code = EXIT_TRAINING_FAILED;
        } else if (ex instanceof IllegalArgumentException || ex instanceof UncheckedIOException || isAnalysisError(ex)) {
            err.println("regheads-spark: " + oneLine(ex));
            code = EXIT_BAD_INPUT;
        } else {
            err.println("regheads-spark: failed: " + ex.getClass().getSimpleName() + ": " + oneLine(ex));
            code = EXIT_FAILURE;
        }
        if ("1".equals(System.getenv("REGHEADS_DEBUG"))) {
            ex.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /**
     * Spark's {@code AnalysisException} (a missing input path or column): bad input. By class name, so that this
     * class refers to no Spark type.
     */
    private static boolean isAnalysisError(Exception ex) {
        for (Class<?> c = ex.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals("org.apache.spark.sql.AnalysisException")) {
                return true;
            }
        }
        return false;
    }

    private static String oneLine(Throwable t) {
        String msg = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
        return msg.strip().replace('\n', ' ');
    }
}
