package io.regheads.app.cli;

import io.regheads.core.check.Checks;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG pictures of one head's test predictions (XChart {@link BitmapEncoder}, 800 x 500, headless).
 *
 * <ul>
 *   <li>{@link #intervals}: the test rows sorted by their true y (x axis: rank); per row the truth (black dots),
 *       the point prediction (blue dots) and the central 90% interval (5% and 95% quantiles, grey band edges).
 *       A calibrated head has about 90% of the black dots between the grey lines. The y axis is titled with the
 *       target's name and its ticks are plain numbers with as many decimals as the data's range needs ({@link
 *       #tickPattern}: {@code 0.000123}, not {@code 1.23E-4}; {@code 31,000}, not {@code 3.1E4}).</li>
 *   <li>{@link #pit}: the PIT histogram, counts of F(y) over 10 equal bins, with the flat line N/10 of a calibrated
 *       head; a U shape means intervals too narrow, a hump too wide, a slope a biased mean.</li>
 * </ul>
 *
 * <p>Stateless and thread-safe (each call builds its own chart).
 */
public final class Plots {
    private static final int WIDTH = 800;
    private static final int HEIGHT = 500;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Plots() {}

    /**
     * Writes the interval plot of {@code r} to {@code file} (".png" appended by XChart if missing).
     *
     * @throws java.io.UncheckedIOException if the file cannot be written
     */
    public static void intervals(HeadRun.Result r, String title, Path file) {
        intervals(r, title, "y", file);
    }

    /**
     * As {@link #intervals(HeadRun.Result, String, Path)} with the y axis titled {@code target}, the name of the
     * target column.
     *
     * @throws java.io.UncheckedIOException if the file cannot be written
     */
    public static void intervals(HeadRun.Result r, String title, String target, Path file) {
        Checks.notNull("r", r);
        int n = r.y().length;
        Integer[] boxed = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(boxed, Comparator.comparingDouble(i -> r.y()[i]));
        double[] rank = new double[n];
        double[] y = new double[n];
        double[] mean = new double[n];
        double[] lo = new double[n];
        double[] hi = new double[n];
        for (int k = 0; k < n; k++) {
            int i = boxed[k];
            rank[k] = k;
            y[k] = r.y()[i];
            mean[k] = r.point()[i];
            lo[k] = finiteOr(r.lower()[i], mean[k]);
            hi[k] = finiteOr(r.upper()[i], mean[k]);
        }
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("test rows sorted by true " + target).yAxisTitle(target).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setXAxisDecimalPattern("#0");
        chart.getStyler().setYAxisDecimalPattern(tickPattern(y, lo, hi, mean));
        chart.getStyler().setMarkerSize(5);
        Color band = new Color(150, 150, 150);
        for (String name : new String[] {"90% interval (5%)", "90% interval (95%)"}) {
            XYSeries s = chart.addSeries(name, rank, name.contains("(5%)") ? lo : hi);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(band);
            s.setLineStyle(new BasicStroke(1f));
        }
        XYSeries m = chart.addSeries("predictive " + r.pointName(), rank, mean);
        m.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        m.setMarker(SeriesMarkers.CIRCLE);
        m.setMarkerColor(new Color(30, 90, 200));
        XYSeries t = chart.addSeries("truth", rank, y);
        t.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        t.setMarker(SeriesMarkers.CIRCLE);
        t.setMarkerColor(Color.BLACK);
        save(chart, file);
    }

    /**
     * Writes the PIT histogram of {@code r} to {@code file}.
     *
     * @throws java.io.UncheckedIOException if the file cannot be written
     */
    public static void pit(HeadRun.Result r, String title, Path file) {
        Checks.notNull("r", r);
        int[] counts = r.pitHistogram();
        int bins = counts.length;
        String[] labels = new String[bins];
        double[] c = new double[bins];
        double[] flat = new double[bins];
        for (int b = 0; b < bins; b++) {
            labels[b] = String.format(java.util.Locale.ROOT, "%.1f-%.1f", (double) b / bins, (double) (b + 1) / bins);
            c[b] = counts[b];
            flat[b] = (double) r.pit().length / bins;
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("PIT = F(y)").yAxisTitle("test rows").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setOverlapped(true);
        CategorySeries bars = chart.addSeries("PIT counts", Arrays.asList(labels), toList(c));
        bars.setFillColor(new Color(30, 90, 200));
        CategorySeries line = chart.addSeries("calibrated (N/10)", Arrays.asList(labels), toList(flat));
        line.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        line.setLineColor(Color.BLACK);
        line.setMarker(SeriesMarkers.NONE);
        save(chart, file);
    }

    /**
     * A {@link java.text.DecimalFormat} pattern for plain tick labels of the values in {@code columns}: grouped
     * integer digits and as many decimals as a tenth of their range needs (at least the first significant digit of
     * a tick step, at most 12), e.g. range 1e-4: {@code #,##0.000000}; range 3000: {@code #,##0}.
     */
    static String tickPattern(double[]... columns) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double[] c : columns) {
            for (double v : c) {
                if (Double.isFinite(v)) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
        }
        double step = (hi - lo) / 10;
        if (!(step > 0) || !Double.isFinite(step)) {
            step = Math.max(Math.abs(hi), 1e-12) / 10;
        }
        int decimals = (int) Math.max(0, Math.min(12, Math.ceil(-Math.log10(step))));
        return decimals == 0 ? "#,##0" : "#,##0." + "0".repeat(decimals);
    }

    private static java.util.List<Double> toList(double[] v) {
        return Arrays.stream(v).boxed().toList();
    }

    private static double finiteOr(double v, double fallback) {
        return Double.isFinite(v) ? v : fallback;
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path file) {
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
