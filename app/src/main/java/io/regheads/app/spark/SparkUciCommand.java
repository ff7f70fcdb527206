package io.regheads.app.spark;

import io.regheads.app.cli.Regheads;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code regheads-spark uci}: {@code regheads uci} with its fits as Spark tasks ({@code regheads uci --spark}), for
 * spark-submit: every option is passed on to {@code regheads uci}, with {@code --spark} added unless given (then the
 * master is spark-submit's). Example: {@code uci --spark local[2] --datasets yacht --folds 0-1 --heads mdn}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "uci", mixinStandardHelpOptions = true,
        description = {"regheads uci with each fit one Spark task: the options of regheads uci ('./regheads uci --help' "
                + "lists them), with --spark added unless given (--spark MASTER for a run outside spark-submit, e.g. "
                + "--spark local[2]). Same table as ./regheads uci at the same ND4J thread setting."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every fit trained", "1:training failed for some head (marked FAILED)",
            "2:bad input, or Spark not on the class path", "3:unexpected failure or out of memory"})
final class SparkUciCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The options of {@code regheads uci}, as given. */
    @CommandLine.Unmatched
    List<String> options = new ArrayList<>();

    @Override
    public Integer call() {
        SparkClassPath.require("uci");
        List<String> args = new ArrayList<>();
        args.add("uci");
        if (options.stream().noneMatch(a -> a.equals("--spark") || a.startsWith("--spark="))) {
            args.add("--spark");
        }
        args.addAll(options);
        return Regheads.execute(args.toArray(String[]::new), spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
