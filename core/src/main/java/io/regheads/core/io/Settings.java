package io.regheads.core.io;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Named settings under one key prefix of a {@link Properties} table, read with messages that name the key: the
 * reading half of a configuration's {@code toProperties()} / {@code of(Properties)} pair (as in smile's
 * {@code OLS.Options}).
 *
 * <p>Example: with {@code head.bins=256} and {@code head.tails=true}, {@code Settings.of(p, "head.")} gives {@code
 * integer("bins") = 256} and {@code bool("tails") = true}; {@code head.bins=many} gives "head.bins must be an
 * integer, got 'many'", and a missing key "head.bins is missing".
 *
 * <p>The writing half is {@link #writer()}: each value as the matching reader parses it back.
 *
 * <p>Immutable view (reads the table on each call); thread-safe if the table is not modified.
 */
public final class Settings {
    private final Properties properties;
    private final String prefix;

    private Settings(Properties properties, String prefix) {
        this.properties = properties;
        this.prefix = prefix;
    }

    /**
     * The settings of {@code properties} whose keys start with {@code prefix}.
     *
     * @param prefix {@code ""} or a prefix ending in {@code '.'}, e.g. {@code "head."}
     * @throws IllegalArgumentException if properties or prefix is null, or a non-empty prefix does not end in '.'
     */
    public static Settings of(Properties properties, String prefix) {
        Checks.notNull("properties", properties);
        Checks.notNull("prefix", prefix);
        Checks.require(prefix.isEmpty() || prefix.endsWith("."), "prefix must be empty or end in '.', got '%s'", prefix);
        return new Settings(properties, prefix);
    }

    /** The full key of a setting: {@code prefix + name}. */
    public String key(String name) {
        return prefix + name;
    }

    /** Whether the setting is present. */
    public boolean has(String name) {
        return properties.getProperty(key(name)) != null;
    }

    /**
     * The raw value, trimmed.
     *
     * @throws IllegalArgumentException naming the key if it is missing
     */
    public String string(String name) {
        String v = properties.getProperty(key(name));
        Checks.require(v != null, "%s is missing", key(name));
        return v.trim();
    }

    /**
     * An int setting (decimal).
     *
     * @throws IllegalArgumentException naming the key if it is missing or not an int
     */
    public int integer(String name) {
        String v = string(name);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key(name) + " must be an integer, got '" + v + "'", e);
        }
    }

    /**
     * A long setting (decimal).
     *
     * @throws IllegalArgumentException naming the key if it is missing or not a long
     */
    public long longInteger(String name) {
        String v = string(name);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key(name) + " must be an integer, got '" + v + "'", e);
        }
    }

    /**
     * A finite double setting (as {@link Double#toString} writes it, which round-trips exactly).
     *
     * @throws IllegalArgumentException naming the key if it is missing, not a number, NaN or infinite
     */
    public double real(String name) {
        String v = string(name);
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key(name) + " must be a finite number, got '" + v + "'", e);
        }
        Checks.require(Double.isFinite(d), "%s must be a finite number, got '%s'", key(name), v);
        return d;
    }

    /**
     * A boolean setting: {@code true} or {@code false} (any case), nothing else.
     *
     * @throws IllegalArgumentException naming the key if it is missing or another word
     */
    public boolean bool(String name) {
        String v = string(name).toLowerCase(Locale.ROOT);
        Checks.require(v.equals("true") || v.equals("false"), "%s must be true or false, got '%s'", key(name),
                string(name));
        return v.equals("true");
    }

    /**
     * An enum setting by constant name (exact case).
     *
     * @throws IllegalArgumentException naming the key and the allowed names if it is missing or not one of them
     */
    public <E extends Enum<E>> E choice(String name, Class<E> type) {
        String v = string(name);
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(v)) {
                return e;
            }
        }
        throw new IllegalArgumentException(key(name) + " must be one of " + Arrays.toString(type.getEnumConstants())
                + ", got '" + v + "'");
    }

    /**
     * The settings version ({@code version} under the prefix) a reader of versions 1..newest accepts.
     *
     * @param newest the newest version the reader knows, >= 1
     * @throws IllegalArgumentException naming the key if it is missing, not an integer or outside [1, newest]
     */
    public int version(int newest) {
        int v = integer("version");
        Checks.require(v >= 1 && v <= newest, "%s must be in [1, %d] (the newest this library reads), got %d",
                key("version"), newest, v);
        return v;
    }

    /**
     * Refuses keys under the prefix other than the given setting names (a misspelt key would otherwise be ignored).
     *
     * @throws IllegalArgumentException naming the first unknown key and the known ones
     */
    public void requireOnly(String... names) {
        Set<String> known = new TreeSet<>(Arrays.asList(names));
        Set<String> present = new TreeSet<>(properties.stringPropertyNames());
        for (String k : present) {
            if (k.startsWith(prefix) && !known.contains(k.substring(prefix.length()))) {
                throw new IllegalArgumentException(k + " is not a known setting; known under '" + prefix + "': " + known);
            }
        }
    }

    /**
     * Builds a value from read settings, naming the key in a validation failure: the constructor's message starts
     * with the argument's name, which is the setting's name, so the prefix is put in front of it ({@code "bins must
     * be >= 2, got 1"} becomes {@code "head.bins must be >= 2, got 1"}).
     *
     * @throws IllegalArgumentException the constructor's, with the prefix in front of its message
     */
    public <T> T validated(Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + e.getMessage(), e);
        }
    }

    /**
     * A new, empty writer of named settings: the writing half of this class, each value written as the matching
     * reader parses it back. Example: {@code Settings.writer().put("bins", 256).put("tails", true).map()} is
     * {@code {bins=256, tails=true}}, which {@link #integer} and {@link #bool} read back.
     */
    public static Writer writer() {
        return new Writer();
    }

    /**
     * Named settings in the order they are put, as strings: ints in decimal ({@link #integer}), finite doubles by
     * {@link Double#toString} (exact round trip, {@link #real}), booleans as {@code true} or {@code false} ({@link
     * #bool}), enum constants by name ({@link #choice}). Not thread-safe: one writer per table being written.
     */
    public static final class Writer {
        private final Map<String, String> values = new LinkedHashMap<>();

        private Writer() {}

        /** Puts an int setting. */
        public Writer put(String name, int value) {
            return putString(name, Integer.toString(value));
        }

        /**
         * Puts a double setting.
         *
         * @throws IllegalArgumentException naming the setting if the value is NaN or infinite ({@link #real} refuses
         *                                  those)
         */
        public Writer put(String name, double value) {
            Checks.require(Double.isFinite(value), "%s must be a finite number, got %s", name, value);
            return putString(name, Double.toString(value));
        }

        /** Puts a boolean setting. */
        public Writer put(String name, boolean value) {
            return putString(name, Boolean.toString(value));
        }

        /**
         * Puts an enum setting by constant name.
         *
         * @throws IllegalArgumentException if the value is null
         */
        public Writer put(String name, Enum<?> value) {
            return putString(name, Checks.notNull(name, value).name());
        }

        private Writer putString(String name, String value) {
            Checks.require(name != null && !name.isBlank(), "name must not be blank, got '%s'", name);
            Checks.require(!values.containsKey(name), "%s is already set", name);
            values.put(name, value);
            return this;
        }

        /** {@return the settings so far, in the order they were put} (an unmodifiable copy) */
        public Map<String, String> map() {
            return Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }
    }

    @Override
    public String toString() {
        return "Settings[" + prefix + "*]";
    }
}
