package io.regheads.app.cli;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code regheads curves}: fits each head to samples of a 1-D synthetic function with known noise and draws the
 * predicted distribution over x (Fig. 4/7-style pictures): training points, point prediction (mean; median for the unnormalized decoder), mode, and the 5-95% and
 * 25-75% quantile bands on a grid of 200 x values, one PNG per head. The table reports the test NLL (y01 units, as
 * {@code compare}) and RMSE on a fresh sample.
 *
 * <p>Functions, x uniform on [-1, 1], eps standard normal:
 * <ul>
 *   <li>{@code sine}: y = sin(3x) + (0.05 + 0.25 (x + 1) / 2) eps (noise grows with x);</li>
 *   <li>{@code bimodal}: y = s (0.5 + 0.5 x) + 0.05 eps with s = +1 or -1 at random (two branches);</li>
 *   <li>{@code steps}: y = floor(4x) / 4 + 0.03 eps (jumps).</li>
 * </ul>
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "curves", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Fit each head to a 1-D synthetic function (sine, bimodal, steps) and draw the predicted "
                + "distribution over x.")
final class CurvesCommand implements Callable<Integer> {
    /** The synthetic functions by name. */
    static final List<String> FUNCTIONS = List.of("sine", "bimodal", "steps");
    private static final int GRID = 200;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--function", paramLabel = "NAME", defaultValue = "bimodal",
            description = "sine, bimodal or steps (default: ${DEFAULT-VALUE}).")
    String function;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "2000",
            description = "Training samples (default: ${DEFAULT-VALUE}); the test sample has N / 4.")
    int samples;

    @Mixin
    HeadsOption heads;

    @Mixin
    TrainingOptions training;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory for the PNG files (default: "
            + "runs/curves-<yyyyMMdd-HHmmss>).")
    Path out;

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    /**
     * {@code n} samples of {@code function} as a one-feature data set.
     *
     * @throws IllegalArgumentException on an unknown function or n < 10
     */
    static Dataset sample(String function, int n, long seed) {
        Checks.require(FUNCTIONS.contains(function), "--function must be one of %s, got '%s'", FUNCTIONS, function);
        Checks.require(n >= 10, "--samples must be >= 10, got %d", n);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double v = -1 + 2 * rng.nextDouble();
            x[i][0] = v;
            double e = normal.sample();
            y[i] = switch (function) {
                case "sine" -> Math.sin(3 * v) + (0.05 + 0.25 * (v + 1) / 2) * e;
                case "bimodal" -> (rng.nextBoolean() ? 1 : -1) * (0.5 + 0.5 * v) + 0.05 * e;
                default -> Math.floor(4 * v) / 4 + 0.03 * e;
            };
        }
        return Dataset.of(x, y, List.of("x"), "y");
    }

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        HeadCatalog catalog = HeadCatalog.standard();
        List<HeadCatalog.Preset> chosen = catalog.select(heads.heads);
        training.check();
        HeadOptions headOptions = training.headOptions(catalog);
        headOptions.checkApplies(chosen);
        List<HeadCatalog.Preset> presets = chosen.stream().map(p -> training.configured(p, headOptions,
                chosen.size() == 1)).toList();
        Dataset train = sample(function, samples, training.seed());
        Dataset test = sample(function, Math.max(10, samples / 4), training.seed() + 1);
        // one data set, test rows in fold 0 and training rows in fold 1, so HeadRun measures as in compare
        double[][] x = new double[train.rows() + test.rows()][];
        double[] y = new double[x.length];
        int[] fold = new int[x.length];
        for (int i = 0; i < x.length; i++) {
            boolean isTest = i < test.rows();
            Dataset d = isTest ? test : train;
            int r = isTest ? i : i - test.rows();
            x[i] = d.row(r);
            y[i] = d.y(r);
            fold[i] = isTest ? 0 : 1;
        }
        InputData input = new InputData(function, Dataset.of(x, y, List.of("x"), "y"), Folds.of(fold),
                "fresh test sample");
        TrainerConfig trainer = training.trainer(TrainerConfig.defaults().withMaxEpochs(CompareCommand.DEFAULT_EPOCHS)
                .withPatience(CompareCommand.DEFAULT_PATIENCE));
        Path dir = out != null ? out
                : Path.of("runs", "curves-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot create directory " + dir + ": " + e.getMessage(), e);
        }
        o.printf(Locale.ROOT, "function %s: %d training and %d test samples; %s%n", function, train.rows(), test.rows(),
                training.describe(trainer));
        o.printf(Locale.ROOT, "%-20s %-16s %10s %10s %6s %8s%n", "head", "loss", "NLL", "RMSE", "cov90", "train s");
        int failed = 0;
        for (HeadCatalog.Preset p : presets) {
            if (!quiet) {
                System.err.printf(Locale.ROOT, "training %s on %s%n", p.name(), function);
            }
            HeadRun.Result r;
            try {
                r = HeadRun.run(p, training.loss(p.spec().get()), training.setup(trainer,
                        training.targetTransform(null)), input, 0, ProgressListener.none(), null);
            } catch (HeadRun.FailedRun f) {
                failed++;
                o.printf(Locale.ROOT, "%-20s %-16s FAILED (%s): %s%n", f.head, f.loss, f.stopReason(), f.reason());
                o.flush();
                continue;
            }
            Path png = dir.resolve("curves-" + function + "-" + p.name() + ".png");
            plot(r, train, String.format(Locale.ROOT, "%s on %s: NLL %s", p.name(), function, Fmt.sig(r.nll())), png);
            o.printf(Locale.ROOT, "%-20s %-16s %10s %10s %6.3f %8.1f%n", r.head(), r.loss(), Fmt.sig(r.nll()),
                    Fmt.sig(r.rmse()), r.coverage90(), r.trainSeconds());
            o.flush();
        }
        o.println("plots: " + dir);
        o.flush();
        return failed == 0 ? Regheads.EXIT_OK : Regheads.EXIT_HEAD_FAILED;
    }

    private static void plot(HeadRun.Result r, Dataset train, String title, Path file) {
        double[] gx = new double[GRID];
        double[][] grid = new double[GRID][1];
        for (int i = 0; i < GRID; i++) {
            gx[i] = -1 + 2.0 * i / (GRID - 1);
            grid[i][0] = gx[i];
        }
        PredictiveDistribution d = r.model().predict(grid);
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title).xAxisTitle("x").yAxisTitle("y").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setMarkerSize(3);
        int shown = Math.min(train.rows(), 600);
        double[] tx = new double[shown];
        double[] ty = new double[shown];
        for (int i = 0; i < shown; i++) {
            tx[i] = train.x(i, 0);
            ty[i] = train.y(i);
        }
        XYSeries pts = chart.addSeries("training samples", tx, ty);
        pts.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        pts.setMarker(SeriesMarkers.CIRCLE);
        pts.setMarkerColor(new Color(170, 170, 170));
        line(chart, "5% / 95%", gx, d.inverseCumulativeProbability(0.05), new Color(120, 160, 230), 1f);
        line(chart, "95%", gx, d.inverseCumulativeProbability(0.95), new Color(120, 160, 230), 1f).setShowInLegend(false);
        line(chart, "25% / 75%", gx, d.inverseCumulativeProbability(0.25), new Color(30, 90, 200), 1.5f);
        line(chart, "75%", gx, d.inverseCumulativeProbability(0.75), new Color(30, 90, 200), 1.5f).setShowInLegend(false);
        line(chart, r.pointName(), gx, r.model().predictPoint(grid), Color.BLACK, 2f);
        XYSeries mode = chart.addSeries("mode", gx, d.mode());
        mode.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        mode.setMarker(SeriesMarkers.DIAMOND);
        mode.setMarkerColor(new Color(200, 40, 40));
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static XYSeries line(XYChart chart, String name, double[] x, double[] y, Color c, float width) {
        double[] yy = y.clone();
        for (int i = 0; i < yy.length; i++) {
            if (!Double.isFinite(yy[i])) {
                yy[i] = Double.NaN; // XChart skips NaN points
            }
        }
        XYSeries s = chart.addSeries(name, x, yy);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(c);
        s.setLineStyle(new BasicStroke(width));
        return s;
    }
}
