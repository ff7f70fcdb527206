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
 * densities), {@code histogram} (Riemann head, 256 equal bins on [0, 1] of the min-max scaled target with half-normal
 * tails, trained with gce:0.05) and {@code mdn} (Gaussian mixture, 10 components), {@code decoder} (normalized digit
 * decoder, trained with gce:0.5) and
 * {@code unnormalized-decoder} (sign/exponent/mantissa decoder, point prediction = median) and {@code xval} (the
 * xVal number head: an MLP to one value, a Gaussian with the held-out RMSE). A new head ({@link HeadSpec})
 * variant joins {@code compare}, {@code uci} and the plots by one {@link #register} call (or one line in {@link
 * #standard()}); nothing else names heads. {@link #grid(String)} gives a head's selection grid for {@code uci
 * --protocol paper} (three points of each of the decoding paper's sweeps; the preset alone for pointwise).
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

    /**
     * One point of a head's selection grid: a label for tables ({@code "bins=16"}, {@code "B=2,K=4"}) and the spec.
     *
     * @param label short, without spaces or {@code |}
     * @param spec  makes the head specification
     */
    public record Variant(String label, Supplier<HeadSpec> spec) {
        /** Validates the label (non-blank, no space or {@code |}) and the supplier. */
        public Variant {
            Checks.require(label != null && !label.isBlank() && !label.contains(" ") && !label.contains("|"),
                    "variant label must be non-blank without spaces or '|', got '%s'", label);
            Checks.notNull("spec", spec);
        }
    }

    /** The label of the single variant of a head without a grid: its preset. */
    public static final String PRESET = "preset";

    private final Map<String, Preset> presets = new LinkedHashMap<>();
    private final Map<String, List<Variant>> grids = new LinkedHashMap<>();

    /**
     * The heads that exist now: pointwise, histogram (256 bins, tails), mdn (10 components), decoder (normalized, base 10,
     * 3 digits, 1 block of 32 units, the paper's small decoder), unnormalized-decoder (y01 as base 10, 1 exponent
     * digit, 3 mantissa digits, exponents -9..9; same block; median as point prediction), xval (hidden width 256,
     * the default encoder's width, as the xVal paper sets it; point head).
     */
    public static HeadCatalog standard() {
        HeadCatalog c = new HeadCatalog();
        c.register(new Preset("pointwise", "MLP -> one value; Gaussian with sigma = train RMSE", null,
                () -> new PointwiseSpec(false)));
        c.register(new Preset("histogram", "Riemann histogram, 256 equal bins on [0,1], half-normal tails; loss "
                + "gce:0.05", "Riemann", () -> new HistogramSpec(256, true)));
        c.register(new Preset("mdn", "Gaussian mixture density, 10 components", "MDN",
                () -> new MixtureSpec(10)));
        c.register(new Preset("decoder", "normalized digit decoder, base 10, 3 digits, 1 block (d 32, 1 head); loss "
                + "gce:0.5", "Normalized decoder", () -> DecoderSpec.small(10, 3)));
        c.register(new Preset("unnormalized-decoder", "sign/exponent/mantissa decoder on raw y, base 10, E 1, M 3, "
                + "1 block (d 32, 1 head); point = auto (certified mean, else median)", "Unnormalized decoder",
                () -> UnnormalizedDecoderSpec.small(10, 1, 3)));
        c.register(new Preset("xval", "xVal number head: MLP (256 GELU units) -> one value; Gaussian with sigma = "
                + "held-out RMSE", null, () -> new XValSpec(256, false)));
        // the selection grids of `uci --protocol paper`: three points of each of the paper's sweeps (appendix D)
        c.grid("histogram", List.of(new Variant("bins=16", () -> new HistogramSpec(16, false)),
                new Variant("bins=64", () -> new HistogramSpec(64, false)),
                new Variant("bins=256", () -> new HistogramSpec(256, false))));
        c.grid("mdn", List.of(new Variant("M=1", () -> new MixtureSpec(1)),
                new Variant("M=5", () -> new MixtureSpec(5)),
                new Variant("M=20", () -> new MixtureSpec(20))));
        c.grid("decoder", List.of(new Variant("B=2,K=4", () -> DecoderSpec.small(2, 4)),
                new Variant("B=2,K=8", () -> DecoderSpec.small(2, 8)),
                new Variant("B=8,K=4", () -> DecoderSpec.small(8, 4))));
        c.grid("unnormalized-decoder", List.of(
                new Variant("B=4,E=4,M=2", () -> UnnormalizedDecoderSpec.small(4, 4, 2)),
                new Variant("B=8,E=2,M=4", () -> UnnormalizedDecoderSpec.small(8, 2, 4)),
                new Variant("B=10,E=1,M=4", () -> UnnormalizedDecoderSpec.small(10, 1, 4))));
        return c;
    }

    /**
     * Sets the selection grid of a registered head (replacing any earlier one).
     *
     * @throws IllegalArgumentException if the head is unknown, the list is empty or two labels repeat
     */
    public HeadCatalog grid(String name, List<Variant> variants) {
        Checks.require(presets.containsKey(name), "grid: unknown head '%s'", name);
        Checks.require(variants != null && !variants.isEmpty(), "grid of %s must not be empty", name);
        Checks.require(variants.stream().map(Variant::label).distinct().count() == variants.size(),
                "grid of %s repeats a label", name);
        grids.put(name, List.copyOf(variants));
        return this;
    }

    /**
     * The selection grid of head {@code name}: the variants given to {@link #grid}, or the preset alone (label
     * {@link #PRESET}).
     *
     * @throws IllegalArgumentException if the head is unknown
     */
    public List<Variant> grid(String name) {
        Preset p = presets.get(name);
        Checks.require(p != null, "unknown head '%s'; known heads are %s", name, String.join(", ", names()));
        return grids.getOrDefault(name, List.of(new Variant(PRESET, p.spec())));
    }

    /**
     * The variant {@code label} of head {@code name}: a grid point, or {@link #PRESET} for the preset itself.
     *
     * @throws IllegalArgumentException if either is unknown
     */
    public Variant variant(String name, String label) {
        Preset p = presets.get(name);
        Checks.require(p != null, "unknown head '%s'; known heads are %s", name, String.join(", ", names()));
        if (PRESET.equals(label)) {
            return new Variant(PRESET, p.spec());
        }
        for (Variant v : grid(name)) {
            if (v.label().equals(label)) {
                return v;
            }
        }
        throw new IllegalArgumentException("head " + name + " has no variant '" + label + "'");
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
