package io.regheads.heads.model;

import io.regheads.core.check.Checks;
import io.regheads.core.check.Names;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The names of a model's feature columns (in the order the encoder takes them) and of its target, as the training
 * data had them: what lets a prediction find its columns by name in any order, and refuse a file whose columns were
 * renamed, dropped or swapped instead of predicting from the wrong columns.
 *
 * <p>Saved as {@code names.target} and {@code names.feature.<j>} ({@code j = 0..D-1}); a model without them (trained
 * outside {@code fit} without names) is matched by position, with a note. Thread-safe: the names are immutable, and
 * the once-per-process log flags are atomic.
 */
final class ColumnNames {
    private static final Logger LOG = LoggerFactory.getLogger(RegressionModel.class);
    private static final String TARGET_KEY = "names.target";
    private static final String FEATURE_PREFIX = "names.feature.";

    private final List<String> features; // null: unknown
    private final String target; // null: unknown
    /** Once per process: a service scoring plain arrays would otherwise log the same line for every model. */
    private static final AtomicBoolean POSITIONAL_WARNED = new AtomicBoolean();
    private static final AtomicBoolean UNNAMED_NOTED = new AtomicBoolean();

    private ColumnNames(List<String> features, String target) {
        this.features = features == null ? null : List.copyOf(features);
        this.target = target;
    }

    /** No names: columns are matched by position. */
    static ColumnNames unknown() {
        return new ColumnNames(null, null);
    }

    /**
     * The given names.
     *
     * @throws IllegalArgumentException if a name is null or repeated, or the count is not {@code width}
     */
    static ColumnNames of(List<String> features, String target, int width) {
        Checks.notNull("featureNames", features);
        Checks.require(features.size() == width, "featureNames must name %d columns, got %d", width, features.size());
        Set<String> seen = new HashSet<>();
        for (String f : features) {
            Checks.require(f != null && seen.add(f), "featureNames must be distinct and not null, got %s", features);
        }
        return new ColumnNames(features, Checks.notNull("targetName", target));
    }

    /** The names of {@link #of} from saved properties, or {@link #unknown()} if the file holds none. */
    static ColumnNames read(Properties p, int width) {
        String target = p.getProperty(TARGET_KEY);
        if (target == null) {
            Checks.require(p.getProperty(FEATURE_PREFIX + 0) == null, "%s must be given with %s0", TARGET_KEY,
                    FEATURE_PREFIX);
            return unknown();
        }
        List<String> f = new ArrayList<>(width);
        for (int j = 0; j < width; j++) {
            String name = p.getProperty(FEATURE_PREFIX + j);
            Checks.require(name != null, "%s%d is missing (the model has %d features)", FEATURE_PREFIX, j, width);
            f.add(name);
        }
        Checks.require(p.getProperty(FEATURE_PREFIX + width) == null, "%s%d must not exist (the model has %d features)",
                FEATURE_PREFIX, width, width);
        return of(f, target, width);
    }

    /** Adds the names to {@code p} (nothing when unknown). */
    void write(Properties p) {
        if (features == null) {
            return;
        }
        p.setProperty(TARGET_KEY, target);
        for (int j = 0; j < features.size(); j++) {
            p.setProperty(FEATURE_PREFIX + j, features.get(j));
        }
    }

    /** {@return the feature names in the model's order, or an empty list when unknown} */
    List<String> features() {
        return features == null ? List.of() : features;
    }

    Optional<String> target() {
        return Optional.ofNullable(target);
    }

    /**
     * For each of the model's features, the index of its column in {@code columns}.
     *
     * @param columns the names of the columns of the rows to predict, each a feature of the model, in any order
     * @param width   the model's input width D
     * @return {@code [D]}; the identity when the model has no names (then there must be D columns)
     * @throws IllegalArgumentException if a column is missing, unknown (the model's target among them) or repeated;
     *                                  the message names it and lists the model's features; without names, if there
     *                                  are not D columns
     */
    int[] order(List<String> columns, int width) {
        Checks.notNull("columns", columns);
        if (features == null) {
            Checks.require(columns.size() == width, "columns must be %d (the model's input width, matched by "
                    + "position: it records no names), got %d", width, columns.size());
            if (UNNAMED_NOTED.compareAndSet(false, true)) {
                LOG.info("a model that records no column names takes its columns by position, as {}", columns);
            }
            int[] identity = new int[width];
            for (int j = 0; j < width; j++) {
                identity[j] = j;
            }
            return identity;
        }
        Map<String, Integer> at = new HashMap<>();
        for (int c = 0; c < columns.size(); c++) {
            String name = Checks.notNull("columns[" + c + "]", columns.get(c));
            Checks.require(at.put(name, c) == null, "columns must be distinct: '%s' appears twice", name);
            if (!features.contains(name)) {
                String why = name.equals(target) ? "it is the model's target (leave it out of the features)"
                        : "the model was not trained on it" + Names.didYouMean(name, features);
                throw new IllegalArgumentException("column '" + name + "' is not a feature of this model: " + why
                        + " (features: " + String.join(", ", features) + ")");
            }
        }
        int[] order = new int[features.size()];
        for (int j = 0; j < order.length; j++) {
            Integer c = at.get(features.get(j));
            if (c == null) {
                // every column is a feature (checked above), so none is a near miss to suggest
                throw new IllegalArgumentException("column '" + features.get(j) + "' is missing: the model was trained "
                        + "on it (features: "
                        + String.join(", ", features) + ")");
            }
            order[j] = c;
        }
        return order;
    }

    /**
     * {@code x}'s rows, whose columns are named {@code columns}, in the model's order ({@link #order}).
     *
     * @throws IllegalArgumentException if x is null, or as {@link #order} and {@link #reordered}
     */
    double[][] inOrder(double[][] x, List<String> columns, int width) {
        Checks.notNull("x", x);
        return reordered(x, order(columns, width));
    }

    /** {@code x}'s rows with their columns put in the model's order ({@code x} itself when already in order). */
    static double[][] reordered(double[][] x, int[] order) {
        Checks.notNull("x", x);
        boolean identity = true;
        for (int j = 0; j < order.length; j++) {
            identity &= order[j] == j;
        }
        if (identity) {
            return x;
        }
        double[][] out = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            double[] row = x[i];
            Checks.require(row != null && row.length == order.length, "x row %d must have %d values (its columns), got "
                    + "%s", i, order.length, row == null ? "null" : Integer.toString(row.length));
            double[] r = new double[order.length];
            for (int j = 0; j < order.length; j++) {
                r[j] = row[order[j]];
            }
            out[i] = r;
        }
        return out;
    }

    /**
     * Logs, once per process, that columns are taken by position although the model knows their names (a call with
     * plain arrays: {@code predict(double[][])} and its siblings).
     */
    void positional() {
        if (features != null && POSITIONAL_WARNED.compareAndSet(false, true)) {
            LOG.warn("rows given as plain arrays are matched to this model's features by position ({}); pass a "
                    + "Dataset or the column names (predict(x, columns)) to have them matched by name",
                    String.join(", ", features));
        }
    }
}
