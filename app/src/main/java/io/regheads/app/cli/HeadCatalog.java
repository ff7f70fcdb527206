package io.regheads.app.cli;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.check.Names;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.HammingDecoderSpec;
import io.regheads.heads.decoder.RepeatedDecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.HeadRegistry;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.quantile.QuantileSpec;
import io.regheads.heads.xval.XValSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The heads the command line knows, by name, each with the preset the commands train.
 *
 * <p>{@link #standard()} holds {@code pointwise} (linear output, Gaussian with sigma = training RMSE for
 * densities), {@code histogram} (Riemann head, 256 equal bins on [0, 1] of the min-max scaled target, trained with
 * gce:0.05; without its own tails, which are one bin wide, so the model gives it its wide ones) and {@code mdn} (Gaussian mixture, 10 components), {@code decoder} (normalized digit
 * decoder, trained with gce:0.5) and
 * {@code unnormalized-decoder} (sign/exponent/mantissa decoder on raw y, its exponent range fitted to the training
 * targets, point prediction = the certified mean, else the median) and {@code xval} (the
 * xVal number head: an MLP to one value, a Gaussian with the held-out RMSE), {@code quantile} (99 non-crossing
 * quantiles, pinball loss), and two heads trained only when named
 * ({@link #registerOptional}): {@code repeat-decoder} (normalized base-2 digits written three times, majority
 * vote) and {@code hamming-decoder} (Hamming-ordered binary codes). A new head ({@link HeadSpec}) variant joins
 * {@code compare}, {@code uci} and the plots by one {@link #register} call (or one line in {@link #standard()});
 * nothing else names heads. {@link #grid(String)} gives a head's selection grid for {@code uci --protocol paper}
 * (three points of each of the decoding paper's sweeps; the preset alone for pointwise).
 *
 * <p>A variant may also be a preset with some of its settings changed ({@link #variant(String, String)} with a
 * label such as {@code bins=32,tails=true}): the label lists the changed settings by their keys ({@link
 * HeadSpec#settings()}), read back by the head's own reader.
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
    private final Set<String> optional = new HashSet<>();
    private final Map<String, List<Variant>> grids = new LinkedHashMap<>();

    /**
     * The heads that exist now: pointwise, histogram (256 bins without its own tails; loss gce:0.05), mdn (10 components), decoder
     * (normalized, base 10, 3 digits, 1 block of 32 units, the paper's small decoder; loss gce:0.5),
     * unnormalized-decoder (raw y as base 10, 1 exponent digit, 3 mantissa digits, the exponents and signs fitted to
     * the training targets; same block; the certified mean, else the median, as point prediction), xval (hidden
     * width 256, the default encoder's width, as the xVal paper sets it; point head), quantile (99 equally spaced
     * levels, pinball loss; piecewise-linear cdf with exponential tails); trained only when named: repeat-decoder
     * (base 2, 5 digits written 3 times, the same block: 32 768 sequences per row, enumerated exactly for the voted
     * distribution) and hamming-decoder (8-bit Hamming-ordered codes, the same block).
     */
    public static HeadCatalog standard() {
        HeadCatalog c = new HeadCatalog();
        c.register(new Preset("pointwise", "MLP -> one value; Gaussian with sigma = train RMSE", null,
                () -> new PointwiseSpec(false)));
        c.register(new Preset("histogram", "Riemann histogram, 256 equal bins on [0,1] (the model's tails beyond); "
                + "loss gce:0.05", "Riemann", () -> new HistogramSpec(256, false)));
        c.register(new Preset("mdn", "Gaussian mixture density, 10 components", "MDN",
                () -> new MixtureSpec(10)));
        c.register(new Preset("decoder", "normalized digit decoder, base 10, 3 digits, 1 block (d 32, 1 head); loss "
                + "gce:0.5", "Normalized decoder", () -> DecoderSpec.small(10, 3)));
        c.register(new Preset("unnormalized-decoder", "sign/exponent/mantissa decoder on raw y, base 10, E 1, M 3, "
                + "1 block (d 32, 1 head); point = auto (certified mean, else median)", "Unnormalized decoder",
                () -> UnnormalizedDecoderSpec.small(10, 1, 3)));
        c.register(new Preset("xval", "xVal number head: MLP (256 GELU units) -> one value; Gaussian with sigma = "
                + "held-out RMSE", null, () -> new XValSpec(256, false)));
        c.register(new Preset("quantile", "99 non-crossing quantiles (pinball loss); piecewise-linear cdf with "
                + "exponential tails", null, QuantileSpec::new));
        c.registerOptional(new Preset("repeat-decoder", "normalized digit decoder with repetitions: base 2, 5 digits "
                + "written 3 times, majority vote; 1 block (d 32, 1 head)", null,
                () -> RepeatedDecoderSpec.small(2, 5, 3)));
        c.registerOptional(new Preset("hamming-decoder", "decoder over 8-bit Hamming-ordered codes of 256 bins; 1 block "
                + "(d 32, 1 head)", null, () -> HammingDecoderSpec.small(8)));
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
     * The variant {@code label} of head {@code name}: a grid point, {@link #PRESET} for the preset itself, or the
     * preset with the settings a label such as {@code bins=32,tails=true} lists ({@link #label}), read by the head's
     * own reader.
     *
     * @throws IllegalArgumentException if the head is unknown, the label is neither a grid point nor settings, or
     *                                  the head's reader refuses a setting (the message names the key)
     */
    public Variant variant(String name, String label) {
        Preset p = presets.get(name);
        Checks.require(p != null, "%s", unknown(name, names()));
        if (PRESET.equals(label)) {
            return new Variant(PRESET, p.spec());
        }
        for (Variant v : grid(name)) {
            if (v.label().equals(label)) {
                return v;
            }
        }
        Checks.require(label != null && label.contains("="), "head %s has no variant '%s'", name, label);
        HeadSpec spec = withSettings(p.spec().get(), label);
        return new Variant(label, () -> spec);
    }

    /**
     * The label of {@code spec} as a variant of head {@code name}: {@link #PRESET} if it equals the preset, else the
     * settings that differ from the preset's, {@code key=value} joined by commas ({@code bins=32,tails=true}), which
     * {@link #variant(String, String)} reads back.
     *
     * @throws IllegalArgumentException if the head is unknown, spec is another head, or a changed value holds a
     *                                  comma, '=', '|' or a space (a label cannot carry it)
     */
    public String label(String name, HeadSpec spec) {
        Preset p = presets.get(name);
        Checks.require(p != null, "unknown head '%s'; known heads are %s", name, String.join(", ", names()));
        HeadSpec preset = p.spec().get();
        Checks.require(preset.name().equals(spec.name()), "head %s is a %s, got a %s", name, preset.name(), spec.name());
        if (preset.equals(spec)) {
            return PRESET;
        }
        List<String> changed = new ArrayList<>();
        spec.settings().forEach((k, v) -> {
            if (!v.equals(preset.settings().get(k))) {
                Checks.require(!v.isEmpty() && v.chars().noneMatch(ch -> ch == ',' || ch == '=' || ch == '|'
                        || Character.isWhitespace(ch)), "setting %s=%s of %s cannot be part of a variant label", k, v,
                        name);
                changed.add(k + "=" + v);
            }
        });
        return String.join(",", changed);
    }

    /** The preset's spec with the settings of a label {@code key=value,...} over its own, read by its reader. */
    private static HeadSpec withSettings(HeadSpec preset, String label) {
        Properties p = preset.toProperties();
        for (String kv : label.split(",")) {
            int eq = kv.indexOf('=');
            Checks.require(eq > 0, "variant label must list key=value settings, got '%s'", label);
            p.setProperty(HeadSpec.PREFIX + kv.substring(0, eq), kv.substring(eq + 1));
        }
        return HeadRegistry.read(p);
    }

    /**
     * {@code "unknown head 'histgram'; did you mean 'histogram'? known heads are a, b"}, or without a close name
     * {@code "unknown head 'spline'; known heads are a, b"}.
     */
    static String unknown(String name, List<String> known) {
        String hint = Names.didYouMean(name, known);
        return "unknown head '" + name + "'" + (hint.isEmpty() ? ";" : hint) + " known heads are "
                + String.join(", ", known);
    }

    /**
     * Adds a preset (or replaces the one with the same name, keeping its position).
     *
     * @return this catalog
     */
    public HeadCatalog register(Preset preset) {
        Checks.notNull("preset", preset);
        presets.put(preset.name(), preset);
        optional.remove(preset.name());
        return this;
    }

    /**
     * Adds a preset that is trained only when named (not part of "all heads", {@code select(null)}), e.g. a slower
     * variant of another head; replaces one with the same name, keeping its position.
     *
     * @return this catalog
     */
    public HeadCatalog registerOptional(Preset preset) {
        register(preset);
        optional.add(preset.name());
        return this;
    }

    /** All names in registration order, those trained only when named included. */
    public List<String> names() {
        return Collections.unmodifiableList(new ArrayList<>(presets.keySet()));
    }

    /** The names "all heads" stands for ({@code select(null)}): every name except those trained only when named. */
    public List<String> defaultNames() {
        return presets.keySet().stream().filter(n -> !optional.contains(n)).toList();
    }

    /**
     * The first preset (in registration order) whose spec is the head {@code specName} ({@link HeadSpec#name()}),
     * e.g. the preset to read a saved head's settings over.
     *
     * @return the preset, or null if none makes that head
     */
    public Preset presetOf(String specName) {
        for (Preset p : presets.values()) {
            if (p.spec().get().name().equals(specName)) {
                return p;
            }
        }
        return null;
    }

    /**
     * The presets named in a comma-separated list ({@code null} or blank: all but those trained only when named), in
     * the order given.
     *
     * @throws IllegalArgumentException on an unknown or repeated name (naming {@code --heads})
     */
    public List<Preset> select(String commaSeparated) {
        return select(commaSeparated, "--heads");
    }

    /**
     * As {@link #select(String)}, with the option the list came from named in the messages.
     *
     * @param option the option named in an error, e.g. {@code --head} or {@code --candidates}
     * @throws IllegalArgumentException on an unknown name (with the nearest known one, if close) or a repeated one
     */
    public List<Preset> select(String commaSeparated, String option) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return presets.values().stream().filter(p -> !optional.contains(p.name())).toList();
        }
        List<Preset> out = new ArrayList<>();
        for (String raw : commaSeparated.split(",")) {
            String name = raw.strip().toLowerCase(java.util.Locale.ROOT);
            Preset p = presets.get(name);
            Checks.require(p != null, "%s: %s", option, unknown(name, names()));
            Checks.require(!out.contains(p), "%s: head '%s' is listed twice", option, name);
            out.add(p);
        }
        return out;
    }
}
