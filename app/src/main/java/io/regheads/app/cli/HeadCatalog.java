package io.regheads.app.cli;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.internal.Checks;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.xval.XValSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The heads the command line knows, by name, each with the preset the commands train.
 *
 * <p>{@link #standard()} holds {@code pointwise} (linear output, Gaussian with sigma = training RMSE for
 * densities), {@code histogram} (Riemann head, 100 equal bins on [0, 1] of the min-max scaled target, no tails) and
 * {@code mdn} (Gaussian mixture, 10 components), {@code decoder} (normalized digit decoder) and
 * {@code unnormalized-decoder} (sign/exponent/mantissa decoder, point prediction = median) and {@code xval} (the
 * xVal number head: an MLP to one value, a Gaussian with the held-out RMSE). A new head ({@link HeadSpec})
 * variant joins {@code compare}, {@code uci} and the plots by one {@link #register} call (or one line in {@link
 * #standard()}); nothing else names heads.
 *
 * <p>Example: {@code HeadCatalog.standard().select("mdn,histogram")} gives the two presets in that order.
 *
 * <p>Not thread-safe while registering; read-only use afterwards is safe.
 */
public final class HeadCatalog {

    /**
     * One named head preset.
     *
     * @param name        the name used on the command line ({@code --heads}), lower case, no commas
     * @param description one line for help texts and tables
     * @param paperColumn the column of the decoding paper's UCI table this head corresponds to ("MDN",
     *                    "Riemann", "Unnormalized decoder", "Normalized decoder"), or {@code null} if none
     * @param spec        makes the head specification (called once per trained model)
     */
    public record Preset(String name, String description, String paperColumn, Supplier<HeadSpec> spec) {
        /** Validates the name (non-blank, no comma or space) and the supplier. */
        public Preset {
            Checks.require(name != null && !name.isBlank() && !name.contains(",") && !name.contains(" "),
                    "preset name must be non-blank without commas or spaces, got '%s'", name);
            Checks.notNull("description", description);
            Checks.notNull("spec", spec);
        }
    }

    private final Map<String, Preset> presets = new LinkedHashMap<>();

    /**
     * The heads that exist now: pointwise, histogram (100 bins), mdn (10 components), decoder (normalized, base 10,
     * 3 digits, 1 block of 32 units, the paper's small decoder), unnormalized-decoder (y01 as base 10, 1 exponent
     * digit, 3 mantissa digits, exponents -9..9; same block; median as point prediction), xval (hidden width 256,
     * the default encoder's width, as the xVal paper sets it; point head).
     */
    public static HeadCatalog standard() {
        HeadCatalog c = new HeadCatalog();
        c.register(new Preset("pointwise", "MLP -> one value; Gaussian with sigma = train RMSE", null,
                () -> new PointwiseSpec(false)));
        c.register(new Preset("histogram", "Riemann histogram, 100 equal bins on [0,1]", "Riemann",
                () -> new HistogramSpec(100, false)));
        c.register(new Preset("mdn", "Gaussian mixture density, 10 components", "MDN",
                () -> new MixtureSpec(10)));
        c.register(new Preset("decoder", "normalized digit decoder, base 10, 3 digits, 1 block (d 32, 1 head)",
                "Normalized decoder", () -> DecoderSpec.small(10, 3)));
        c.register(new Preset("unnormalized-decoder", "sign/exponent/mantissa decoder on raw y, base 10, E 1, M 3, "
                + "1 block (d 32, 1 head); point = auto (certified mean, else median)", "Unnormalized decoder",
                () -> UnnormalizedDecoderSpec.small(10, 1, 3)));
        c.register(new Preset("xval", "xVal number head: MLP (256 GELU units) -> one value; Gaussian with sigma = "
                + "held-out RMSE", null, () -> new XValSpec(256, false)));
        return c;
    }

    /**
     * Adds a preset (or replaces the one with the same name, keeping its position).
     *
     * @return this catalog
     */
    public HeadCatalog register(Preset preset) {
        Checks.notNull("preset", preset);
        presets.put(preset.name(), preset);
        return this;
    }

    /** All names in registration order. */
    public List<String> names() {
        return Collections.unmodifiableList(new ArrayList<>(presets.keySet()));
    }

    /**
     * The presets named in a comma-separated list ({@code null} or blank: all), in the order given.
     *
     * @throws IllegalArgumentException on an unknown or repeated name
     */
    public List<Preset> select(String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return List.copyOf(presets.values());
        }
        List<Preset> out = new ArrayList<>();
        for (String raw : commaSeparated.split(",")) {
            String name = raw.strip().toLowerCase(java.util.Locale.ROOT);
            Preset p = presets.get(name);
            Checks.require(p != null, "--heads: unknown head '%s'; known heads are %s", name, String.join(", ", names()));
            Checks.require(!out.contains(p), "--heads: head '%s' is listed twice", name);
            out.add(p);
        }
        return out;
    }
}
