package io.regheads.app.cli;

import io.regheads.core.data.Dataset;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Evaluation;
import io.regheads.heads.model.RegressionModel;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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

    @Mixin
    ScoredRows rows;





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
        RegressionModel m = rows.loadModel();
        Dataset d = rows.loadData(m);
        Evaluation e = m.evaluate(d, lv);
        if (json) {
            o.println(json(e, d));
        } else {
            o.printf(Locale.ROOT, "%s on %s: %d rows, target '%s'%n", rows.model.getFileName(), rows.data, e.rows(),
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

    private static String g(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }

    private String json(Evaluation e, Dataset d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model", rows.model.toString());
        m.put("data", rows.data.toString());
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
