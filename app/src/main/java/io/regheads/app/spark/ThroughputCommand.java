package io.regheads.app.spark;

import io.regheads.core.check.Checks;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads-spark throughput}: scoring rows per second of {@code RegressionModelScorer} against single-JVM
 * {@code predict} over the same batches, with a same-numbers check ({@link ScoringThroughput}).
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "throughput", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Scoring throughput: the Spark scorer on a cached table against single-JVM predict over the "
                + "same batches, and whether they give the same numbers; prints the figures with their provenance."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:measured", "2:bad option, or Spark not on the class path", "3:unexpected failure"})
final class ThroughputCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--rows", paramLabel = "N", defaultValue = "1000000", description = "Rows (>= 1000; default: "
            + "${DEFAULT-VALUE}).")
    int rows;

    @Option(names = "--features", paramLabel = "D", defaultValue = "8", description = "Features (default: "
            + "${DEFAULT-VALUE}).")
    int features;

    @Option(names = "--partitions", paramLabel = "K", description = "Partitions (default: Spark's default "
            + "parallelism).")
    Integer partitions;

    @Option(names = "--batch-size", paramLabel = "ROWS", defaultValue = "4096", description = "Rows per prediction "
            + "call (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--repeats", paramLabel = "N", defaultValue = "3", description = "Timed runs of each (default: "
            + "${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--head", paramLabel = "NAME", defaultValue = "mdn", description = "Head preset (default: "
            + "${DEFAULT-VALUE}).")
    String head;

    @Option(names = "--outputs", paramLabel = "mean|all", defaultValue = "mean", description = "mean: mean and log "
            + "density; all: also the median and the 5% and 95% quantiles (default: ${DEFAULT-VALUE}).")
    String outputs;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master outside spark-submit, e.g. local[2].")
    String master;

    @Override
    public Integer call() {
        SparkClassPath.require("throughput");
        Checks.require(outputs.equals("mean") || outputs.equals("all"), "--outputs must be mean or all, got '%s'",
                outputs);
        SparkJobs.throughput(this, spec.commandLine().getOut());
        return SparkMain.EXIT_OK;
    }
}
