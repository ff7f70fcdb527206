package io.regheads.app.cli;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.CsvReader;
import io.regheads.core.data.Dataset;
import io.regheads.core.internal.Checks;
import io.regheads.core.metrics.Evaluation;
import io.regheads.heads.model.RegressionModel;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads evaluate}: scores a saved model on a CSV file with observed targets ({@link
 * RegressionModel#evaluate}): mean NLL and CRPS, RMSE and MAE of the point prediction, coverage and mean width of the
 * central intervals, and the PIT histogram, in the units of y. The feature columns are matched to the model's by
 * name; the target column is {@code --target}, else the model's own target name, else the last column.
 *
 * <p>Example: {@code regheads evaluate --model m.rgh --data test.csv --levels 0.8,0.9}. Exit codes: 0 scored; 2 bad
 * input; 3 an unexpected failure.
 *
 * <p>Not thread-safe (one instance per invocation, as picocli makes it).
 */
@Command(name = "evaluate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Score a saved model on a CSV file with observed targets: NLL, CRPS, RMSE, MAE, interval "
                + "coverage and width, PIT histogram."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:scored", "2:bad input (model file, data or option)", "3:unexpected failure or out of memory"})
final class EvaluateCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "FILE", description = "Model file (regheads train "
            + "--save).")
    Path model;

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "CSV file with a header row: the "
            + "model's feature columns by name and the target column.")
    Path data;

    @Option(names = "--target", paramLabel = "NAME", description = "Target column of --data (default: the model's "
            + "target name if the file has it, else the last column).")
    String target;

    @Option(names = "--delimiter", paramLabel = "CHAR", description = "Cell delimiter of --data: one character, or "
            + "'tab' (default: detected).")
    String delimiter;

    @Option(names = "--levels", paramLabel = "LIST", defaultValue = "0.5,0.8,0.9,0.95",
            description = "Central-interval levels in (0, 1), comma-separated (default: ${DEFAULT-VALUE}).")
    String levels;

    @Option(names = "--json", description = "Print the scores as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        double[] lv = PredictCommand.parseLevels(levels);
        Checks.require(lv.length > 0, "--levels must list at least one level, got '%s'", levels);
        Checks.require(Files.isRegularFile(model), "--model: file not found: %s", model);
        Checks.require(Files.isRegularFile(data), "--data: file not found: %s", data);
        RegressionModel m = RegressionModel.load(model);
        Dataset d = CsvLoader.load(data, targetColumn(m, data, target, delimiter), InputData.parseDelimiter(delimiter));
        Evaluation e = m.evaluate(d, lv);
        if (json) {
            o.println(json(e, d));
        } else {
            o.printf(Locale.ROOT, "%s on %s: %d rows, target '%s'%n", model.getFileName(), data, e.rows(),
                    d.targetName());
            o.printf(Locale.ROOT, "  NLL %s   CRPS %s   RMSE %s   MAE %s%n", g(e.nll()), g(e.crps()), g(e.rmse()),
                    g(e.mae()));
            double[] l = e.levels();
            for (int i = 0; i < l.length; i++) {
                o.printf(Locale.ROOT, "  central %s%% interval: coverage %.3f, mean width %s%n",
                        Evaluation.label(l[i]), e.coverage()[i], g(e.meanWidth()[i]));
            }
            o.printf(Locale.ROOT, "  PIT histogram (10 bins of [0, 1]; flat when calibrated): %s%n",
                    java.util.Arrays.toString(e.pitCounts()));
        }
        o.flush();
        return Regheads.EXIT_OK;
    }

    /**
     * The target column of a file scored with a model: {@code target} if given, else the model's own target name if
     * the file has such a column, else null (the last column).
     */
    static String targetColumn(RegressionModel m, Path data, String target, String delimiter) {
        if (target != null || m.targetName().isEmpty()) {
            return target;
        }
        try (CsvReader in = CsvReader.open(data, InputData.parseDelimiter(delimiter))) {
            return in.header().contains(m.targetName().get()) ? m.targetName().get() : null;
        }
    }

    private static String g(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }

    private String json(Evaluation e, Dataset d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model", model.toString());
        m.put("data", data.toString());
        m.put("target", d.targetName());
        m.put("rows", e.rows());
        m.put("nll", e.nll());
        m.put("crps", e.crps());
        m.put("rmse", e.rmse());
        m.put("mae", e.mae());
        m.put("levels", e.levels());
        m.put("coverage", e.coverage());
        m.put("meanWidth", e.meanWidth());
        m.put("pitCounts", e.pitCounts());
        return Json.write(m);
    }
}
