package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.DataEfficiencyExperiment.Point;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * {@code regheads data-efficiency}: the decoding paper's data-scaling figures (Figs. 7 and 11), see {@link
 * DataEfficiencyExperiment}. Prints the relative MSE per dataset, training-set size and head; writes {@code
 * data-efficiency.png} (one panel per dataset, relative MSE against n on log axes) and {@code data-efficiency.json}.
 *
 * <p>Example: {@code regheads data-efficiency --datasets-dir datasets --datasets kin40k,elevators}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "data-efficiency", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Figs. 7/11: relative test MSE as the training set grows, normalized decoder vs "
                + "histogram vs pointwise with a sigmoid, on shipped datasets (test rows: fold 0).")
public final class DataEfficiencyCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DatasetOptions datasetOptions;

    @Option(names = "--sizes", paramLabel = "LIST", defaultValue = "10,30,100,300,1000,3000,10000",
            description = "Training-set sizes (default: ${DEFAULT-VALUE}; capped at the dataset's training rows).")
    String sizes;

    @Option(names = "--heads", paramLabel = "LIST", defaultValue = "decoder,histogram,pointwise-sigmoid",
            description = "Heads (default: ${DEFAULT-VALUE}).")
    String heads;

    @Option(names = "--test", paramLabel = "N", defaultValue = "2000", description = "Most test rows "
            + "(default: ${DEFAULT-VALUE}).")
    int test;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "100", description = "Epoch limit; early stopping "
            + "(patience 5) on 10%% of the training rows (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--width", paramLabel = "W", defaultValue = "256", description = "Encoder width, 2 layers "
            + "(default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "Random subsets per size "
            + "(default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "First seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/data-efficiency-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<InputData> data = datasetOptions.load();
        DataEfficiencyExperiment.Config c = new DataEfficiencyExperiment.Config(data,
                Experiments.parseInts("--sizes", sizes), Experiments.parseNames("--heads", heads), test, epochs, width,
                runs, seed);
        Path dir = Figures.runDirectory(out, "data-efficiency");
        o.printf(Locale.ROOT, "data efficiency: test rows = fold 0 (at most %d), training subsets of the other folds, "
                + "%d run(s) each; encoder 2x%d, at most %d epochs, seed %d%n", test, runs, width, epochs, seed);
        DataEfficiencyExperiment.Result r = DataEfficiencyExperiment.run(c, line -> System.err.println(line));
        o.printf(Locale.ROOT, "%-12s %6s", "dataset", "n");
        for (String h : c.heads()) {
            o.printf(Locale.ROOT, " %20s", h);
        }
        o.println("   (relative MSE, mean +- sd over runs)");
        for (InputData in : data) {
            for (int n : c.sizes()) {
                if (r.points().stream().noneMatch(p -> p.dataset().equals(in.label()) && p.size() == n)) {
                    o.printf(Locale.ROOT, "%-12s %6d   (more than the %d training rows: skipped)%n", in.label(), n,
                            in.folds().trainRows(0).length);
                    continue;
                }
                o.printf(Locale.ROOT, "%-12s %6d", in.label(), n);
                for (String h : c.heads()) {
                    Point p = find(r, in.label(), n, h);
                    o.printf(Locale.ROOT, " %10.4f +- %6.4f", p.relativeMse(), Experiments.meanStd(p.perRun())[1]);
                }
                o.println();
            }
        }
        plot(r, dir.resolve("data-efficiency.png"));
        Figures.json(json(r), dir.resolve("data-efficiency.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
    }

    static Point find(DataEfficiencyExperiment.Result r, String dataset, int n, String head) {
        return r.points().stream().filter(p -> p.dataset().equals(dataset) && p.size() == n && p.head().equals(head))
                .findFirst().orElseThrow();
    }

    static Map<String, Object> json(DataEfficiencyExperiment.Result r) {
        DataEfficiencyExperiment.Config c = r.config();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", "data-efficiency");
        m.put("config", Map.of("testRows", c.testRows(), "maxEpochs", c.maxEpochs(), "encoderWidth", c.encoderWidth(),
                "runs", c.runs(), "seed", c.seed()));
        List<Object> pts = new ArrayList<>();
        for (Point p : r.points()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("dataset", p.dataset());
            e.put("size", p.size());
            e.put("head", p.head());
            e.put("relativeMse", p.relativeMse());
            e.put("perRun", p.perRun());
            pts.add(e);
        }
        m.put("points", pts);
        return m;
    }

    static void plot(DataEfficiencyExperiment.Result r, Path file) {
        DataEfficiencyExperiment.Config c = r.config();
        List<XYChart> charts = new ArrayList<>();
        for (InputData in : c.datasets()) {
            XYChart ch = Figures.chart(520, 400, in.label(), "training rows n", "relative test MSE (lower is better)");
            ch.getStyler().setXAxisLogarithmic(true);
            ch.getStyler().setYAxisLogarithmic(true);
            ch.getStyler().setYAxisDecimalPattern("0.0##");
            ch.getStyler().setXAxisLogarithmicDecadeOnly(true);
            for (int h = 0; h < c.heads().size(); h++) {
                String head = c.heads().get(h);
                List<Point> ps = r.points().stream().filter(p -> p.dataset().equals(in.label()) && p.head().equals(head))
                        .toList();
                Figures.line(ch, head, ps.stream().mapToDouble(Point::size).toArray(),
                        ps.stream().mapToDouble(Point::relativeMse).toArray(), Figures.color(h));
            }
            charts.add(ch);
        }
        Figures.grid(charts, Math.min(3, charts.size()), String.format(Locale.ROOT, "Data efficiency: relative test MSE "
                + "(MSE / variance of y, lower is better) against training rows; decoder = normalized decoder (base 10, "
                + "3 digits), histogram = Riemann head (100 bins), pointwise with a sigmoid output; encoder 2x%d; mean of "
                + "%d random subsets per point", c.encoderWidth(), c.runs()), file);
    }
}
