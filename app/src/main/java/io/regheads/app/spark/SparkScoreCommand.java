package io.regheads.app.spark;

import io.regheads.core.check.Checks;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads-spark score}: scores a table with a saved model ({@code RegressionModelScorer}) and writes it with
 * the predictive columns appended. Example: {@code score --master local[2] --model m.rgh --input table.parquet
 * --output scored.parquet --quantiles 0.05,0.95 --label y --partitions 8}.
 *
 * <p>Options only; the work is {@link SparkJobs#score}. Not thread-safe (one instance per invocation).
 */
@Command(name = "score", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Score a table with a saved model (regheads train --save, or regheads-spark train): append the "
                + "predictive mean, median, chosen quantiles, a central interval and the log density of a label "
                + "column to every row."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every row scored and written",
            "2:bad input (model file, input path, column or option), or Spark not on the class path",
            "3:unexpected failure"})
final class SparkScoreCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "FILE", description = "Model file (a path on the "
            + "driver; in cluster deploy mode ship it with spark-submit --files).")
    Path model;

    @Option(names = "--input", required = true, paramLabel = "PATH", description = "Table to score: CSV with a header "
            + "row when the path ends in .csv, else Parquet; any path Spark reads (hdfs://, s3a://, file:).")
    String input;

    @Option(names = "--output", required = true, paramLabel = "PATH", description = "Where to write the scored table "
            + "(replaced): CSV with one quantile_<level> column per level when the path ends in .csv, else Parquet "
            + "(quantiles as an array column).")
    String output;

    @Option(names = "--features", split = ",", paramLabel = "LIST", description = "Feature columns (default: the "
            + "columns the model was trained on, found by name; a model without names needs them, in its input "
            + "order).")
    List<String> features;

    @Option(names = "--label", paramLabel = "NAME", description = "Label column: adds log_density, the natural log "
            + "density of its value (null where it is null or not finite).")
    String label;

    @Option(names = "--quantiles", split = ",", paramLabel = "LIST", description = "Quantile levels in (0, 1), e.g. "
            + "0.05,0.5,0.95.")
    List<Double> quantiles;

    @Option(names = "--interval", paramLabel = "C", description = "Coverage in (0, 1) of a central interval: adds "
            + "lower and upper, the (1-C)/2 and (1+C)/2 quantiles.")
    Double interval;

    @Option(names = "--batch-size", paramLabel = "ROWS", defaultValue = "4096", description = "Rows per prediction "
            + "call within a partition (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--partitions", paramLabel = "N", description = "Repartition the input into N partitions before "
            + "scoring (default: as read): more tasks than the input's files give, to use every executor core.")
    Integer partitions;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master outside spark-submit, e.g. local[2] "
            + "(spark-submit sets it otherwise).")
    String master;

    @Override
    public Integer call() {
        SparkClassPath.require("score");
        if (partitions != null) {
            Checks.atLeast("--partitions", partitions, 1);
        }
        Checks.atLeast("--batch-size", batchSize, 1);
        SparkJobs.score(this, spec.commandLine().getOut());
        return SparkMain.EXIT_OK;
    }
}
