package io.regheads.app.experiments;

import io.regheads.app.cli.Json;
import io.regheads.core.check.Checks;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Pictures and files of the experiments: XChart line and scatter charts, several charts tiled into one PNG under a
 * common title, the run directory and the JSON file of the numbers.
 *
 * <p>Colours are fixed per series index ({@link #color}) so that a head keeps its colour across panels. Stateless
 * and thread-safe (each call builds its own chart or image).
 */
public final class Figures {
    private static final Color[] PALETTE = {new Color(31, 119, 180), new Color(214, 39, 40), new Color(44, 160, 44),
        new Color(255, 127, 14), new Color(148, 103, 189), new Color(140, 86, 75), new Color(227, 119, 194),
        new Color(127, 127, 127), new Color(188, 189, 34), new Color(23, 190, 207)};

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Figures() {}

    /** The i-th colour of a ten-colour palette (cycling). */
    public static Color color(int i) {
        return PALETTE[Math.floorMod(i, PALETTE.length)];
    }

    /** {@code c} with opacity {@code alpha} in [0, 255]. */
    public static Color withAlpha(Color c, int alpha) {
        return new Color(c.getRed(), c.getGreen(), c.getBlue(), alpha);
    }

    /** An empty XY chart of the given size with a legend inside the plot area. */
    public static XYChart chart(int width, int height, String title, String xTitle, String yTitle) {
        XYChart c = new XYChartBuilder().width(width).height(height).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle)
                .build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        c.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        c.getStyler().setMarkerSize(4);
        c.getStyler().setXAxisLogarithmicDecadeOnly(false); // label 2, 3, 5 ... too when an axis is logarithmic
        c.getStyler().setYAxisLogarithmicDecadeOnly(false);
        return c;
    }

    /** A line with circle markers; non-finite y values are left out (drawn as gaps). */
    public static XYSeries line(XYChart chart, String name, double[] x, double[] y, Color color) {
        XYSeries s = chart.addSeries(name, x, gaps(y));
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setMarkerColor(color);
        s.setLineColor(color);
        s.setLineStyle(new BasicStroke(1.8f));
        return s;
    }

    /** A line without markers. */
    public static XYSeries curve(XYChart chart, String name, double[] x, double[] y, Color color, float width) {
        XYSeries s = chart.addSeries(name, x, gaps(y));
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(new BasicStroke(width));
        return s;
    }

    /** Points only. */
    public static XYSeries points(XYChart chart, String name, double[] x, double[] y, Color color) {
        XYSeries s = chart.addSeries(name, x, gaps(y));
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setMarkerColor(color);
        return s;
    }

    private static double[] gaps(double[] y) {
        double[] out = y.clone();
        for (int i = 0; i < out.length; i++) {
            if (!Double.isFinite(out[i])) {
                out[i] = Double.NaN; // XChart skips NaN points
            }
        }
        return out;
    }

    /**
     * Writes {@code charts} tiled row by row, {@code columns} per row (every chart at its own size; the cell is the
     * largest), under {@code title} in a band at the top.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void grid(List<XYChart> charts, int columns, String title, Path file) {
        Checks.require(!charts.isEmpty(), "charts must not be empty");
        Checks.atLeast("columns", columns, 1);
        int cw = 0;
        int ch = 0;
        for (XYChart c : charts) {
            cw = Math.max(cw, c.getWidth());
            ch = Math.max(ch, c.getHeight());
        }
        int cols = Math.min(columns, charts.size());
        int rows = (charts.size() + cols - 1) / cols;
        Font font = new Font(Font.SANS_SERIF, Font.BOLD, 17);
        BufferedImage probe = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D pg = probe.createGraphics();
        List<String> lines = wrap(title, pg.getFontMetrics(font), cols * cw - 24);
        pg.dispose();
        int band = 14 + 24 * lines.size();
        BufferedImage img = new BufferedImage(cols * cw, band + rows * ch, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(font);
        for (int i = 0; i < lines.size(); i++) {
            g.drawString(lines.get(i), 12, 27 + 24 * i);
        }
        for (int k = 0; k < charts.size(); k++) {
            XYChart c = charts.get(k);
            Graphics2D cell = (Graphics2D) g.create((k % cols) * cw, band + (k / cols) * ch, c.getWidth(), c.getHeight());
            c.paint(cell, c.getWidth(), c.getHeight());
            cell.dispose();
        }
        g.dispose();
        write(img, file);
    }

    /** Words of {@code text} in lines no wider than {@code width} pixels. */
    private static List<String> wrap(String text, java.awt.FontMetrics fm, int width) {
        List<String> lines = new java.util.ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            String next = line.length() == 0 ? word : line + " " + word;
            if (line.length() > 0 && fm.stringWidth(next) > width) {
                lines.add(line.toString());
                line = new StringBuilder(word);
            } else {
                line = new StringBuilder(next);
            }
        }
        lines.add(line.toString());
        return lines;
    }

    /** Writes one chart. @throws UncheckedIOException if the file cannot be written */
    public static void save(XYChart chart, Path file) {
        write(BitmapEncoder.getBufferedImage(chart), file);
    }

    private static void write(BufferedImage img, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            ImageIO.write(img, "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The directory to write into: {@code out} if given, else {@code runs/<name>-<yyyyMMdd-HHmmss>}; created.
     *
     * @throws UncheckedIOException if it cannot be created
     */
    public static Path runDirectory(Path out, String name) {
        Path dir = out != null ? out
                : Path.of("runs", name + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot create directory " + dir + ": " + e.getMessage(), e);
        }
        return dir;
    }

    /** Writes {@code numbers} as JSON ({@link Json}) to {@code file}. @throws UncheckedIOException on failure */
    public static void json(Map<String, ?> numbers, Path file) {
        try {
            Files.writeString(file, Json.write(numbers) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
