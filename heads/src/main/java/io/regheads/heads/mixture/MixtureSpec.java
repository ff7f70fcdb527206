package io.regheads.heads.mixture;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.internal.Checks;
import io.regheads.core.io.Settings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The mixture density head ({@link MixtureHead}) as a model's head: K Gaussian components on {@code y01 - 0.5},
 * trained with the NLL ({@code ce}).
 *
 * <p>Settings, version 1: {@code head=mdn}, {@code head.version=1}, {@code head.components=<int>}.
 *
 * @param components K >= 1
 */
public record MixtureSpec(int components) implements HeadSpec {
    /** The registry name. */
    public static final String NAME = "mdn";
    /** The settings version this class writes and the newest it reads. */
    public static final int VERSION = 1;

    /** @throws IllegalArgumentException if components is below 1 */
    public MixtureSpec {
        Checks.atLeast("components", components, 1);
    }

    /**
     * Reads the settings {@link #toProperties()} writes.
     *
     * @throws IllegalArgumentException naming the key that is missing, malformed, unknown or out of range
     */
    public static MixtureSpec of(Properties p) {
        Settings s = HeadSpec.settingsOf(p, NAME, VERSION);
        s.requireOnly("version", "components");
        int k = s.integer("components");
        return s.validated(() -> new MixtureSpec(k));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int version() {
        return VERSION;
    }

    @Override
    public Map<String, String> settings() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("components", Integer.toString(components));
        return m;
    }

    @Override
    public MixtureHead build(int inputWidth, long seed, DataType type) {
        return new MixtureHead(new MixtureHead.Config(inputWidth, components, seed), type);
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
