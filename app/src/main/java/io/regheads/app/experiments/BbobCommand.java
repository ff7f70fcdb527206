package io.regheads.app.experiments;

import io.regheads.app.experiments.BbobExperiment.Point;
import io.regheads.app.experiments.bbob.BbobFunction;
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
 * {@code regheads bbob}: the decoding paper's BBOB curve fitting (Table 5, Fig. 12), see {@link BbobExperiment}.
 * Prints Kendall's tau per function, dimension and head, then the mean over the functions per dimension (Table 5);
 * writes {@code bbob.png} (one panel per function: tau against D, one line per head; a last panel with the means)
 * and {@code bbob.json}.
 *
 * <p>Example: {@code regheads bbob --functions sphere,rastrigin --dims 2,5,10 --train 5000}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "bbob", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Table 5 / Fig. 12: Kendall tau of each head on BBOB functions (x uniform on "
                + "[-5, 5]^D) as the input dimension D grows.")
public final class BbobCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--functions", paramLabel = "LIST", defaultValue = "sphere,ellipsoid,rastrigin,linear-slope,"
            + "rosenbrock,ellipsoid-rotated,discus,bent-cigar,different-powers,rastrigin-rotated",
            description = "BBOB functions (default: all ten).")
    String functions;

    @Option(names = "--dims", paramLabel = "LIST", defaultValue = "2,5,10,20",
            description = "Input dimensions (default: ${DEFAULT-VALUE}).")
    String dims;

    @Option(names = "--heads", paramLabel = "LIST", defaultValue = "unnormalized-decoder,decoder,pointwise,histogram",
            description = "Heads (default: ${DEFAULT-VALUE}).")
    String heads;

    @Option(names = "--train", paramLabel = "N", defaultValue = "1000", description = "Training rows "
            + "(default: ${DEFAULT-VALUE}).")
    int train;

    @Option(names = "--test", paramLabel = "N", defaultValue = "1000", description = "Test rows (default: ${DEFAULT-VALUE}).")
    int test;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "60", description = "Epoch limit; early stopping "
            + "(patience 5) on 10%% of the training rows (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--width", paramLabel = "W", defaultValue = "256", description = "Encoder width, 2 layers "
            + "(default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "Seeded instances per point; the "
            + "table of means gives the spread over runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "First seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/bbob-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<BbobFunction> fs = Arrays.stream(functions.split(",")).map(s -> BbobFunction.of(s.strip())).toList();
        List<Integer> ds = Experiments.parseInts("--dims", dims);
        BbobExperiment.Config c = new BbobExperiment.Config(fs, ds, heads, train, test, epochs, width, runs, seed);
        Path dir = Figures.runDirectory(out, "bbob");
        o.printf(Locale.ROOT, "BBOB curve fitting: x uniform on [-5,5]^D, %d training / %d test rows, encoder 2x%d, "
                + "at most %d epochs, %d run(s) per point, seed %d%n", train, test, width, epochs, runs, seed);
        BbobExperiment.Result r = BbobExperiment.run(c, line -> System.err.println(line));
        o.printf(Locale.ROOT, "%-19s %3s", "function", "D");
        for (String h : r.heads()) {
            o.printf(Locale.ROOT, " %20s", h);
        }
        o.printf(Locale.ROOT, " %9s%n", "shuffled");
        for (BbobFunction f : fs) {
            for (int d : ds) {
                o.printf(Locale.ROOT, "%-19s %3d", f.label(), d);
                double shuffled = 0;
                for (Point p : r.points()) {
                    if (p.function().equals(f.label()) && p.dimension() == d) {
                        o.printf(Locale.ROOT, " %20.3f", p.tau());
                        shuffled = p.shuffledTau();
                    }
                }
                o.printf(Locale.ROOT, " %9.3f%n", shuffled);
            }
        }
        o.println("mean Kendall tau over the functions (the paper's Table 5, x100 there), +- the standard deviation of "
                + "that mean over runs:");
        for (int d : ds) {
            o.printf(Locale.ROOT, "%-19s %3d", "mean", d);
            for (String h : r.heads()) {
                double[] ms = Experiments.meanStd(r.meanTauPerRun(h, d));
                o.printf(Locale.ROOT, " %11.3f +- %5.3f", ms[0], ms[1]);
            }
            o.println();
        }
        plot(r, dir.resolve("bbob.png"));
        Figures.json(json(r), dir.resolve("bbob.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
    }

    static Map<String, Object> json(BbobExperiment.Result r) {
        BbobExperiment.Config c = r.config();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", "bbob");
        m.put("config", Map.of("trainRows", c.trainRows(), "testRows", c.testRows(), "maxEpochs", c.maxEpochs(),
                "encoderWidth", c.encoderWidth(), "runs", c.runs(), "seed", c.seed()));
        List<Object> pts = new ArrayList<>();
        for (Point p : r.points()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("function", p.function());
            e.put("dimension", p.dimension());
            e.put("head", p.head());
            e.put("tau", p.tau());
            e.put("tauPerRun", p.tauPerRun());
            e.put("shuffledTau", p.shuffledTau());
            e.put("trainSeconds", p.trainSeconds());
            pts.add(e);
        }
        m.put("points", pts);
        Map<String, Object> means = new LinkedHashMap<>();
        for (String h : r.heads()) {
            means.put(h, c.dimensions().stream().mapToDouble(d -> r.meanTau(h, d)).toArray());
        }
        Map<String, Object> perRun = new LinkedHashMap<>();
        for (String h : r.heads()) {
            perRun.put(h, c.dimensions().stream().map(d -> r.meanTauPerRun(h, d)).toList());
        }
        m.put("meanTauPerRun", perRun);
        m.put("dimensions", c.dimensions().stream().mapToInt(Integer::intValue).toArray());
        m.put("meanTau", means);
        return m;
    }

    static void plot(BbobExperiment.Result r, Path file) {
        BbobExperiment.Config c = r.config();
        double[] dx = c.dimensions().stream().mapToDouble(Integer::doubleValue).toArray();
        List<XYChart> charts = new ArrayList<>();
        for (BbobFunction f : c.functions()) {
            XYChart ch = Figures.chart(380, 300, f.title(), "input dimension D", "Kendall tau");
            ch.getStyler().setYAxisDecimalPattern("0.00");
            ch.getStyler().setXAxisDecimalPattern("0");
            for (int h = 0; h < r.heads().size(); h++) {
                String head = r.heads().get(h);
                double[] y = c.dimensions().stream().mapToDouble(d -> r.points().stream()
                        .filter(p -> p.function().equals(f.label()) && p.dimension() == d && p.head().equals(head))
                        .findFirst().orElseThrow().tau()).toArray();
                Figures.line(ch, head, dx, y, Figures.color(h));
            }
            ch.getStyler().setLegendVisible(charts.isEmpty());
            ch.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSW);
            charts.add(ch);
        }
        XYChart mean = Figures.chart(380, 300, "mean over the functions", "input dimension D", "Kendall tau");
        mean.getStyler().setYAxisDecimalPattern("0.00");
        mean.getStyler().setXAxisDecimalPattern("0");
        for (int h = 0; h < r.heads().size(); h++) {
            String head = r.heads().get(h);
            Figures.line(mean, head, dx, c.dimensions().stream().mapToDouble(d -> r.meanTau(head, d)).toArray(),
                    Figures.color(h));
        }
        mean.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSW);
        charts.add(mean);
        Figures.grid(charts, 4, String.format(Locale.ROOT, "BBOB curve fitting (higher is better): Kendall tau of "
                + "each head's point prediction, x ~ U[-5,5]^D, %d training rows, %d run(s) per point", c.trainRows(),
                c.runs()), file);
    }
}
