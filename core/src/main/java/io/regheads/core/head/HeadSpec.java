package io.regheads.core.head;

import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * A head's description before it sees data: which head, its settings, how it is trained and what it reports. The
 * model supplies the input width, the seed and the data type ({@link #build}).
 *
 * <p><b>Settings.</b> A spec writes its own settings as named keys with a version ({@link #toProperties()}), e.g.
 * <pre>
 *   head=histogram
 *   head.version=1
 *   head.bins=256
 *   head.tails=true
 * </pre>
 * and its type reads them back with a static {@code of(Properties)} that refuses a missing, malformed or unknown
 * key by name. What every spec type repeats is written once here: its name and settings version are one constant
 * {@link Kind} ({@link #kind()}; {@link #name()} and {@link #version()} read it), its settings are written by {@link
 * Settings#writer()}, and its reader starts with {@link Kind#read(Properties, String...)} (the common checks of
 * {@link #settingsOf(Properties, String, int)}) and builds the spec through {@link Settings#validated}, so that the
 * record's own constructor, the one place a spec is validated, names the key it refuses. A registry maps {@link
 * #name()} to that reader, so that a saved model names its head and nothing else has to know the head's type.
 *
 * <p>A spec is the head's whole configuration: {@link #build} makes the head from it and what only the model knows
 * (input width, seed, data type); a head computes what it derives (bin borders, say) from its spec.
 *
 * <p><b>Units.</b> Each head names the units it is trained in ({@link #targetScaling()}): histogram and normalized
 * decoder heads see {@code y01 = (y - min) / (max - min)} in [0, 1] (train min and max), pointwise, mixture and xVal
 * heads {@code y01 - 0.5}, the unnormalized decoder y itself. A spec may adapt itself to the training targets
 * before its head is built ({@link #fittedTo}, e.g. the unnormalized decoder's exponent range); the adapted spec is
 * what a model saves.
 *
 * <p><b>Reports.</b> Each spec names its point prediction ({@link #pointEstimate()}): the mean, except where a head
 * says otherwise (the unnormalized decoder's AUTO: the certified mean, else the median). Any after-fit step is the
 * head's own ({@link RegressionHead#afterFit}), and so is the state it saves ({@link RegressionHead#state()}).
 *
 * <p>Implementations are immutable records whose {@code equals} compares the settings.
 */
public interface HeadSpec {

    /** The key that names the head. */
    String KEY = "head";
    /** The prefix of every head setting, {@code "head."}. */
    String PREFIX = "head.";

    /**
     * What names a spec type's settings in a file: the head's name and the newest settings version its type writes
     * and reads, declared once per type as a constant ({@code public static final Kind KIND = new Kind("histogram",
     * 1)}), with the first step of the type's reader.
     *
     * @param name    the head's name in files, registries and tables: non-blank, no surrounding spaces
     * @param version the settings version the type writes and the newest it reads, >= 1
     */
    record Kind(String name, int version) {
        /** @throws IllegalArgumentException on a blank or padded name or a version below 1 */
        public Kind {
            Checks.require(name != null && !name.isBlank() && name.equals(name.trim()),
                    "name must be non-blank without surrounding spaces, got '%s'", name);
            Checks.atLeast("version", version, 1);
        }

        /**
         * The first step of a reader whose keys depend on the version it finds: {@link #settingsOf(Properties,
         * String, int)} for this kind (then {@code s.version(kind.version())} gives the version found).
         *
         * @throws IllegalArgumentException naming the key: {@code head} missing or another head, {@code head.version}
         *                                  missing, malformed or newer than {@link #version()}
         */
        public Settings settingsOf(Properties p) {
            return HeadSpec.settingsOf(p, name, version);
        }

        /**
         * The first step of a reader whose keys are the same in every version it reads: {@link #settingsOf(Properties,
         * String, int)} for this kind, then no key under {@code head.} but {@code version} and {@code names} ({@link
         * Settings#requireOnly}).
         *
         * @param names the settings the type reads, without {@code version}
         * @throws IllegalArgumentException naming the key: {@code head} missing or another head, {@code head.version}
         *                                  missing, malformed or newer than {@link #version()}, or an unknown key
         */
        public Settings read(Properties p, String... names) {
            Settings s = settingsOf(p);
            String[] known = Arrays.copyOf(names, names.length + 1);
            known[names.length] = "version";
            s.requireOnly(known);
            return s;
        }
    }

    /** {@return this spec's type: its name and settings version} */
    Kind kind();

    /**
     * The head's name in files, registries and tables: {@code "pointwise"}, {@code "histogram"}, {@code "mdn"}, ...
     * ({@link #kind()}'s).
     */
    default String name() {
        return kind().name();
    }

    /**
     * The version of the settings this spec writes (>= 1; {@link #kind()}'s); readers accept every version up to
     * their own.
     */
    default int version() {
        return kind().version();
    }

    /**
     * The settings, in a fixed order, by name (without the {@code head.} prefix), as strings that the reader parses
     * back to the same spec ({@code Double.toString} for doubles: as {@link Settings#writer()} writes them).
     */
    Map<String, String> settings();

    /**
     * The spec as named keys: {@code head = name()}, {@code head.version = version()} and {@code head.<name>} for
     * each of {@link #settings()}.
     *
     * @return a new table
     */
    default Properties toProperties() {
        Properties p = new Properties();
        p.setProperty(KEY, name());
        p.setProperty(PREFIX + "version", Integer.toString(version()));
        settings().forEach((k, v) -> p.setProperty(PREFIX + k, v));
        return p;
    }

    /**
     * Builds a fresh head.
     *
     * @param inputWidth D, the width of the features it takes
     * @param seed       initialisation seed
     * @param type       FLOAT or DOUBLE
     */
    RegressionHead<?> build(int inputWidth, long seed, DataType type);

    /** How the model maps y to the units this head is trained in (see {@link TargetScaling}). */
    TargetScaling targetScaling();

    /**
     * This spec adapted to the training targets, before the head is built: what the targets show about the head's
     * settings (e.g. the unnormalized decoder fits its tokenizer's exponent range to them). A model calls it once per
     * fit, builds the head from the result and saves that spec.
     *
     * <p>Default: this spec (nothing to adapt).
     *
     * @param y {@code [N]} the training targets in this head's units ({@link #targetScaling()}); NaN and +-Infinity
     *          only where the head can represent them ({@link #representsNonFinite()})
     * @return a spec of the same head, equal to this one if nothing changes
     * @throws IllegalArgumentException if y is null or holds no finite value (implementations that use it)
     */
    default HeadSpec fittedTo(double[] y) {
        return this;
    }

    /**
     * Whether the head learns NaN, +Infinity and -Infinity as outcomes (a decoder whose tokenizer has special
     * tokens), so that training targets may hold them; default false (a model then refuses non-finite targets).
     */
    default boolean representsNonFinite() {
        return false;
    }

    /**
     * A spec of the same head that learns NaN, +Infinity and -Infinity as outcomes, where the head can (a decoder
     * whose tokenizer can spell them gets its special tokens; then {@link #representsNonFinite()} is true); this spec
     * itself where it cannot. Default: this spec.
     */
    default HeadSpec learningNonFinite() {
        return this;
    }

    /** The loss this head trains with unless told otherwise (a loss expression such as {@code "ce"}). */
    String defaultLoss();

    /** The point prediction this head reports (RMSE and Kendall tau in the command line use it): MEAN by default. */
    default PointEstimate pointEstimate() {
        return PointEstimate.MEAN;
    }

    /**
     * The common first step of a spec reader: checks that {@code head} is {@code name} and that {@code head.version}
     * is in {@code [1, newest]}, and returns the settings under {@code head.}.
     *
     * @throws IllegalArgumentException naming the key: {@code head} missing or another head, {@code head.version}
     *                                  missing, malformed or newer than {@code newest}
     */
    static Settings settingsOf(Properties p, String name, int newest) {
        Checks.notNull("properties", p);
        String head = p.getProperty(KEY);
        Checks.require(head != null, "%s is missing", KEY);
        Checks.require(head.trim().equals(name), "%s must be %s for this reader, got '%s'", KEY, name, head);
        Settings s = Settings.of(p, PREFIX);
        s.version(newest);
        return s;
    }
}
