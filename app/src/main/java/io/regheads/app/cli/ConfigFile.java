package io.regheads.app.cli;

import io.regheads.core.data.TargetTransform;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.check.Names;
import io.regheads.core.io.Settings;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.model.ModelConfig;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * A model settings file ({@code --config FILE}): a properties file in the format of {@link
 * ModelConfig#toProperties()}, as {@code regheads settings} prints it: {@code encoder.layers}, {@code encoder.width},
 * {@code head}, {@code head.<setting>}, {@code loss}, {@code standardizeX}, {@code target.transform} and {@code
 * trainer.<field>} ({@link TrainerConfig#toProperties()}). Every key is optional: what the file leaves out keeps the
 * command's default, and the command line overrides the file. A key the format does not have is refused, naming the
 * nearest one.
 *
 * <p>Example: {@code head=histogram}, {@code head.bins=32}, {@code trainer.batchSize=64} trains a 32-bin histogram
 * (tails as the preset) with batches of 64.
 *
 * <p>Immutable once read; thread-safe.
 */
final class ConfigFile {
    /** The trainer's keys, without {@code trainer.}. */
    private static final List<String> TRAINER = List.copyOf(TrainerConfig.defaults().toProperties().stringPropertyNames()
            .stream().map(k -> k.substring(TrainerConfig.PREFIX.length())).sorted().toList());
    private static final List<String> PLAIN = List.of("encoder.layers", "encoder.width", "head", "loss",
            "standardizeX", "target.version", "target.transform");

    private final Path path;
    private final Properties p;

    private ConfigFile(Path path, Properties p) {
        this.path = path;
        this.p = p;
    }

    /**
     * Reads and checks the keys of {@code path}.
     *
     * @throws IllegalArgumentException naming {@code --config} and the file: missing file, a key the format does not
     *                                  have, or a malformed {@code target.*} or encoder value
     * @throws UncheckedIOException     if the file cannot be read
     */
    static ConfigFile read(Path path) {
        Checks.require(Files.isRegularFile(path), "--config: file not found: %s", path);
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("--config: cannot read " + path + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) { // a malformed \\u escape
            throw new IllegalArgumentException("--config " + path + ": " + e.getMessage(), e);
        }
        ConfigFile f = new ConfigFile(path, p);
        List<String> known = new ArrayList<>(PLAIN);
        TRAINER.forEach(k -> known.add(TrainerConfig.PREFIX + k));
        for (String k : new TreeSet<>(p.stringPropertyNames())) {
            if (!known.contains(k) && !k.startsWith(HeadSpec.PREFIX)) {
                throw f.error(String.format("'%s' is not a model setting%s; the keys are encoder.*, head, head.*, "
                        + "loss, standardizeX, target.transform and trainer.* (%s)", k, Names.didYouMean(k, known),
                        String.join(", ", TRAINER)));
            }
        }
        Checks.require(p.getProperty(HeadSpec.KEY) != null || f.headKeys().isEmpty(), "--config %s: head.* settings "
                + "need the head they belong to (head=<name>), got %s", path, f.headKeys().keySet());
        f.encoderLayers(2); // fail early on malformed values
        f.encoderWidth(256);
        f.targetTransform(TargetTransform.NONE);
        f.standardizeX();
        return f;
    }

    /** The file, for messages. */
    Path path() {
        return path;
    }

    /** An error naming the option and the file. */
    IllegalArgumentException error(String message) {
        return new IllegalArgumentException("--config " + path + ": " + message);
    }

    /** The head the file names ({@code head}), or null. */
    String head() {
        String h = p.getProperty(HeadSpec.KEY);
        return h == null ? null : h.strip();
    }

    /** The file's {@code head.*} settings by name (without {@code head.}), in key order. */
    Map<String, String> headKeys() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : new TreeSet<>(p.stringPropertyNames())) {
            if (k.startsWith(HeadSpec.PREFIX)) {
                m.put(k.substring(HeadSpec.PREFIX.length()), p.getProperty(k).strip());
            }
        }
        return m;
    }

    /** {@code loss}, or null. */
    String loss() {
        String l = p.getProperty("loss");
        return l == null || l.isBlank() ? null : l.strip();
    }

    /**
     * {@code base} with the file's {@code trainer.*} keys.
     *
     * @throws IllegalArgumentException naming the file and the key it refuses
     */
    TrainerConfig trainer(TrainerConfig base) {
        Properties t = base.toProperties();
        for (String k : p.stringPropertyNames()) {
            if (k.startsWith(TrainerConfig.PREFIX)) {
                t.setProperty(k, p.getProperty(k));
            }
        }
        try {
            return TrainerConfig.of(t);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    /** {@code encoder.layers} (2..5), or {@code dflt}. */
    int encoderLayers(int dflt) {
        return encoder("encoder.layers", dflt, 2, 5);
    }

    /** {@code encoder.width} (1..2048), or {@code dflt}. */
    int encoderWidth(int dflt) {
        return encoder("encoder.width", dflt, 1, 2048);
    }

    private int encoder(String key, int dflt, int lo, int hi) {
        if (p.getProperty(key) == null) {
            return dflt;
        }
        try {
            return Checks.inRange(key, Settings.of(p, "").integer(key), lo, hi);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    /** {@code target.transform}, or {@code dflt}. */
    TargetTransform targetTransform(TargetTransform dflt) {
        if (p.getProperty("target.transform") == null) {
            Checks.require(p.getProperty("target.version") == null, "--config %s: target.version without "
                    + "target.transform", path);
            return dflt;
        }
        try {
            Settings t = Settings.of(p, "target.");
            if (t.has("version")) {
                t.version(ModelConfig.TARGET_VERSION);
            }
            return t.choice("transform", TargetTransform.class);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    /** {@code standardizeX}, or true. */
    boolean standardizeX() {
        if (p.getProperty("standardizeX") == null) {
            return true;
        }
        try {
            return Settings.of(p, "").bool("standardizeX");
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }
}
