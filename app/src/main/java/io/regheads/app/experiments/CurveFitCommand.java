package io.regheads.app.experiments;

import io.regheads.core.check.Checks;
import io.regheads.app.experiments.CurveFitExperiment.Fit;
import io.regheads.app.experiments.CurveFitExperiment.Function;
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
 * {@code regheads curve-fit}: the decoding paper's curve fitting (Fig. 4), see {@link CurveFitExperiment}. Prints
 * the relative MSE and the median relative error per function and head; writes {@code curve-fit.png} (one panel per
 * function: the truth and each head's point prediction) and {@code curve-fit.json}.
 *
 * <p>Example: {@code regheads curve-fit --functions exp,steps --train 20000 --epochs 10}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "curve-fit", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Fig. 4: unnormalized decoder (raw y), normalized decoder and pointwise head "
                + "fitted to noise-free 1-D functions with plenty of data.")
public final class CurveFitCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--functions", paramLabel = "LIST", defaultValue = "exp,spike,steps,fast-sine",
            description = "Functions (default: ${DEFAULT-VALUE}).")
    String functions;

    @Option(names = "--heads", paramLabel = "LIST", defaultValue = "unnormalized-decoder,decoder,pointwise",
            description = "Heads (default: ${DEFAULT-VALUE}).")
    String heads;

    @Option(names = "--train", paramLabel = "N", defaultValue = "20000", description = "Training samples "
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

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "First seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3", description = "Runs with seeds seed, seed + 1, ... "
            + "(fresh data and initialisation); the table gives the mean and standard deviation over runs "
            + "(default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/curve-fit-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<Function> fs = Experiments.parseNames("--functions", functions).stream().map(Function::of).toList();
        Checks.atLeast("--runs", runs, 1);
        Path dir = Figures.runDirectory(out, "curve-fit");
        o.printf(Locale.ROOT, "curve fitting: %d fresh samples per function, %d epochs, lr %g, encoder 2x%d, %d run(s) "
                + "from seed %d%n", train, epochs, lr, width, runs, seed);
        List<CurveFitExperiment.Result> results = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            CurveFitExperiment.Config c = new CurveFitExperiment.Config(fs, Experiments.parseNames("--heads", heads),
                    train, epochs, lr, width, seed + run);
            results.add(CurveFitExperiment.run(c, line -> System.err.println(line)));
        }
        CurveFitExperiment.Result r = results.get(0);
        o.printf(Locale.ROOT, "%-10s %-21s %21s %21s %8s%n", "function", "head", "rel. MSE (mean +- sd)",
                "median rel. (+- sd)", "train s");
        for (int i = 0; i < r.fits().size(); i++) {
            Fit f = r.fits().get(i);
            double[] mse = Experiments.meanStd(perRun(results, i, Fit::relativeMse));
            double[] med = Experiments.meanStd(perRun(results, i, Fit::medianRelErr));
            o.printf(Locale.ROOT, "%-10s %-21s %10.4g +- %-7.2g %10.4g +- %-7.2g %8.1f%n", f.function(), f.head(),
                    mse[0], mse[1], med[0], med[1], f.trainSeconds());
        }
        plot(r, dir.resolve("curve-fit.png"));
        Map<String, Object> m = json(r);
        List<Object> over = new ArrayList<>();
        for (int i = 0; i < r.fits().size(); i++) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("function", r.fits().get(i).function());
            e.put("head", r.fits().get(i).head());
            e.put("relativeMsePerRun", perRun(results, i, Fit::relativeMse));
            e.put("medianRelativeErrorPerRun", perRun(results, i, Fit::medianRelErr));
            over.add(e);
        }
        m.put("runs", runs);
        m.put("overRuns", over);
        Figures.json(m, dir.resolve("curve-fit.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
    }

    /** Fit i's value in every run. */
    static double[] perRun(List<CurveFitExperiment.Result> results, int i, java.util.function.ToDoubleFunction<Fit> f) {
        return results.stream().mapToDouble(x -> f.applyAsDouble(x.fits().get(i))).toArray();
    }

    static Map<String, Object> json(CurveFitExperiment.Result r) {
        CurveFitExperiment.Config c = r.config();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", "curve-fit");
        m.put("config", Map.of("trainRows", c.trainRows(), "epochs", c.epochs(), "learningRate", c.learningRate(),
                "encoderWidth", c.encoderWidth(), "seed", c.seed()));
        List<Object> fits = new ArrayList<>();
        for (Fit f : r.fits()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("function", f.function());
            e.put("head", f.head());
            e.put("relativeMse", f.relativeMse());
            e.put("medianRelativeError", f.medianRelErr());
            e.put("trainSeconds", f.trainSeconds());
            fits.add(e);
        }
        m.put("fits", fits);
        return m;
    }

    static void plot(CurveFitExperiment.Result r, Path file) {
        List<XYChart> charts = new ArrayList<>();
        for (Function f : r.config().functions()) {
            XYChart ch = Figures.chart(560, 460, f.label() + ": " + f.formula(), "x", "y");
            ch.getStyler().setYAxisLogarithmic(f.logScale());
            ch.getStyler().setYAxisLogarithmicDecadeOnly(true);
            ch.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
            ch.getStyler().setXAxisDecimalPattern("0.0#");
            double[] truth = Arrays.stream(r.grid()).map(f::value).toArray();
            Figures.curve(ch, "ground truth", r.grid(), truth, Color.BLACK, 3f);
            int k = 0;
            for (Fit fit : r.fits()) {
                if (fit.function().equals(f.label())) {
                    double[] p = fit.prediction().clone();
                    if (f.logScale()) {
                        for (int i = 0; i < p.length; i++) {
                            p[i] = p[i] > 0 ? p[i] : Double.NaN; // a log axis cannot show y <= 0
                        }
                    }
                    Figures.curve(ch, String.format(Locale.ROOT, "%s (rel. MSE %.3g, med. rel. err %.3g)", fit.head(),
                            fit.relativeMse(), fit.medianRelErr()), r.grid(), p, Figures.color(k++), 1.6f);
                }
            }
            charts.add(ch);
        }
        CurveFitExperiment.Config c = r.config();
        Figures.grid(charts, 2, String.format(Locale.ROOT, "Curve fitting, point predictions vs ground truth: %d "
                + "training points, %d epochs (the first run, seed %d)", c.trainRows(), c.epochs(), c.seed()), file);
    }
}
