package io.regheads.app.cli;

import io.regheads.core.data.Dataset;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Calibration;
import io.regheads.core.metrics.Evaluation;
import io.regheads.heads.model.ConformalIntervals;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.model.ScoringRule;
import io.regheads.heads.model.TemperatureCalibration;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code regheads calibrate}: calibrates a model on rows it did not train on and saves it: a temperature for the
 * sharpness of its distributions ({@link RegressionModel#calibrateTemperature}, by NLL or CRPS; heads whose
 * distribution takes none, the decoders, skip it) on half of the rows (a seeded split), then split-conformal central
 * intervals ({@link ConformalIntervals}) on the other half, for {@code predict --interval L --conformal}; with
 * {@code --temperature none}, the intervals on all the rows. Prints the temperature and, per level, the offset and
 * the coverage of the model's own intervals on those rows.
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

    @Mixin
    ScoredRows rows;





    @Option(names = "--levels", paramLabel = "LIST", defaultValue = "0.5,0.8,0.9,0.95",
            description = "Interval levels in (0, 1), increasing (default: ${DEFAULT-VALUE}).")
    String levels;

    @Option(names = "--temperature", paramLabel = "NLL|CRPS|none", defaultValue = "NLL",
            description = "Fit a temperature by this score on half of the rows, the intervals on the other half; none: "
                    + "intervals only, on all rows (default: ${DEFAULT-VALUE}).")
    String temperature;

    @Option(names = "--save", required = true, paramLabel = "FILE", description = "Where to write the calibrated "
            + "model (may be --model itself).")
    Path save;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        double[] lv = PredictCommand.parseLevels(levels);
        Checks.require(lv.length > 0, "--levels must list at least one level, got '%s'", levels);
        RegressionModel m = rows.loadModel();
        Dataset d = rows.loadData(m);
        Dataset forIntervals = d;
        String rule = temperature.toUpperCase(Locale.ROOT);
        Checks.require(rule.equals("NLL") || rule.equals("CRPS") || rule.equals("NONE"), "--temperature must be NLL, "
                + "CRPS or none, got '%s'", temperature);
        if (!rule.equals("NONE") && !m.takesTemperature()) {
            o.printf(Locale.ROOT, "note: the %s head's distribution takes no temperature; only the intervals are "
                    + "calibrated%n", m.config().head().kind().name());
        } else if (!rule.equals("NONE")) {
            int[] order = org.apache.commons.rng.sampling.PermutationSampler.natural(d.rows());
            org.apache.commons.rng.sampling.PermutationSampler.shuffle(
                    org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(7), order);
            int half = d.rows() / 2;
            TemperatureCalibration t = m.calibrateTemperature(d.subset(order, 0, half), ScoringRule.valueOf(rule));
            forIntervals = d.subset(order, half, d.rows() - half);
            o.printf(Locale.ROOT, "%s (the other %d rows calibrate the intervals)%n", t, forIntervals.rows());
        }
        ConformalIntervals c = m.calibrateIntervals(forIntervals, lv);
        m.save(save);
        o.printf(Locale.ROOT, "conformal intervals on %d rows of %s (target '%s'); saved %s%n", c.rows(), rows.data,
                d.targetName(), save);
        double[] levelsFitted = c.levels();
        double[] offsets = c.offsets();
        for (int i = 0; i < levelsFitted.length; i++) {
            double own = Calibration.centralIntervalCoverage(m.predict(forIntervals), forIntervals.y(),
                    levelsFitted[i]);
            o.printf(Locale.ROOT, "  %s%%: the model's own intervals covered %.3f of these rows; widened by %.4g on "
                    + "each side%n", Evaluation.label(levelsFitted[i]), own, offsets[i]);
        }
        o.flush();
        return Regheads.EXIT_OK;
    }
}
