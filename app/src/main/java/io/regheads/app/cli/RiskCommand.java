package io.regheads.app.cli;

import io.regheads.core.internal.Checks;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.distribution.NormalDistribution;
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
 * {@code regheads risk}: the decoding paper's Fig. 2, risk against the tokenization depth K of a binary-token
 * density estimate of a truncated normal N(0.5, 0.25^2) on [0, 1], theory beside measurement.
 *
 * <p>With K binary tokens the support is cut into 2^K equal bins of width h = 2^-K. An unconditional
 * autoregressive model over the K tokens that is fully fitted by maximum likelihood gives each leaf its empirical
 * frequency (the chain rule factorises the categorical MLE exactly), i.e. the histogram estimator. Its mean
 * integrated squared error is, to leading order (Scott 1979),
 * <pre>
 *   risk(K) = h^2 / 12 * int_0^1 f'(y)^2 dy + 1 / (N h),   h = 2^-K
 * </pre>
 * (the paper's {@code 2^-2K/12 * int f'^2 + 2^K/N}). Measured: the exact integrated squared error {@code int_0^1
 * (fhat - f)^2 = int f^2 - 2 sum_j fhat_j F_j + h sum_j fhat_j^2} (F_j the mass of f in bin j, by the normal CDF)
 * of the histogram of N samples, averaged over {@code --repeats} samples. Example: N = 16384 has its theoretical
 * optimum at K = 5.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "risk", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Fig. 2: risk vs number of binary tokens K for a truncated N(0.5, 0.25^2), "
                + "theory vs measured (histogram MLE = fully fitted unconditional binary-token decoder).")
final class RiskCommand implements Callable<Integer> {
    static final double MU = 0.5;
    static final double SIGMA = 0.25;
    private static final NormalDistribution STD = NormalDistribution.of(0, 1);
    /** Mass of N(0.5, 0.25^2) on [0, 1]: Phi(2) - Phi(-2). */
    static final double Z = STD.cumulativeProbability(2) - STD.cumulativeProbability(-2);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--samples", paramLabel = "LIST", defaultValue = "1024,16384",
            description = "Sample sizes N (default: ${DEFAULT-VALUE}).")
    String samples;

    @Option(names = "--max-k", paramLabel = "K", defaultValue = "10", description = "Largest K (default: ${DEFAULT-VALUE}).")
    int maxK;

    @Option(names = "--repeats", paramLabel = "R", defaultValue = "50",
            description = "Samples drawn per (N, K) to average the measured risk (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "runs/risk.png",
            description = "PNG file (default: ${DEFAULT-VALUE}).")
    Path out;

    /** Density of the truncated normal at y in [0, 1]. */
    static double density(double y) {
        return STD.density((y - MU) / SIGMA) / (SIGMA * Z);
    }

    /** Mass of the truncated normal in [a, b] (within [0, 1]). */
    static double mass(double a, double b) {
        return (STD.cumulativeProbability((b - MU) / SIGMA) - STD.cumulativeProbability((a - MU) / SIGMA)) / Z;
    }

    /** int_0^1 g by composite Simpson's rule on 20000 intervals. */
    static double integrate(java.util.function.DoubleUnaryOperator g) {
        int n = 20000;
        double h = 1.0 / n;
        double s = g.applyAsDouble(0) + g.applyAsDouble(1);
        for (int i = 1; i < n; i++) {
            s += (i % 2 == 1 ? 4 : 2) * g.applyAsDouble(i * h);
        }
        return s * h / 3;
    }

    /** The leading-order risk h^2/12 int f'^2 + 1/(N h) with h = 2^-k. */
    static double theory(int k, int n) {
        double fPrime2 = integrate(y -> {
            double d = density(y) * (MU - y) / (SIGMA * SIGMA); // f'(y) = -f(y) (y - mu) / sigma^2
            return d * d;
        });
        double h = Math.pow(2, -k);
        return h * h / 12 * fPrime2 + 1 / (n * h);
    }

    /** Exact integrated squared error of the 2^k-bin histogram of {@code y} against the truncated normal. */
    static double ise(double[] y, int k) {
        int bins = 1 << k;
        double h = 1.0 / bins;
        int[] counts = new int[bins];
        for (double v : y) {
            Checks.require(v >= 0 && v <= 1, "samples must lie in [0, 1], got %s", v);
            counts[Math.min((int) (v * bins), bins - 1)]++;
        }
        double f2 = integrate(t -> density(t) * density(t));
        double cross = 0;
        double self = 0;
        for (int j = 0; j < bins; j++) {
            double fhat = counts[j] / (y.length * h);
            cross += fhat * mass(j * h, (j + 1) * h);
            self += fhat * fhat * h;
        }
        return f2 - 2 * cross + self;
    }

    /** n samples of the truncated normal by inversion of its CDF. */
    static double[] sample(int n, UniformRandomProvider rng) {
        double lo = STD.cumulativeProbability(-2);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double u = lo + rng.nextDouble() * Z;
            y[i] = Math.min(1, Math.max(0, MU + SIGMA * STD.inverseCumulativeProbability(u)));
        }
        return y;
    }

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        Checks.require(maxK >= 1 && maxK <= 16, "--max-k must be in 1..16, got %d", maxK);
        Checks.require(repeats >= 1, "--repeats must be >= 1, got %d", repeats);
        int[] ns;
        try {
            ns = java.util.Arrays.stream(samples.split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--samples must list integers such as 1024,16384, got '" + samples + "'");
        }
        for (int n : ns) {
            Checks.require(n >= 2, "--samples must be >= 2 each, got %d", n);
        }
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title("Risk vs K, truncated N(0.5, 0.25^2): theory (lines) vs measured (dots)")
                .xAxisTitle("K (binary tokens; 2^K bins)").yAxisTitle("integrated squared error").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideN);
        Color[] colors = {new Color(30, 90, 200), new Color(200, 60, 30), new Color(40, 150, 60)};
        o.printf(Locale.ROOT, "%7s %3s %12s %12s %12s%n", "N", "K", "theory", "measured", "std err");
        for (int c = 0; c < ns.length; c++) {
            int n = ns[c];
            double[] ks = new double[maxK];
            double[] th = new double[maxK];
            double[] me = new double[maxK];
            for (int k = 1; k <= maxK; k++) {
                double[] v = new double[repeats];
                for (int r = 0; r < repeats; r++) {
                    v[r] = ise(sample(n, rng), k);
                }
                double[] ms = Stats.of(v);
                ks[k - 1] = k;
                th[k - 1] = theory(k, n);
                me[k - 1] = ms[0];
                o.printf(Locale.ROOT, "%7d %3d %12.5g %12.5g %12.3g%n", n, k, th[k - 1], ms[0], ms[1] / Math.sqrt(repeats));
            }
            Color col = colors[c % colors.length];
            XYSeries t = chart.addSeries("theory N=" + n, ks, th);
            t.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            t.setMarker(SeriesMarkers.NONE);
            t.setLineColor(col);
            t.setLineStyle(new BasicStroke(1.5f));
            XYSeries m = chart.addSeries("measured N=" + n, ks, me);
            m.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            m.setMarker(SeriesMarkers.CIRCLE);
            m.setMarkerColor(col);
        }
        try {
            if (out.toAbsolutePath().getParent() != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
            }
            BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot write " + out + ": " + e.getMessage(), e);
        }
        o.println("plot: " + out);
        o.flush();
        return 0;
    }
}
