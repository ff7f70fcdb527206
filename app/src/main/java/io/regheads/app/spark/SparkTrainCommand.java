package io.regheads.app.spark;

import io.regheads.core.check.Checks;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads-spark train}: trains one head on a table spread over the cluster ({@code DataParallelTrainer}) and
 * saves the model, which records the table's column names: {@code regheads predict} and {@code score} find the
 * features by name. Example: {@code train --master local[2] --input train.parquet --features a,b,c --label y --head
 * mdn --partitions 4 --model-out m.rgh}.
 *
 * <p>Options only; the work is {@link SparkJobs#train}. Not thread-safe (one instance per invocation).
 */
@Command(name = "train", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Train one head on a table with synchronous data-parallel training over its partitions and "
                + "save the model (the same file format as regheads train)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the model was trained and saved",
            "1:training failed (diverged or left an unusable model; nothing saved)",
            "2:bad input (input path, column or option), or Spark not on the class path",
            "3:unexpected failure"})
final class SparkTrainCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--input", required = true, paramLabel = "PATH", description = "Training table: CSV with a header "
            + "row when the path ends in .csv, else Parquet.")
    String input;

    @Option(names = "--features", required = true, split = ",", paramLabel = "LIST", description = "Numeric feature "
            + "columns, in the order the model takes them (the model records their names).")
    List<String> features;

    @Option(names = "--label", required = true, paramLabel = "NAME", description = "Numeric label column.")
    String label;

    @Option(names = "--model-out", required = true, paramLabel = "FILE", description = "Where to write the model (a "
            + "path on the driver).")
    Path modelOut;

    @Option(names = "--head", paramLabel = "NAME", defaultValue = "mdn", description = "Head preset: pointwise, "
            + "histogram, mdn, decoder or xval (default: ${DEFAULT-VALUE}); the unnormalized decoder needs an exponent "
            + "range and is not offered here.")
    String head;

    @Option(names = "--epochs", paramLabel = "N", description = "Maximum epochs (default: 300).")
    Integer epochs;

    @Option(names = "--batch-size", paramLabel = "ROWS", description = "Rows per step over all partitions (default: "
            + "128).")
    Integer batchSize;

    @Option(names = "--partition-batch-size", paramLabel = "ROWS", defaultValue = "0", description = "Rows per "
            + "partition and step (default 0: ceil(batch size / partitions)).")
    int partitionBatchSize;

    @Option(names = "--lr", paramLabel = "RATE", description = "AdamW learning rate (default: 0.001).")
    Double learningRate;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of initialisation, holdout and shuffles "
            + "(default: 0).")
    Long seed;

    @Option(names = "--validation", paramLabel = "FRACTION", description = "Share of each partition's rows held out "
            + "for early stopping and the head's after-fit step (default: 0.1).")
    Double validation;

    @Option(names = "--patience", paramLabel = "N", description = "Epochs without a better validation loss before "
            + "stopping (default: 5).")
    Integer patience;

    @Option(names = "--partitions", paramLabel = "N", description = "Repartition the input into N partitions first "
            + "(default: as read; balanced partitions train best).")
    Integer partitions;

    @Option(names = "--quiet", description = "No line per epoch.")
    boolean quiet;

    @Option(names = "--master", paramLabel = "URL", description = "Spark master outside spark-submit, e.g. local[2].")
    String master;

    @Override
    public Integer call() {
        SparkClassPath.require("train");
        if (partitions != null) {
            Checks.atLeast("--partitions", partitions, 1);
        }
        Checks.require(!head.contains(","), "--head names one head, got '%s'", head);
        SparkJobs.train(this, spec.commandLine().getOut());
        return SparkMain.EXIT_OK;
    }
}
