package io.regheads.heads.xval;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The xVal number head ({@link XValHead}) as a model's head: an MLP with {@code hidden} GELU units and a scalar
 * output on {@code y01 - 0.5}, trained with MSE; or, with {@code learnedVariance}, a Gaussian with a learned sigma
 * trained with its NLL ({@code ce}). The point head's noise level is its after-fit step ({@link XValHead#afterFit}),
 * as for the pointwise head. The xVal paper sets the hidden width to the embedding width: {@link #paper(int)},
 * {@code XValSpec.paper(256)} under the default 256-wide encoder. The spec is the head's whole configuration: {@code
 * spec.build(D, seed, type)} makes the head.
 *
 * <p>Settings, version 1: {@code head=xval}, {@code head.version=1}, {@code head.hidden=<int>}, {@code
 * head.learnedVariance=true|false}.
 *
 * @param hidden          H >= 1
 * @param learnedVariance emit a Gaussian with a learned sigma instead of a point
 */
public record XValSpec(int hidden, boolean learnedVariance) implements HeadSpec {
    /** The registry name {@code xval}, settings version 1 (the newest this class reads). */
    public static final Kind KIND = new Kind("xval", 1);

    /** @throws IllegalArgumentException if hidden is below 1 */
    public XValSpec {
        Checks.atLeast("hidden", hidden, 1);
    }

    /**
     * The paper's head over a {@code width}-wide embedding: hidden width H = the embedding width, point output.
     *
     * @param width the embedding width D, which is also H
     * @throws IllegalArgumentException if width is below 1
     */
    public static XValSpec paper(int width) {
        return new XValSpec(width, false);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static XValSpec of(Properties p) {
        Settings s = KIND.read(p, "hidden", "learnedVariance");
        int hidden = s.integer("hidden");
        boolean learned = s.bool("learnedVariance");
        return s.validated(() -> new XValSpec(hidden, learned));
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        return Settings.writer().put("hidden", hidden).put("learnedVariance", learnedVariance).map();
    }

    @Override
    public XValHead build(int inputWidth, long seed, DataType type) {
        return new XValHead(this, inputWidth, seed, type);
    }

    /** @return CENTRED_MIN_MAX: the head sees y01 - 0.5 */
    @Override
    public TargetScaling targetScaling() {
        return TargetScaling.CENTRED_MIN_MAX;
    }

    /** @return {@code "mse"} for the point head, {@code "ce"} (the Gaussian NLL) with a learned variance */
    @Override
    public String defaultLoss() {
        return learnedVariance ? "ce" : "mse";
    }
}
