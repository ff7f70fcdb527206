package io.regheads.app.cli;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.internal.Checks;
import io.regheads.core.metrics.Calibration;
import io.regheads.core.metrics.Evaluation;
import io.regheads.heads.model.ConformalIntervals;
import io.regheads.heads.model.RegressionModel;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads calibrate}: fits split-conformal central intervals ({@link ConformalIntervals}) on rows the model
 * did not train on and saves the model with them, for {@code predict --interval L --conformal}. Prints, per level,
 * the offset and the coverage of the model's own intervals on those rows.
 *
 * <p>Example: {@code regheads calibrate --model m.rgh --data heldout.csv --save m-cal.rgh}. Exit codes: 0 saved; 2
 * bad input (too few rows for a level among them); 3 an unexpected failure.
 *
 * <p>Not thread-safe (one instance per invocation, as picocli makes it).
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fit conformal prediction intervals on held-out rows (not used in training) and save the "
                + "model with them, for 'predict --interval L --conformal'."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:saved", "2:bad input (model file, data or option)", "3:unexpected failure or out of memory"})
final class CalibrateCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "FILE", description = "Model file (regheads train "
            + "--save).")
    Path model;

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "CSV file of held-out rows with "
            + "observed targets: the model's feature columns by name and the target column.")
    Path data;

    @Option(names = "--target", paramLabel = "NAME", description = "Target column of --data (default: the model's "
            + "target name if the file has it, else the last column).")
    String target;

    @Option(names = "--delimiter", paramLabel = "CHAR", description = "Cell delimiter of --data: one character, or "
            + "'tab' (default: detected).")
    String delimiter;

    @Option(names = "--levels", paramLabel = "LIST", defaultValue = "0.5,0.8,0.9,0.95",
            description = "Interval levels in (0, 1), increasing (default: ${DEFAULT-VALUE}).")
    String levels;

    @Option(names = "--save", required = true, paramLabel = "FILE", description = "Where to write the calibrated "
            + "model (may be --model itself).")
    Path save;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        double[] lv = PredictCommand.parseLevels(levels);
        Checks.require(lv.length > 0, "--levels must list at least one level, got '%s'", levels);
        Checks.require(Files.isRegularFile(model), "--model: file not found: %s", model);
        Checks.require(Files.isRegularFile(data), "--data: file not found: %s", data);
        RegressionModel m = RegressionModel.load(model);
        Dataset d = CsvLoader.load(data, EvaluateCommand.targetColumn(m, data, target, delimiter),
                InputData.parseDelimiter(delimiter));
        ConformalIntervals c = m.calibrateIntervals(d, lv);
        m.save(save);
        o.printf(Locale.ROOT, "conformal intervals on %d rows of %s (target '%s'); saved %s%n", c.rows(), data,
                d.targetName(), save);
        double[] levelsFitted = c.levels();
        double[] offsets = c.offsets();
        for (int i = 0; i < levelsFitted.length; i++) {
            double own = Calibration.centralIntervalCoverage(m.predict(d), d.y(), levelsFitted[i]);
            o.printf(Locale.ROOT, "  %s%%: the model's own intervals covered %.3f of these rows; widened by %.4g on "
                    + "each side%n", Evaluation.label(levelsFitted[i]), own, offsets[i]);
        }
        o.flush();
        return Regheads.EXIT_OK;
    }
}
