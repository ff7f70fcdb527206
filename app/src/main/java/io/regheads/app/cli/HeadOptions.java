package io.regheads.app.cli;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.check.Names;
import io.regheads.heads.model.HeadRegistry;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The head settings given on the command line ({@code -H KEY=VALUE}, repeatable) and in a settings file, applied over
 * a preset's own settings and read back by the head's own reader ({@link HeadRegistry#read}), so a bad key or value
 * is refused with the head's one-line message, naming the option.
 *
 * <p>Keys are those of the head's settings ({@link HeadSpec#settings()}, the {@code head.<key>} of a model's
 * settings; {@code regheads settings --head NAME} lists them), with or without the {@code head.} prefix. With one
 * head every key goes to it. With several ({@code compare --heads}), a key goes to every head whose settings have it,
 * and {@code NAME.KEY=VALUE} to head {@code NAME} only (for a key the preset does not write, such as the histogram's
 * {@code low}).
 *
 * <p>Example: {@code -H bins=32 -H tails=true} over the {@code histogram} preset gives {@code new HistogramSpec(32,
 * true)}; {@code -H bns=32} is refused: {@code -H bns=32: head.bns is not a known setting; ...; did you mean
 * 'bins'?}.
 *
 * <p>Immutable; thread-safe.
 */
final class HeadOptions {
    /** One {@code [HEAD.]KEY=VALUE}; scope null when unqualified. */
    private record Entry(String raw, String scope, String key, String value) {}

    private final List<Entry> entries;

    private HeadOptions(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Parses the raw {@code -H} values.
     *
     * @param catalog the heads a qualified key may name
     * @throws IllegalArgumentException naming {@code -H} and the value: not {@code KEY=VALUE}, {@code head=...}, an
     *                                  unknown head qualifier, or a key given twice
     */
    static HeadOptions parse(List<String> raw, HeadCatalog catalog) {
        List<Entry> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String r : raw == null ? List.<String>of() : raw) {
            int eq = r.indexOf('=');
            Checks.require(eq > 0, "-H must be KEY=VALUE, a setting of the head such as bins=32, got '%s'", r);
            String key = r.substring(0, eq).strip();
            String value = r.substring(eq + 1).strip();
            if (key.startsWith(HeadSpec.PREFIX)) {
                key = key.substring(HeadSpec.PREFIX.length());
            }
            Checks.require(!key.equals(HeadSpec.KEY), "-H %s: the head is chosen with --head (or --heads); -H sets its "
                    + "settings, such as bins=32", r);
            String scope = null;
            int dot = key.indexOf('.');
            if (dot >= 0) {
                scope = key.substring(0, dot);
                key = key.substring(dot + 1);
                String s = scope;
                Checks.require(catalog.names().contains(s), "-H %s: %s", r, HeadCatalog.unknown(s, catalog.names()));
            }
            Checks.require(!key.isEmpty() && key.chars().noneMatch(Character::isWhitespace),
                    "-H must be KEY=VALUE with a key without spaces, got '%s'", r);
            Checks.require(seen.add((scope == null ? "" : scope + ".") + key), "-H %s: %s is given twice", r, key);
            out.add(new Entry(r, scope, key, value));
        }
        return new HeadOptions(out);
    }

    /** Whether no setting was given. */
    boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * Checks before any training that every option goes to some head of {@code selected}: a qualified one to a
     * selected head, an unqualified one (with several heads) to a head whose settings have the key.
     *
     * @throws IllegalArgumentException naming the option, the heads and their keys
     */
    void checkApplies(List<HeadCatalog.Preset> selected) {
        for (Entry e : entries) {
            if (e.scope != null) {
                Checks.require(selected.stream().anyMatch(p -> p.name().equals(e.scope)), "-H %s: head %s is not "
                        + "trained here (heads: %s)", e.raw, e.scope, names(selected));
            } else if (selected.size() > 1 && selected.stream().noneMatch(p -> takes(p, e))) {
                List<String> keys = new ArrayList<>();
                List<String> all = new ArrayList<>();
                for (HeadCatalog.Preset p : selected) {
                    Set<String> k = p.spec().get().settings().keySet();
                    keys.add(p.name() + ": " + String.join(", ", k));
                    all.addAll(k);
                }
                throw new IllegalArgumentException(String.format("-H %s: no head of %s has a setting '%s'%s (%s)",
                        e.raw, names(selected), e.key, Names.didYouMean(e.key, all), String.join("; ", keys)));
            }
        }
    }

    /**
     * The spec of {@code preset} with the file's settings (if the file's head is this head) and then the options that
     * go to it.
     *
     * @param fileKeys the settings file's {@code head.*} keys for this head, or an empty map
     * @param file     the settings file, for messages (null when fileKeys is empty)
     * @param only     whether this is the only head trained (then every unqualified option goes to it)
     * @throws IllegalArgumentException the head's reader's message, naming the file or the option
     */
    HeadSpec apply(HeadCatalog.Preset preset, Map<String, String> fileKeys, ConfigFile file, boolean only) {
        HeadSpec base = preset.spec().get();
        Properties p = base.toProperties();
        if (!fileKeys.isEmpty()) {
            if (fileKeys.containsKey("version")) { // a whole saved head (its own version's keys), not changes
                p = new Properties();
                p.setProperty(HeadSpec.KEY, base.name());
            }
            for (Map.Entry<String, String> k : fileKeys.entrySet()) {
                p.setProperty(HeadSpec.PREFIX + k.getKey(), k.getValue());
            }
            try {
                base = HeadRegistry.read(p);
            } catch (IllegalArgumentException ex) {
                throw file.error(ex.getMessage());
            }
        }
        List<Entry> mine = entries.stream().filter(e -> preset.name().equals(e.scope)
                || e.scope == null && (only || takes(preset, e))).toList();
        if (mine.isEmpty()) {
            return base;
        }
        for (Entry e : mine) {
            p.setProperty(HeadSpec.PREFIX + e.key, e.value);
        }
        try {
            return HeadRegistry.read(p);
        } catch (IllegalArgumentException ex) {
            String msg = ex.getMessage();
            Entry culprit = mine.stream().filter(e -> msg.contains(HeadSpec.PREFIX + e.key + " ")).findFirst()
                    .orElse(null);
            String raws = culprit != null ? culprit.raw : String.join(" -H ", mine.stream().map(Entry::raw).toList());
            String hint = culprit != null && !base.settings().containsKey(culprit.key)
                    ? Names.didYouMean(culprit.key, base.settings().keySet()) : "";
            throw new IllegalArgumentException("-H " + raws + ": " + msg + hint + " (head " + preset.name() + ")", ex);
        }
    }

    /** Whether an unqualified option goes to {@code p} among several heads: its preset writes the key. */
    private static boolean takes(HeadCatalog.Preset p, Entry e) {
        return p.spec().get().settings().containsKey(e.key);
    }

    private static String names(List<HeadCatalog.Preset> selected) {
        return String.join(",", selected.stream().map(HeadCatalog.Preset::name).toList());
    }
}
