package io.regheads.heads.histogram;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The histogram head ({@link HistogramHead}) as a model's head: {@code bins} equal bins on {@code [low, high]} of
 * y01, by default [0, 1] (centre 0), optionally with half-normal tails, trained by default with Gaussian-smoothed
 * cross-entropy ({@link #defaultLoss()}). The head's bin borders are {@link #borders()}.
 *
 * <p>Settings, version 1: {@code head=histogram}, {@code head.version=1}, {@code head.bins=<int>}, {@code
 * head.tails=true|false}, and, for bins on another range than [0, 1], {@code head.low=<double>} and {@code
 * head.high=<double>} (together; a spec on [0, 1] writes neither, as every spec did before the range was a setting).
 *
 * @param bins  number of bins, >= 1 (>= 2 with tails)
 * @param tails half-normal tails beyond the outer borders
 * @param low   the first border, finite
 * @param high  the last border, finite and > low
 */
public record HistogramSpec(int bins, boolean tails, double low, double high) implements HeadSpec {
    /** The registry name {@code histogram}, settings version 1 (the newest this class reads). */
    public static final Kind KIND = new Kind("histogram", 1);

    /**
     * @throws IllegalArgumentException if bins is below 1, or below 2 with tails, or the range is not finite and
     *                                  increasing, or too narrow for {@code bins} distinct borders
     */
    public HistogramSpec {
        Checks.atLeast("bins", bins, tails ? 2 : 1);
        Checks.finite("low", low);
        Checks.finite("high", high);
        Checks.require(high > low, "high must be > low, got low = %s, high = %s", low, high);
        low += 0.0; // -0.0 as 0.0: the same borders, and the range [0, 1] that writes no keys
        high += 0.0;
        Bins.of(HistogramDistribution.equalBorders(bins, low, high), tails); // every border distinct
    }

    /**
     * {@code bins} equal bins on [0, 1] (the paper's Riemann baseline; the PyTorch reference implementation uses
     * 256).
     */
    public HistogramSpec(int bins, boolean tails) {
        this(bins, tails, 0, 1);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static HistogramSpec of(Properties p) {
        Settings s = KIND.read(p, "bins", "tails", "low", "high");
        int bins = s.integer("bins");
        boolean tails = s.bool("tails");
        boolean range = s.has("low") || s.has("high");
        double low = range ? s.real("low") : 0;
        double high = range ? s.real("high") : 1;
        return s.validated(() -> new HistogramSpec(bins, tails, low, high));
    }

    /**
     * The bin borders: {@code bins + 1} equal steps from low to high ({@link HistogramDistribution#equalBorders}).
     *
     * @return a new array {@code [bins + 1]}
     */
    public double[] borders() {
        return HistogramDistribution.equalBorders(bins, low, high);
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        Settings.Writer w = Settings.writer().put("bins", bins).put("tails", tails);
        if (low != 0 || high != 1) {
            w.put("low", low).put("high", high);
        }
        return w.map();
    }

    @Override
    public HistogramHead build(int inputWidth, long seed, DataType type) {
        return new HistogramHead(this, inputWidth, seed, type);
    }

    /** @return MIN_MAX: the bins cover y01 in [low, high] ([0, 1] by default) */
    @Override
    public TargetScaling targetScaling() {
        return TargetScaling.MIN_MAX;
    }

    /** The default loss's Gaussian width as a share of the bins' range {@code high - low}. */
    public static final double DEFAULT_GCE_WIDTH = 0.05;

    /**
     * @return {@code "gce:<w>"} with {@code w = }{@value #DEFAULT_GCE_WIDTH}{@code  * (high - low)}, {@code "gce:0.05"}
     *         on [0, 1]: cross-entropy against a Gaussian over the bin centres (the HL-Gauss loss of Farebrother et
     *         al., arXiv:2403.03950); plain {@code ce} over-fits single bins and stops early (docs/defaults.md)
     */
    @Override
    public String defaultLoss() {
        return "gce:" + (float) (DEFAULT_GCE_WIDTH * (high - low));
    }
}
