package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.DecoderSizeExperiment.Point;
import io.regheads.app.experiments.DecoderSizeExperiment.Size;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;
import org.knowm.xchart.XYChart;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads decoder-size}: the decoding paper's decoder-size ablation (Fig. 9), see {@link
 * DecoderSizeExperiment}. Prints the test NLL per dataset and size; writes {@code decoder-size.png} (three panels:
 * NLL against layers, heads and units, one line per dataset) and {@code decoder-size.json}.
 *
 * <p>Example: {@code regheads decoder-size --datasets-dir datasets --datasets yacht,energy --folds 0-2}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "decoder-size", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Fig. 9: test NLL of the normalized decoder (base 10, K=4) as its layers, heads and "
                + "units vary from (3, 4, 128).")
public final class DecoderSizeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DatasetOptions datasetOptions;

    @Option(names = "--folds", paramLabel = "LIST", defaultValue = "0",
            description = "Test folds, e.g. 0-2 (default: ${DEFAULT-VALUE}).")
    String folds;

    @Option(names = "--base", paramLabel = "L,H,U", defaultValue = "3,4,128",
            description = "The size (layers, heads, units) the axes vary from (default: ${DEFAULT-VALUE}).")
    String base;

    @Option(names = "--layers", paramLabel = "LIST", defaultValue = "1,2,3,4", description = "Layers axis "
            + "(default: ${DEFAULT-VALUE}).")
    String layers;

    @Option(names = "--attention-heads", paramLabel = "LIST", defaultValue = "1,2,4,8", description = "Heads axis "
            + "(default: ${DEFAULT-VALUE}).")
    String heads;

    @Option(names = "--units", paramLabel = "LIST", defaultValue = "32,64,128,256", description = "Units axis "
            + "(default: ${DEFAULT-VALUE}).")
    String units;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "100", description = "Epoch limit; early stopping "
            + "(patience 5) on 10%% of the training rows (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--width", paramLabel = "W", defaultValue = "256", description = "Encoder width, 2 layers "
            + "(default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "Trainings (seeds) per size and "
            + "fold; the table gives the mean and standard deviation over folds and runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "First seed (default: "
            + "${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/decoder-size-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<InputData> data = datasetOptions.load();
        int[] fs = InputData.parseFolds(folds, data.get(0).folds().count());
        List<Integer> b = Experiments.parseInts("--base", base);
        if (b.size() != 3) {
            throw new IllegalArgumentException("--base must be layers,heads,units such as 3,4,128, got '" + base + "'");
        }
        Size baseSize = new Size(b.get(0), b.get(1), b.get(2));
        DecoderSizeExperiment.Config c = new DecoderSizeExperiment.Config(data, fs, baseSize,
                Experiments.parseInts("--layers", layers),
                Experiments.parseInts("--attention-heads", heads), Experiments.parseInts("--units", units), epochs, width,
                runs, seed);
        Path dir = Figures.runDirectory(out, "decoder-size");
        o.printf(Locale.ROOT, "decoder size: normalized decoder base 10, K=4, MLP width 4 x units; sizes (layers, heads, "
                + "units) around %s; test folds %s; encoder 2x%d, at most %d epochs; %d run(s) from seed %d%n",
                baseSize, folds, width, epochs, runs, seed);
        DecoderSizeExperiment.Result r = DecoderSizeExperiment.run(c, line -> System.err.println(line));
        o.printf(Locale.ROOT, "%-12s %-16s %12s %20s %8s%n", "dataset", "(layers,heads,units)", "head params",
                "NLL(y01) mean +- sd", "train s");
        for (Point p : r.points()) {
            o.printf(Locale.ROOT, "%-12s %-16s %12d %10.4f +- %6.4f %8.1f%n", p.dataset(), p.size(), p.headParams(),
                    p.nll(), p.sd(), p.trainSeconds());
        }
        plot(r, dir.resolve("decoder-size.png"));
        Figures.json(json(r), dir.resolve("decoder-size.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
    }

    static Map<String, Object> json(DecoderSizeExperiment.Result r) {
        DecoderSizeExperiment.Config c = r.config();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", "decoder-size");
        m.put("config", Map.of("folds", c.folds(), "maxEpochs", c.maxEpochs(), "encoderWidth", c.encoderWidth(), "runs",
                c.runs(), "seed", c.seed(), "tokens", "normalized base 10, K=4"));
        List<Object> pts = new ArrayList<>();
        for (Point p : r.points()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("dataset", p.dataset());
            e.put("layers", p.size().layers());
            e.put("heads", p.size().heads());
            e.put("units", p.size().units());
            e.put("headParams", p.headParams());
            e.put("nll", p.nll());
            e.put("nllSd", p.sd());
            e.put("nllPerRun", p.perRun());
            e.put("trainSeconds", p.trainSeconds());
            pts.add(e);
        }
        m.put("points", pts);
        return m;
    }

    static void plot(DecoderSizeExperiment.Result r, Path file) {
        DecoderSizeExperiment.Config c = r.config();
        List<XYChart> charts = new ArrayList<>();
        charts.add(axis(r, "layers", c.layers(), Size::layers));
        charts.add(axis(r, "attention heads", c.heads(), Size::heads));
        charts.add(axis(r, "units", c.units(), Size::units));
        Figures.grid(charts, 3, String.format(Locale.ROOT, "Decoder size: test NLL of y01 (lower is better) as one of "
                + "(layers, heads, units) varies from %s; normalized decoder base 10, K=4, MLP width 4 x units; encoder "
                + "2x%d; at most %d epochs, early-stopping patience 5; %d test fold(s) x %d run(s), mean", c.base(),
                c.encoderWidth(), c.maxEpochs(), c.folds().length, c.runs()), file);
    }

    private static XYChart axis(DecoderSizeExperiment.Result r, String name, List<Integer> values,
            ToIntFunction<Size> pick) {
        XYChart ch = Figures.chart(460, 360, "varying " + name, name, "test NLL(y01)");
        ch.getStyler().setYAxisDecimalPattern("0.000");
        ch.getStyler().setXAxisDecimalPattern("0");
        ch.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        int k = 0;
        for (InputData in : r.config().datasets()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int v : values) {
                Size b = r.config().base();
                Size s = switch (name) {
                    case "layers" -> new Size(v, b.heads(), b.units());
                    case "units" -> new Size(b.layers(), b.heads(), v);
                    default -> new Size(b.layers(), v, b.units());
                };
                r.points().stream().filter(p -> p.dataset().equals(in.label()) && p.size().equals(s)).findFirst()
                        .ifPresent(p -> {
                            x.add((double) pick.applyAsInt(s));
                            y.add(p.nll());
                        });
            }
            Figures.line(ch, in.label(), x.stream().mapToDouble(Double::doubleValue).toArray(),
                    y.stream().mapToDouble(Double::doubleValue).toArray(), Figures.color(k++));
        }
        return ch;
    }
}
