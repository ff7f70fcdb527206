package io.regheads.app.experiments;

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

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/curve-fit-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<Function> fs = Experiments.parseNames("--functions", functions).stream().map(Function::of).toList();
        CurveFitExperiment.Config c = new CurveFitExperiment.Config(fs, Experiments.parseNames("--heads", heads), train,
                epochs, lr, width, seed);
        Path dir = Figures.runDirectory(out, "curve-fit");
        o.printf(Locale.ROOT, "curve fitting: %d fresh samples per function, %d epochs, lr %g, encoder 2x%d, seed %d%n",
                train, epochs, lr, width, seed);
        CurveFitExperiment.Result r = CurveFitExperiment.run(c, line -> System.err.println(line));
        o.printf(Locale.ROOT, "%-10s %-21s %12s %12s %8s%n", "function", "head", "rel. MSE", "median rel.", "train s");
        for (Fit f : r.fits()) {
            o.printf(Locale.ROOT, "%-10s %-21s %12.4g %12.4g %8.1f%n", f.function(), f.head(), f.relativeMse(),
                    f.medianRelErr(), f.trainSeconds());
        }
        plot(r, dir.resolve("curve-fit.png"));
        Figures.json(json(r), dir.resolve("curve-fit.json"));
        o.println("plot and numbers: " + dir);
        o.flush();
        return 0;
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
                + "training points, %d epochs", c.trainRows(), c.epochs()), file);
    }
}
