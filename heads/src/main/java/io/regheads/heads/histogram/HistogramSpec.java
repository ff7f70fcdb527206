package io.regheads.heads.histogram;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.internal.Checks;
import io.regheads.core.io.Settings;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The histogram head ({@link HistogramHead}) as a model's head: {@code bins} equal bins on [0, 1] of y01 (centre
 * 0), optionally with half-normal tails, trained with cross-entropy.
 *
 * <p>Settings, version 1: {@code head=histogram}, {@code head.version=1}, {@code head.bins=<int>}, {@code
 * head.tails=true|false}.
 *
 * @param bins  number of bins, >= 1 (>= 2 with tails)
 * @param tails half-normal tails beyond [0, 1]
 */
public record HistogramSpec(int bins, boolean tails) implements HeadSpec {
    /** The registry name {@code histogram}, settings version 1 (the newest this class reads). */
    public static final Kind KIND = new Kind("histogram", 1);

    /** @throws IllegalArgumentException if bins is below 1, or below 2 with tails */
    public HistogramSpec {
        Checks.atLeast("bins", bins, tails ? 2 : 1);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static HistogramSpec of(Properties p) {
        Settings s = KIND.read(p, "bins", "tails");
        int bins = s.integer("bins");
        boolean tails = s.bool("tails");
        return s.validated(() -> new HistogramSpec(bins, tails));
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        return Settings.writer().put("bins", bins).put("tails", tails).map();
    }

    @Override
    public HistogramHead build(int inputWidth, long seed, DataType type) {
        return new HistogramHead(
                new HistogramHead.Config(inputWidth, HistogramDistribution.equalBorders(bins, 0, 1), tails, seed), type);
    }

    /** @return MIN_MAX: the bins cover y01 in [0, 1] */
    @Override
    public TargetScaling targetScaling() {
        return TargetScaling.MIN_MAX;
    }

    /** @return {@code "ce"} */
    @Override
    public String defaultLoss() {
        return "ce";
    }
}
