package io.regheads.heads.pointwise;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.io.Settings;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The pointwise head ({@link PointwiseHead}) as a model's head: MSE on {@code y01 - 0.5}, or on y01 through a
 * sigmoid (centre 0). Its noise level is the head's after-fit step ({@link PointwiseHead#afterFit}).
 *
 * <p>Settings, version 1: {@code head=pointwise}, {@code head.version=1}, {@code head.sigmoid=true|false}.
 *
 * @param sigmoid squash the output into (0, 1)
 */
public record PointwiseSpec(boolean sigmoid) implements HeadSpec {
    /** The registry name {@code pointwise}, settings version 1 (the newest this class reads). */
    public static final Kind KIND = new Kind("pointwise", 1);

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed or unknown
     */
    public static PointwiseSpec of(Properties p) {
        Settings s = KIND.read(p, "sigmoid");
        return new PointwiseSpec(s.bool("sigmoid"));
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        return Settings.writer().put("sigmoid", sigmoid).map();
    }

    @Override
    public PointwiseHead build(int inputWidth, long seed, DataType type) {
        return new PointwiseHead(this, inputWidth, seed, type);
    }

    /** @return MIN_MAX with the sigmoid (y01 in (0, 1)), else CENTRED_MIN_MAX (y01 - 0.5) */
    @Override
    public TargetScaling targetScaling() {
        return sigmoid ? TargetScaling.MIN_MAX : TargetScaling.CENTRED_MIN_MAX;
    }

    /** @return {@code "mse"} */
    @Override
    public String defaultLoss() {
        return "mse";
    }
}
