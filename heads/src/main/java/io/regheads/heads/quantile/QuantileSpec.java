package io.regheads.heads.quantile;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.PiecewiseQuantiles;
import io.regheads.core.io.Settings;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The quantile head ({@link QuantileHead}) as a model's head: L non-crossing quantiles of {@code y01 - 0.5} at fixed
 * levels, trained with the pinball loss averaged over the levels ({@code pinball}; {@code crps} also applies).
 *
 * <p>Settings, version 1: {@code head=quantile}, {@code head.version=1}, {@code head.levels=<l_0>,<l_1>,...} (each as
 * {@link Double#toString} writes it, so a file round-trips exactly) and {@code head.incrementFloor=<double>}.
 *
 * <p>Example: {@code new QuantileSpec()} has the 99 levels 0.01, 0.02, ..., 0.99; {@code new QuantileSpec(0.1, 0.5,
 * 0.9)} three.
 *
 * @param levels         L &gt;= 2 strictly increasing levels in (0, 1) (copied; the accessor returns a copy)
 * @param incrementFloor the smallest gap between consecutive knots in the head's units, &gt; 0 and finite
 */
public record QuantileSpec(double[] levels, double incrementFloor) implements HeadSpec {
    /** The registry name and the settings version this class writes and reads. */
    public static final Kind KIND = new Kind("quantile", 1);
    /** The number of levels of {@link #QuantileSpec()}. */
    public static final int DEFAULT_LEVELS = 99;

    /** @throws IllegalArgumentException on invalid levels or a floor that is not &gt; 0 and finite */
    public QuantileSpec {
        levels = PiecewiseQuantiles.checkLevels("levels", levels).clone();
        Checks.require(incrementFloor > 0 && incrementFloor < Double.POSITIVE_INFINITY, "incrementFloor must be > 0 and "
                + "finite, got %s", incrementFloor);
    }

    /** These levels with the default floor {@link QuantileHead#INCREMENT_FLOOR}. */
    public QuantileSpec(double... levels) {
        this(levels, QuantileHead.INCREMENT_FLOOR);
    }

    /** The 99 equally spaced levels {@code 0.01, ..., 0.99} ({@link #equallySpaced}). */
    public QuantileSpec() {
        this(equallySpaced(DEFAULT_LEVELS));
    }

    /**
     * The levels {@code (l + 1) / (count + 1)}, l = 0..count-1 (each rounded once, so 99 gives exactly 0.01, ...,
     * 0.99 as written).
     *
     * @param count at least 2
     * @throws IllegalArgumentException if count is below 2
     */
    public static double[] equallySpaced(int count) {
        Checks.atLeast("count", count, 2);
        double[] t = new double[count];
        for (int l = 0; l < count; l++) {
            t[l] = (l + 1.0) / (count + 1);
        }
        return t;
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static QuantileSpec of(Properties p) {
        Settings s = KIND.read(p, "levels", "incrementFloor");
        String raw = s.string("levels");
        String[] parts = raw.split(",", -1);
        double[] levels = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                levels[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(s.key("levels") + " must list numbers separated by commas, got '"
                        + parts[i].trim() + "' at position " + i, e);
            }
        }
        double floor = s.real("incrementFloor");
        return s.validated(() -> new QuantileSpec(levels, floor));
    }

    /** {@return a copy of the levels} */
    @Override
    public double[] levels() {
        return levels.clone();
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        StringJoiner j = new StringJoiner(",");
        for (double t : levels) {
            j.add(Double.toString(t));
        }
        Map<String, String> m = new LinkedHashMap<>();
        m.put("levels", j.toString());
        m.put("incrementFloor", Double.toString(incrementFloor));
        return m;
    }

    @Override
    public QuantileHead build(int inputWidth, long seed, DataType type) {
        return new QuantileHead(this, inputWidth, seed, type);
    }

    /** @return CENTRED_MIN_MAX: the head sees y01 - 0.5 */
    @Override
    public TargetScaling targetScaling() {
        return TargetScaling.CENTRED_MIN_MAX;
    }

    /** @return {@code "pinball"} (the pinball loss averaged over the levels) */
    @Override
    public String defaultLoss() {
        return "pinball";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuantileSpec q && Arrays.equals(q.levels, levels)
                && Double.compare(q.incrementFloor, incrementFloor) == 0;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(levels) * 31 + Double.hashCode(incrementFloor);
    }

    @Override
    public String toString() {
        return "QuantileSpec[levels=" + describe(levels) + ", incrementFloor=" + incrementFloor + "]";
    }

    /** Up to 7 levels in full, else {@code "99 levels 0.01..0.99 (equally spaced)"}. */
    static String describe(double[] levels) {
        if (levels.length <= 7) {
            return Arrays.toString(levels);
        }
        boolean equal = Arrays.equals(levels, equallySpaced(levels.length));
        return levels.length + " levels " + levels[0] + ".." + levels[levels.length - 1]
                + (equal ? " (equally spaced)" : "");
    }
}
