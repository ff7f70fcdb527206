package io.regheads.app.experiments;

import io.regheads.core.check.Checks;
import io.regheads.app.experiments.DensityExperiment.Row;
import io.regheads.app.experiments.DensityExperiment.Shape;
import java.awt.Color;
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
 * {@code regheads density}: the decoding paper's density-estimation figures (Figs. 8 and 14), see {@link
 * DensityExperiment}. Prints W1 and KS per shape and model, writes {@code density.png} (one panel per shape and
 * model: model samples in colour over truth samples in grey, the distances in the panel title) and {@code
 * density.json}.
 *
 * <p>Example: {@code regheads density --shapes branches,circle --train 20000 --epochs 10}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "density", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Figs. 8/14: density estimation on 1-D shapes; unnormalized decoder (B=10, E=1, "
                + "M=5) sampled at temperature 1, top-k, top-p and temperature 0.5, beside mdn, histogram and "
                + "pointwise; W1 and KS distance to fresh truth samples per x slice.")
public final class DensityCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--shapes", paramLabel = "LIST", defaultValue = "branches,circle,band,skewed",
            description = "Shapes (default: ${DEFAULT-VALUE}).")
    String shapes;

    @Option(names = "--train", paramLabel = "N", defaultValue = "20000", description = "Training samples per shape "
            + "(default: ${DEFAULT-VALUE}).")
    int train;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "10", description = "Epochs (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--lr", paramLabel = "RATE", defaultValue = "0.001", description = "AdamW learning rate "
            + "(default: ${DEFAULT-VALUE}).")
    double lr;

    @Option(names = "--width", paramLabel = "W", defaultValue = "128", description = "Encoder width, 2 layers "
            + "(default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--baselines", paramLabel = "LIST", defaultValue = "mdn,histogram,pointwise",
            description = "Baseline heads (default: ${DEFAULT-VALUE}; 'none' for none).")
    String baselines;

    @Option(names = "--slices", paramLabel = "S", defaultValue = "9", description = "x slices on [-0.9, 0.9] "
            + "(default: ${DEFAULT-VALUE}).")
    int slices;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "500", description = "Samples per slice "
            + "(default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--points", paramLabel = "N", defaultValue = "1500", description = "Points per picture panel "
            + "(default: ${DEFAULT-VALUE}).")
    int points;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "First seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "Runs with seeds seed, seed + 1, ... "
            + "(fresh data, initialisation and samples); the table gives the mean and standard deviation over runs "
            + "(default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/density-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<Shape> sh = new ArrayList<>();
        for (String s : shapes.split(",")) {
            sh.add(Shape.of(s.strip()));
        }
        List<String> base = baselines.strip().equals("none") ? List.of()
                : Arrays.stream(baselines.split(",")).map(String::strip).toList();
        Checks.atLeast("--runs", runs, 1);
        Path dir = Figures.runDirectory(out, "density");
        o.printf(Locale.ROOT, "density estimation: %d training samples per shape, %d epochs, lr %g, encoder 2x%d; "
                + "%d slices x %d samples; %d run(s) from seed %d%n", train, epochs, lr, width, slices, samples, runs,
                seed);
        List<DensityExperiment.Result> results = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            DensityExperiment.Config c = new DensityExperiment.Config(sh, train, epochs, lr, width,
                    DensityExperiment.Variant.paper(), base, slices, samples, points, seed + run);
            results.add(DensityExperiment.run(c, line -> System.err.println(line)));
        }
        DensityExperiment.Result r = results.get(0);
        o.printf(Locale.ROOT, "%-9s %-18s %19s %19s %8s%n", "shape", "model", "W1 (mean +- sd)", "KS (mean +- sd)",
                "train s");
        for (int i = 0; i < r.rows().size(); i++) {
            Row row = r.rows().get(i);
            double[] w1 = Experiments.meanStd(perRun(results, i, Row::w1));
            double[] ks = Experiments.meanStd(perRun(results, i, Row::ks));
            o.printf(Locale.ROOT, "%-9s %-18s %9.4g +- %-6.2g %9.4f +- %-6.4f %8.1f%n", row.shape(), row.model(), w1[0],
                    w1[1], ks[0], ks[1], row.trainSeconds());
        }
        plot(r, dir.resolve("density.png"));
        Figures.json(json(results), dir.resolve("density.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
    }

    /** Row i's value in every run. */
    static double[] perRun(List<DensityExperiment.Result> results, int i, java.util.function.ToDoubleFunction<Row> f) {
        return results.stream().mapToDouble(x -> f.applyAsDouble(x.rows().get(i))).toArray();
    }

    static Map<String, Object> json(List<DensityExperiment.Result> results) {
        Map<String, Object> m = json(results.get(0));
        List<Object> rows = new ArrayList<>();
        DensityExperiment.Result r = results.get(0);
        for (int i = 0; i < r.rows().size(); i++) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("shape", r.rows().get(i).shape());
            e.put("model", r.rows().get(i).model());
            double[] w1 = perRun(results, i, Row::w1);
            double[] ks = perRun(results, i, Row::ks);
            e.put("w1PerRun", w1);
            e.put("ksPerRun", ks);
            e.put("w1MeanSd", Experiments.meanStd(w1));
            e.put("ksMeanSd", Experiments.meanStd(ks));
            rows.add(e);
        }
        m.put("runs", results.size());
        m.put("seeds", results.stream().mapToLong(x -> x.config().seed()).toArray());
        m.put("overRuns", rows);
        return m;
    }

    static Map<String, Object> json(DensityExperiment.Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        DensityExperiment.Config c = r.config();
        m.put("experiment", "density");
        m.put("config", Map.of("trainRows", c.trainRows(), "epochs", c.epochs(), "learningRate", c.learningRate(),
                "encoderWidth", c.encoderWidth(), "slices", c.slices(), "samplesPerSlice", c.samplesPerSlice(),
                "seed", c.seed(), "decoder", "unnormalized B=10 E=1 M=5, 1 block d=32, exponent range fitted to the training "
                + "targets"));
        m.put("sliceX", r.sliceX());
        List<Object> rows = new ArrayList<>();
        for (Row row : r.rows()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("shape", row.shape());
            e.put("model", row.model());
            e.put("w1", row.w1());
            e.put("ks", row.ks());
            e.put("w1PerSlice", row.w1PerSlice());
            e.put("ksPerSlice", row.ksPerSlice());
            e.put("trainSeconds", row.trainSeconds());
            rows.add(e);
        }
        m.put("rows", rows);
        return m;
    }

    /** One panel per (shape, model other than truth): truth points grey, model samples coloured. */
    static void plot(DensityExperiment.Result r, Path file) {
        List<XYChart> charts = new ArrayList<>();
        int columns = 0;
        for (String shape : r.rows().stream().map(Row::shape).distinct().toList()) {
            List<Row> rows = r.rows().stream().filter(x -> x.shape().equals(shape)).toList();
            Row truth = rows.get(0);
            double lo = Arrays.stream(truth.scatterY()).min().orElse(0);
            double hi = Arrays.stream(truth.scatterY()).max().orElse(1);
            double pad = 0.25 * (hi - lo);
            columns = Math.max(columns, rows.size() - 1);
            for (int k = 1; k < rows.size(); k++) {
                Row m = rows.get(k);
                int off = 0;
                for (double v : m.scatterY()) {
                    off += v < lo - pad || v > hi + pad || !Double.isFinite(v) ? 1 : 0;
                }
                XYChart ch = Figures.chart(360, 290, String.format(Locale.ROOT, "%s, %s: KS %.3f, W1 %.3g", shape,
                        m.model(), m.ks(), m.w1()), "x", "y");
                ch.getStyler().setChartTitleFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 11));
                ch.getStyler().setYAxisMin(lo - pad);
                ch.getStyler().setYAxisMax(hi + pad);
                ch.getStyler().setXAxisMin(-1.0);
                ch.getStyler().setXAxisMax(1.0);
                ch.getStyler().setMarkerSize(3);
                ch.getStyler().setXAxisDecimalPattern("0.0");
                ch.getStyler().setYAxisDecimalPattern("0.0");
                ch.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSW);
                Figures.points(ch, "truth", truth.scatterX(), truth.scatterY(), new Color(160, 160, 160, 110));
                Figures.points(ch, off == 0 ? "model samples" : "model samples (" + off + " off the plot)",
                        m.scatterX(), m.scatterY(), Figures.withAlpha(Figures.color(k - 1), 120));
                charts.add(ch);
            }
        }
        DensityExperiment.Config c = r.config();
        Figures.grid(charts, Math.max(1, columns), String.format(Locale.ROOT,
                "Density estimation p(y|x): model samples (colour) over truth samples (grey); KS, W1: distance to fresh "
                        + "truth samples, mean over %d x slices of %d samples; %d training points, %d epochs",
                c.slices(), c.samplesPerSlice(),
                c.trainRows(), c.epochs()), file);
    }
}
