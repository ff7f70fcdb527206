package io.regheads.heads.mixture;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The mixture density head ({@link MixtureHead}) as a model's head: K Gaussian components on {@code y01 - 0.5},
 * trained with the NLL ({@code ce}).
 *
 * <p>Settings, version 1: {@code head=mdn}, {@code head.version=1}, {@code head.components=<int>}, {@code
 * head.sigmaFloor=<double>} (the smallest scale the head emits, see {@link MixtureHead}).
 *
 * @param components K >= 1
 * @param sigmaFloor the smallest standard deviation, in the head's units (y01 - 0.5); at least 0 and finite
 */
public record MixtureSpec(int components, double sigmaFloor) implements HeadSpec {
    /** The registry name {@code mdn}, settings version 1. */
    public static final Kind KIND = new Kind("mdn", 1);

    /** @throws IllegalArgumentException if components is below 1 or the floor is negative or not finite */
    public MixtureSpec {
        Checks.atLeast("components", components, 1);
        Checks.require(sigmaFloor >= 0 && sigmaFloor < Double.POSITIVE_INFINITY,
                "sigmaFloor must be >= 0 and finite, got %s", sigmaFloor);
    }

    /** A new head's spec: the floor {@link MixtureHead#SIGMA_FLOOR}. */
    public MixtureSpec(int components) {
        this(components, MixtureHead.SIGMA_FLOOR);
    }

    /**
     * The paper's default (and the PyTorch reference implementation's): 10 components, the floor {@link
     * MixtureHead#SIGMA_FLOOR}.
     */
    public static MixtureSpec paper() {
        return new MixtureSpec(10);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static MixtureSpec of(Properties p) {
        Settings s = KIND.settingsOf(p);
        s.version(KIND.version());
        s.requireOnly("version", "components", "sigmaFloor");
        int k = s.integer("components");
        double floor = s.real("sigmaFloor");
        return s.validated(() -> new MixtureSpec(k, floor));
    }

    @Override
    public Kind kind() {
        return KIND;
    }

    @Override
    public Map<String, String> settings() {
        return Settings.writer().put("components", components).put("sigmaFloor", sigmaFloor).map();
    }

    @Override
    public MixtureHead build(int inputWidth, long seed, DataType type) {
        return new MixtureHead(this, inputWidth, seed, type);
    }

    /** @return CENTRED_MIN_MAX: the head sees y01 - 0.5 */
    @Override
    public TargetScaling targetScaling() {
        return TargetScaling.CENTRED_MIN_MAX;
    }

    /** @return {@code "ce"} (the mixture's NLL) */
    @Override
    public String defaultLoss() {
        return "ce";
    }
}
