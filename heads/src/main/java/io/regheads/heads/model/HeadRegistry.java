package io.regheads.heads.model;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.HammingDecoderSpec;
import io.regheads.heads.decoder.RepeatedDecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.quantile.QuantileSpec;
import io.regheads.heads.xval.XValSpec;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;

/**
 * The heads a saved model can name: head name ({@link HeadSpec#name()}) to the reader of its settings (the spec
 * type's {@code of(Properties)}). A new head is its own package with a spec type, plus one line here.
 *
 * <p>Example: {@code read(p)} with {@code head=histogram}, {@code head.version=1}, {@code head.bins=256}, {@code
 * head.tails=false} gives {@code new HistogramSpec(256, false)}; {@code head=forest} is refused with the list of
 * known heads.
 *
 * <p>Immutable; thread-safe.
 */
public final class HeadRegistry {
    private static final Map<String, Function<Properties, HeadSpec>> READERS;

    static {
        Map<String, Function<Properties, HeadSpec>> m = new LinkedHashMap<>();
        m.put(PointwiseSpec.KIND.name(), PointwiseSpec::of);
        m.put(HistogramSpec.KIND.name(), HistogramSpec::of);
        m.put(MixtureSpec.KIND.name(), MixtureSpec::of);
        m.put(DecoderSpec.NAME, DecoderSpec::of);
        m.put(UnnormalizedDecoderSpec.NAME, UnnormalizedDecoderSpec::of);
        m.put(XValSpec.KIND.name(), XValSpec::of);
        m.put(RepeatedDecoderSpec.KIND.name(), RepeatedDecoderSpec::of);
        m.put(HammingDecoderSpec.KIND.name(), HammingDecoderSpec::of);
        m.put(QuantileSpec.KIND.name(), QuantileSpec::of);
        READERS = Collections.unmodifiableMap(m);
    }

    private HeadRegistry() {}

    /** The known head names, in registration order. */
    public static Set<String> names() {
        return READERS.keySet();
    }

    /**
     * The spec that {@code p}'s {@code head} key names, read by that head's own reader.
     *
     * @throws IllegalArgumentException if {@code head} is missing or unknown (the message lists the known heads), or
     *                                  the head's reader refuses a setting (the message names the key)
     */
    public static HeadSpec read(Properties p) {
        Checks.notNull("properties", p);
        String name = p.getProperty(HeadSpec.KEY);
        Checks.require(name != null, "%s is missing; known heads: %s", HeadSpec.KEY, names());
        Function<Properties, HeadSpec> reader = READERS.get(name.trim());
        Checks.require(reader != null, "%s must be one of %s, got '%s'", HeadSpec.KEY, names(), name);
        return reader.apply(p);
    }
}
