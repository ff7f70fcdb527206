package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.RepeatMeanExperiment.Curve;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.knowm.xchart.XYChart;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads repeat-mean}: repetition on unnormalized tokens with mean aggregation (the decoding paper's Fig.
 * 10), see {@link RepeatMeanExperiment}. Prints the relative MSE of the n-sample mean per dataset and repetition
 * count, and the share of far-off samples; writes {@code repeat-mean.png} (one panel per dataset, relative MSE
 * against n on log axes, one line per r) and {@code repeat-mean.json}.
 *
 * <p>Example: {@code regheads repeat-mean --datasets-dir datasets --datasets airfoil,concrete --repeats 1,2,3}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "repeat-mean", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Fig. 10: unnormalized decoder on raw y with its tokens repeated r times "
                + "(majority vote per sample), relative MSE of the mean of n samples as n grows.")
public final class RepeatMeanCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DatasetOptions datasetOptions;

    @Option(names = "--repeats", paramLabel = "LIST", defaultValue = "1,2,3",
            description = "Repetition counts r (default: ${DEFAULT-VALUE}).")
    String repeats;

    @Option(names = "--tokens", paramLabel = "B,E,M", defaultValue = "10,1,3",
            description = "Base, exponent digits, mantissa digits (default: ${DEFAULT-VALUE}).")
    String tokens;

    @Option(names = "--train", paramLabel = "N", defaultValue = "2000", description = "Most training rows "
            + "(default: ${DEFAULT-VALUE}).")
    int train;

    @Option(names = "--test", paramLabel = "N", defaultValue = "500", description = "Most test rows "
            + "(default: ${DEFAULT-VALUE}).")
    int test;

    @Option(names = "--max-samples", paramLabel = "N", defaultValue = "64", description = "Largest n "
            + "(default: ${DEFAULT-VALUE}).")
    int maxSamples;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "300", description = "Epoch limit "
            + "(default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--patience", paramLabel = "P", defaultValue = "20", description = "Early stopping: epochs without "
            + "a better loss on 10%% of the training rows (default: ${DEFAULT-VALUE}).")
    int patience;

    @Option(names = "--width", paramLabel = "W", defaultValue = "256", description = "Encoder width, 2 layers "
            + "(default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "Training subsets (seeds) per "
            + "dataset; the table gives the mean and standard deviation over runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "First seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/repeat-mean-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<InputData> data = datasetOptions.load();
        List<Integer> bem = Experiments.parseInts("--tokens", tokens);
        if (bem.size() != 3) {
            throw new IllegalArgumentException("--tokens must be base,exponent digits,mantissa digits such as 10,1,3, got '"
                    + tokens + "'");
        }
        RepeatMeanExperiment.Config c = new RepeatMeanExperiment.Config(data, Experiments.parseInts("--repeats", repeats),
                bem.get(0), bem.get(1), bem.get(2), train, test, maxSamples, epochs, patience, width, runs, seed);
        Path dir = Figures.runDirectory(out, "repeat-mean");
        o.printf(Locale.ROOT, "repetition with mean aggregation: unnormalized decoder B=%d E=%d M=%d on raw y, tokens "
                + "repeated r times, majority vote per sample, mean of n samples; at most %d training rows, test fold 0 "
                + "(at most %d rows), %d run(s); encoder 2x%d, decoder 1 block d=32; at most %d epochs, patience %d; seed %d%n",
                c.base(), c.exponentDigits(), c.mantissaDigits(), train, test, runs, width, epochs, patience, seed);
        RepeatMeanExperiment.Result r = RepeatMeanExperiment.run(c, line -> System.err.println(line));
        o.printf(Locale.ROOT, "%-12s %2s %10s", "dataset", "r", "far-off");
        for (int n : c.sampleCounts()) {
            o.printf(Locale.ROOT, " %19s", "n=" + n);
        }
        o.println("   (relative MSE of the n-sample mean, mean +- sd over runs)");
        for (Curve cv : r.curves()) {
            o.printf(Locale.ROOT, "%-12s %2d %10.2e", cv.dataset(), cv.repeats(), cv.outlierShare());
            for (int j = 0; j < cv.samples().length; j++) {
                double[] ms = Experiments.columnMeanStd(cv.perRun(), j);
                o.printf(Locale.ROOT, " %9.3g +- %-6.2g", ms[0], ms[1]);
            }
            o.println();
        }
        plot(r, dir.resolve("repeat-mean.png"));
        Figures.json(json(r), dir.resolve("repeat-mean.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
    }

    static Map<String, Object> json(RepeatMeanExperiment.Result r) {
        RepeatMeanExperiment.Config c = r.config();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", "repeat-mean");
        m.put("config", Map.of("tokens", String.format(Locale.ROOT, "unnormalized B=%d E=%d M=%d", c.base(),
                c.exponentDigits(), c.mantissaDigits()), "trainRows", c.trainRows(), "testRows", c.testRows(),
                "maxEpochs", c.maxEpochs(), "patience", c.patience(), "encoderWidth", c.encoderWidth(), "runs", c.runs(), "seed", c.seed()));
        List<Object> cs = new ArrayList<>();
        for (Curve cv : r.curves()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("dataset", cv.dataset());
            e.put("repeats", cv.repeats());
            e.put("samples", cv.samples());
            e.put("relativeMse", cv.relativeMse());
            e.put("relativeMsePerRun", Arrays.asList(cv.perRun()));
            e.put("farOffShare", cv.outlierShare());
            e.put("trainSeconds", cv.trainSeconds());
            cs.add(e);
        }
        m.put("curves", cs);
        return m;
    }

    static void plot(RepeatMeanExperiment.Result r, Path file) {
        RepeatMeanExperiment.Config c = r.config();
        List<XYChart> charts = new ArrayList<>();
        for (InputData in : c.datasets()) {
            XYChart ch = Figures.chart(520, 400, in.label(), "samples n per test row (mean aggregation)",
                    "relative test MSE (lower is better)");
            ch.getStyler().setXAxisLogarithmic(true);
            ch.getStyler().setXAxisLogarithmicDecadeOnly(true);
            ch.getStyler().setYAxisLogarithmic(true);
            ch.getStyler().setYAxisLogarithmicDecadeOnly(true);
            ch.getStyler().setYAxisDecimalPattern("0.#E0");
            ch.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
            int k = 0;
            for (Curve cv : r.curves()) {
                if (cv.dataset().equals(in.label())) {
                    Figures.line(ch, "repeat count " + cv.repeats(), Arrays.stream(cv.samples()).asDoubleStream().toArray(),
                            cv.relativeMse(), Figures.color(k++));
                }
            }
            charts.add(ch);
        }
        Figures.grid(charts, Math.min(3, charts.size()), String.format(Locale.ROOT, "Repetition on unnormalized tokens "
                + "(B=%d, E=%d, M=%d, raw y), majority vote per sample, mean of n samples; at most %d training rows, "
                + "%d run(s), encoder 2x%d, at most %d epochs, early-stopping patience %d", c.base(), c.exponentDigits(),
                c.mantissaDigits(), c.trainRows(), c.runs(), c.encoderWidth(), c.maxEpochs(), c.patience()), file);
    }
}
