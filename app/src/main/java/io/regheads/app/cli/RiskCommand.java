package io.regheads.app.cli;

import io.regheads.app.experiments.Figures;
import io.regheads.app.experiments.RiskExperiment;
import io.regheads.app.experiments.RiskExperiment.Point;
import io.regheads.core.check.Checks;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code regheads risk}: the decoding paper's Fig. 2, risk against the tokenization depth K of binary-token density
 * estimates of a truncated normal N(0.5, 0.25^2) on [0, 1], theory beside measurement ({@link RiskExperiment}).
 *
 * <p>With K binary tokens the support is cut into 2^K equal bins of width h = 2^-K. The theory is the histogram's
 * leading-order mean integrated squared error (Scott 1979), the paper's
 * <pre>
 *   risk(K) = h^2 / 12 * int_0^1 f'(y)^2 dy + 1 / (N h),   h = 2^-K
 * </pre>
 * Measured, as the exact integrated squared error {@code int_0^1 (fhat - f)^2}:
 * <ul>
 *   <li>{@code histogram}: the empirical histogram of N samples (what any model that can represent every distribution
 *       over the 2^K leaves reaches by maximum likelihood), averaged over {@code --repeats} samples;</li>
 *   <li>{@code riemann} and {@code decoder}: a Riemann head of 2^K bins and a binary decoder of K tokens, each trained
 *       on N samples (constant input, {@code --steps} full-batch steps), at the K of {@code --trained-k}, averaged over
 *       {@code --runs} samples; beside the decoder, its mean {@code KL(empirical || model)} over the 2^K bins (how far
 *       it stayed from the histogram, the maximum-likelihood fit);</li>
 *   <li>the decoder trained at the largest of those K, read through its first k tokens for every k up to it ({@link
 *       io.regheads.heads.decoder.DecoderDistribution#firstTokens}, the paper's Fig. 3).</li>
 * </ul>
 * Example: N = 16384 has its theoretical optimum at K = 5.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "risk", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Figs. 2 and 3: risk vs number of binary tokens K for a truncated N(0.5, "
                + "0.25^2): theory, the histogram MLE, and trained Riemann and decoder heads; the decoder read at its "
                + "first k tokens.")
final class RiskCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--samples", paramLabel = "LIST", defaultValue = "1024,16384",
            description = "Sample sizes N (default: ${DEFAULT-VALUE}).")
    String samples;

    @Option(names = "--max-k", paramLabel = "K", defaultValue = "12", description = "Largest K of the theory and "
            + "the histogram (default: ${DEFAULT-VALUE}).")
    int maxK;

    @Option(names = "--repeats", paramLabel = "R", defaultValue = "50",
            description = "Samples drawn per (N, K) to average the histogram's risk (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--trained-k", paramLabel = "LIST", defaultValue = "2,4,6,8,10",
            description = "K values at which a Riemann head and a decoder are trained, or 'none' "
                    + "(default: ${DEFAULT-VALUE}).")
    String trainedK;

    @Option(names = "--runs", paramLabel = "R", defaultValue = "3",
            description = "Samples (seeds) per trained (N, K) (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--steps", paramLabel = "S", defaultValue = "600",
            description = "Full-batch training steps per trained head (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "runs/risk.png",
            description = "PNG file; the numbers go beside it as a .json (default: ${DEFAULT-VALUE}).")
    Path out;

    /** Density of the truncated normal at y in [0, 1]. */
    static double density(double y) {
        return RiskExperiment.density(y);
    }

    /** The leading-order risk h^2/12 int f'^2 + 1/(N h) with h = 2^-k. */
    static double theory(int k, int n) {
        return RiskExperiment.theory(k, n);
    }

    /** Exact integrated squared error of the 2^k-bin histogram of {@code y} against the truncated normal. */
    static double ise(double[] y, int k) {
        return RiskExperiment.ise(RiskExperiment.histogram(y, k));
    }

    /** n samples of the truncated normal by inversion of its CDF. */
    static double[] sample(int n, UniformRandomProvider rng) {
        return RiskExperiment.sample(n, rng);
    }

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        Checks.require(maxK >= 1 && maxK <= 16, "--max-k must be in 1..16, got %d", maxK);
        Checks.require(repeats >= 1, "--repeats must be >= 1, got %d", repeats);
        int[] ns;
        try {
            ns = Arrays.stream(samples.split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--samples must list integers such as 1024,16384, got '" + samples + "'");
        }
        for (int n : ns) {
            Checks.require(n >= 2, "--samples must be >= 2 each, got %d", n);
        }
        List<Integer> ks = new ArrayList<>();
        if (!trainedK.strip().equalsIgnoreCase("none")) {
            try {
                for (String s : trainedK.split(",")) {
                    ks.add(Integer.parseInt(s.strip()));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--trained-k must list integers such as 2,4,6 or be 'none', got '"
                        + trainedK + "'");
            }
        }
        RiskExperiment.Config c = new RiskExperiment.Config(Arrays.stream(ns).boxed().toList(), maxK, ks, runs, steps,
                seed);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        double[][][] hist = new double[ns.length][maxK][];
        for (int c0 = 0; c0 < ns.length; c0++) {
            for (int k = 1; k <= maxK; k++) {
                double[] v = new double[repeats];
                for (int r = 0; r < repeats; r++) {
                    v[r] = ise(sample(ns[c0], rng), k);
                }
                hist[c0][k - 1] = v;
            }
        }
        RiskExperiment.Result r = ks.isEmpty() ? new RiskExperiment.Result(c, List.of())
                : RiskExperiment.run(c, line -> System.err.println(line));
        o.printf(Locale.ROOT, "%7s %3s %12s %12s %12s %12s %10s %12s %10s %10s%n", "N", "K", "theory", "histogram",
                "std err", "riemann", "std err", "decoder", "std err", "dec. KL");
        for (int c0 = 0; c0 < ns.length; c0++) {
            for (int k = 1; k <= maxK; k++) {
                double[] ms = Stats.of(hist[c0][k - 1]);
                o.printf(Locale.ROOT, "%7d %3d %12.5g %12.5g %12.3g", ns[c0], k, theory(k, ns[c0]), ms[0],
                        ms[1] / Math.sqrt(repeats));
                for (String est : List.of("riemann", "decoder")) {
                    Point p = find(r, est, ns[c0], k);
                    if (p == null) {
                        o.printf(Locale.ROOT, " %12s %10s", "-", "-");
                    } else {
                        double[] s = Stats.of(p.perRun());
                        o.printf(Locale.ROOT, " %12.5g %10.3g", s[0], s[1] / Math.sqrt(p.perRun().length));
                    }
                }
                Point dec = find(r, "decoder", ns[c0], k);
                if (dec != null) {
                    o.printf(Locale.ROOT, " %10.3g", Stats.of(dec.klPerRun())[0]);
                }
                o.println();
            }
        }
        int top = ks.stream().mapToInt(Integer::intValue).max().orElse(0);
        if (top > 0) {
            o.printf(Locale.ROOT, "the decoder trained with K = %d read through its first k tokens (Fig. 3):%n", top);
            o.printf(Locale.ROOT, "%7s %3s %12s %12s %12s %10s%n", "N", "k", "theory", "histogram", "decoder k", "std err");
            for (int c0 = 0; c0 < ns.length; c0++) {
                for (int k = 1; k <= top; k++) {
                    Point p = find(r, "decoder k of " + top, ns[c0], k);
                    double[] s = Stats.of(p.perRun());
                    o.printf(Locale.ROOT, "%7d %3d %12.5g %12.5g %12.5g %10.3g%n", ns[c0], k, theory(k, ns[c0]),
                            Stats.of(hist[c0][k - 1])[0], s[0], s[1] / Math.sqrt(p.perRun().length));
                }
            }
        }
        plot(ns, hist, r, top);
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("experiment", "risk");
        json.put("config", Map.of("samples", ns, "maxK", maxK, "repeats", repeats, "trainedK",
                ks.stream().mapToInt(Integer::intValue).toArray(), "runs", runs, "steps", steps, "seed", seed));
        List<Object> pts = new ArrayList<>();
        for (int c0 = 0; c0 < ns.length; c0++) {
            for (int k = 1; k <= maxK; k++) {
                pts.add(Map.of("estimator", "histogram", "n", ns[c0], "k", k, "perRun", hist[c0][k - 1], "theory",
                        theory(k, ns[c0])));
            }
        }
        for (Point p : r.points()) {
            if (!p.estimator().equals("theory") && !p.estimator().equals("histogram")) {
                pts.add(Map.of("estimator", p.estimator(), "n", p.n(), "k", p.k(), "perRun", p.perRun(),
                        "klPerRun", p.klPerRun()));
            }
        }
        json.put("points", pts);
        String name = out.getFileName().toString();
        Figures.json(json, out.resolveSibling(name.endsWith(".png") ? name.substring(0, name.length() - 4) + ".json"
                : name + ".json"));
        o.println("plot: " + out);
        o.flush();
        return 0;
    }

    private static Point find(RiskExperiment.Result r, String estimator, int n, int k) {
        return r.points().stream().filter(p -> p.estimator().equals(estimator) && p.n() == n && p.k() == k)
                .findFirst().orElse(null);
    }

    private void plot(int[] ns, double[][][] hist, RiskExperiment.Result r, int top) {
        XYChart chart = new XYChartBuilder().width(900).height(560)
                .title("Risk vs K, truncated N(0.5, 0.25^2): theory (lines), histogram MLE (dots), trained heads")
                .xAxisTitle("K (binary tokens; 2^K bins)").yAxisTitle("integrated squared error").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        Color[] colors = {new Color(30, 90, 200), new Color(200, 60, 30), new Color(40, 150, 60)};
        for (int c = 0; c < ns.length; c++) {
            int n = ns[c];
            double[] kx = new double[maxK];
            double[] th = new double[maxK];
            double[] me = new double[maxK];
            for (int k = 1; k <= maxK; k++) {
                kx[k - 1] = k;
                th[k - 1] = theory(k, n);
                me[k - 1] = Stats.of(hist[c][k - 1])[0];
            }
            Color col = colors[c % colors.length];
            XYSeries t = chart.addSeries("theory N=" + n, kx, th);
            t.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            t.setMarker(SeriesMarkers.NONE);
            t.setLineColor(col);
            t.setLineStyle(new BasicStroke(1.5f));
            XYSeries m = chart.addSeries("histogram N=" + n, kx, me);
            m.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            m.setMarker(SeriesMarkers.CIRCLE);
            m.setMarkerColor(col);
            String[] est = top > 0 ? new String[] {"riemann", "decoder", "decoder k of " + top} : new String[0];
            for (int e = 0; e < est.length; e++) {
                String name = est[e];
                List<Point> ps = r.points().stream().filter(p -> p.estimator().equals(name) && p.n() == n).toList();
                if (ps.isEmpty()) {
                    continue;
                }
                XYSeries s = chart.addSeries(name + " N=" + n, ps.stream().mapToDouble(Point::k).toArray(),
                        ps.stream().mapToDouble(Point::value).toArray());
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                s.setMarker(e == 0 ? SeriesMarkers.SQUARE : e == 1 ? SeriesMarkers.DIAMOND : SeriesMarkers.TRIANGLE_UP);
                s.setMarkerColor(col);
                s.setLineColor(col);
                s.setLineStyle(e == 2 ? new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                        new float[] {2f, 3f}, 0f) : new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER,
                        10f, new float[] {6f, 4f}, 0f));
            }
        }
        try {
            if (out.toAbsolutePath().getParent() != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
            }
            BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot write " + out + ": " + e.getMessage(), e);
        }
    }
}
