package io.regheads.app.cli;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.CsvReader;
import io.regheads.core.data.Dataset;
import io.regheads.core.check.Checks;
import io.regheads.heads.model.RegressionModel;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * A saved model and a CSV file of rows with observed targets for it (a picocli mixin of {@code evaluate} and {@code
 * calibrate}): {@code --model}, {@code --data}, {@code --target}, {@code --delimiter}, and their loading. Not
 * thread-safe (picocli fills the fields).
 */
final class ScoredRows {
    @Option(names = "--model", required = true, paramLabel = "FILE", description = "Model file (regheads train "
            + "--save).")
    Path model;

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "CSV file with a header row, rows "
            + "the model did not train on: the model's feature columns by name and the target column.")
    Path data;

    @Option(names = "--target", paramLabel = "NAME", description = "Target column of --data (default: the model's "
            + "target name if the file has it, else the last column).")
    String target;

    @Option(names = "--delimiter", paramLabel = "CHAR", description = "Cell delimiter of --data: one character, or "
            + "'tab' (default: detected).")
    String delimiter;

    /**
     * Checks that both files exist, then loads the model.
     *
     * @throws IllegalArgumentException naming the option whose file is missing, or as {@link RegressionModel#load}
     */
    RegressionModel loadModel() {
        Checks.require(Files.isRegularFile(model), "--model: file not found: %s", model);
        Checks.require(Files.isRegularFile(data), "--data: file not found: %s", data);
        return RegressionModel.load(model);
    }

    /** The rows of {@code --data} with their target column ({@link #targetColumn}). */
    Dataset loadData(RegressionModel m) {
        return CsvLoader.load(data, targetColumn(m), InputData.parseDelimiter(delimiter));
    }

    /**
     * The target column: {@code --target} if given, else the model's own target name if the file has such a
     * column, else null (the last column).
     */
    private String targetColumn(RegressionModel m) {
        if (target != null || m.targetName().isEmpty()) {
            return target;
        }
        try (CsvReader in = CsvReader.open(data, InputData.parseDelimiter(delimiter))) {
            return in.header().contains(m.targetName().get()) ? m.targetName().get() : null;
        }
    }
}
