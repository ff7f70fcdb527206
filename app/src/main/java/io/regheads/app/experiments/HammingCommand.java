package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.HammingExperiment.Curve;
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
import org.knowm.xchart.XYSeries;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads hamming}: binary against Hamming-ordered tokens for the normalized decoder (the decoding paper's
 * Fig. 13), see {@link HammingExperiment}. Prints the measured and brute-force expected MSE of the n-sample mean;
 * writes {@code hamming.png} (one panel per dataset, MSE against n on log axes, measured as lines, expected as
 * crosses) and {@code hamming.json}.
 *
 * <p>Example: {@code regheads hamming --datasets-dir datasets --datasets airfoil,concrete --bits 8}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "hamming", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Fig. 13: normalized decoder with binary vs Hamming-ordered tokens, MSE of the mean "
                + "of n samples as n grows, beside its brute-force expectation.")
public final class HammingCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DatasetOptions datasetOptions;

    @Option(names = "--bits", paramLabel = "K", defaultValue = "8", description = "Bits K (default: ${DEFAULT-VALUE}).")
    int bits;

    @Option(names = "--train", paramLabel = "N", defaultValue = "1000", description = "Training rows per run "
            + "(default: ${DEFAULT-VALUE}).")
    int train;

    @Option(names = "--test", paramLabel = "N", defaultValue = "500", description = "Most test rows "
            + "(default: ${DEFAULT-VALUE}).")
    int test;

    @Option(names = "--max-samples", paramLabel = "N", defaultValue = "128", description = "Largest n "
            + "(default: ${DEFAULT-VALUE}).")
    int maxSamples;

    @Option(names = "--replicates", paramLabel = "R", defaultValue = "8", description = "Independent sets of n "
            + "samples per row, averaged (default: ${DEFAULT-VALUE}).")
    int replicates;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "300", description = "Epoch limit "
            + "(default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--patience", paramLabel = "P", defaultValue = "20", description = "Early stopping: epochs without "
            + "a better loss on 10%% of the training rows (default: ${DEFAULT-VALUE}).")
    int patience;

    @Option(names = "--width", paramLabel = "W", defaultValue = "256", description = "Encoder width, 2 layers "
            + "(default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "Training subsets per dataset "
            + "(default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "First seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/hamming-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<InputData> data = datasetOptions.load();
        HammingExperiment.Config c = new HammingExperiment.Config(data, bits, train, test, maxSamples, replicates, epochs, patience, width,
                runs,
                seed);
        Path dir = Figures.runDirectory(out, "hamming");
        o.printf(Locale.ROOT, "binary vs Hamming tokens: normalized decoder over K=%d bits of y01, %d training rows per "
                + "run (test: fold 0, at most %d rows), %d run(s); encoder 2x%d, decoder 1 block d=32; at most %d epochs, "
                + "patience %d; seed %d%n", bits, train, test, runs, width, epochs, patience, seed);
        HammingExperiment.Result r = HammingExperiment.run(c, line -> System.err.println(line));
        o.printf(Locale.ROOT, "%-12s %-8s %7s %12s %10s %12s %10s%n", "dataset", "tokens", "samples", "MSE(y01)",
                "run sd", "expected", "std err");
        for (Curve cv : r.curves()) {
            double[] sd = cv.runSd();
            for (int j = 0; j < cv.samples().length; j++) {
                o.printf(Locale.ROOT, "%-12s %-8s %7d %12.6f %10.2g %12.6f %10.2g%n", cv.dataset(), cv.tokens(),
                        cv.samples()[j], cv.measured()[j], sd[j], cv.expected()[j], cv.standardError()[j]);
            }
        }
        o.println("(MSE: mean over runs; run sd: its standard deviation over runs; std err: of the sampling, given the "
                + "models)");
        plot(r, dir.resolve("hamming.png"));
        Figures.json(json(r), dir.resolve("hamming.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
    }

    static Map<String, Object> json(HammingExperiment.Result r) {
        HammingExperiment.Config c = r.config();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", "hamming");
        m.put("config", Map.of("bits", c.bits(), "replicates", c.replicates(), "trainRows", c.trainRows(), "testRows",
                c.testRows(), "maxEpochs",
                c.maxEpochs(), "patience", c.patience(), "encoderWidth", c.encoderWidth(), "runs", c.runs(), "seed", c.seed()));
        List<Object> cs = new ArrayList<>();
        for (Curve cv : r.curves()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("dataset", cv.dataset());
            e.put("tokens", cv.tokens());
            e.put("samples", cv.samples());
            e.put("mse", cv.measured());
            e.put("expectedMse", cv.expected());
            e.put("standardError", cv.standardError());
            e.put("runSd", cv.runSd());
            e.put("msePerRun", cv.perRun());
            e.put("massError", cv.massError());
            e.put("testVariance", cv.variance());
            cs.add(e);
        }
        m.put("curves", cs);
        return m;
    }

    static void plot(HammingExperiment.Result r, Path file) {
        HammingExperiment.Config c = r.config();
        List<XYChart> charts = new ArrayList<>();
        for (InputData in : c.datasets()) {
            XYChart ch = Figures.chart(520, 400, in.label(), "samples n per test row",
                    "MSE of the n-sample mean, y01 units");
            ch.getStyler().setXAxisLogarithmic(true);
            ch.getStyler().setXAxisLogarithmicDecadeOnly(true);
            ch.getStyler().setYAxisDecimalPattern("0.000##");
            int k = 0;
            for (Curve cv : r.curves()) {
                if (!cv.dataset().equals(in.label())) {
                    continue;
                }
                double[] n = Arrays.stream(cv.samples()).asDoubleStream().toArray();
                Figures.line(ch, cv.tokens() + " (measured)", n, cv.measured(), Figures.color(k));
                XYSeries e = Figures.points(ch, cv.tokens() + " (brute-force expectation)", n, cv.expected(),
                        Figures.color(k));
                e.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.CROSS);
                k++;
            }
            charts.add(ch);
        }
        Figures.grid(charts, Math.min(3, charts.size()), String.format(Locale.ROOT, "Binary vs Hamming tokens, "
                + "normalized decoder (K=%d bits), mean aggregation; lower is better; %d training rows, %d run(s), at "
                + "most %d epochs, early-stopping patience %d", c.bits(), c.trainRows(), c.runs(), c.maxEpochs(),
                c.patience()), file);
    }
}
