package io.regheads.core.check;

import java.util.Arrays;
import java.util.Locale;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Argument checks with messages that name the argument, the rule and the actual value, e.g.
 * {@code "targets must have shape [32], got [32, 1]"} or {@code "sigma must be > 0 and finite, got NaN"}.
 *
 * <p>Each check tests the <em>valid</em> condition, so NaN always falls into the throw. All methods throw
 * {@link IllegalArgumentException}; none returns a silent NaN. Messages are formatted with {@link Locale#ROOT}
 * whatever the default locale. Stateless and thread-safe.
 */
public final class Checks {
    private Checks() {}

    /** Throws unless {@code condition}; the message is {@code String.format(Locale.ROOT, format, args)}. */
    public static void require(boolean condition, String format, Object... args) {
        if (!condition) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, format, args));
        }
    }

    /** {@code value} must be finite (not NaN, not +-Inf). Returns it. */
    public static double finite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite, got " + value);
        }
        return value;
    }

    /** {@code value} must be finite and {@code > 0}. Returns it. */
    public static double positive(String name, double value) {
        if (!(value > 0 && Double.isFinite(value))) {
            throw new IllegalArgumentException(name + " must be > 0 and finite, got " + value);
        }
        return value;
    }

    /** {@code value} must be finite and {@code >= 0}. Returns it. */
    public static double nonNegative(String name, double value) {
        if (!(value >= 0 && Double.isFinite(value))) {
            throw new IllegalArgumentException(name + " must be >= 0 and finite, got " + value);
        }
        return value;
    }

    /** {@code value} must lie in the closed interval [lo, hi]. Returns it. */
    public static double inClosedRange(String name, double value, double lo, double hi) {
        if (!(value >= lo && value <= hi)) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** {@code value >= min}. Returns it. */
    public static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    /** {@code lo <= value <= hi}. Returns it. */
    public static int inRange(String name, int value, int lo, int hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Every element finite; the message names the first offending index and value. */
    public static double[] allFinite(String name, double[] values) {
        notNull(name, values);
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(name + " must be finite everywhere, got " + values[i] + " at index " + i);
            }
        }
        return values;
    }

    /** Every element in the closed interval [lo, hi] (NaN fails); the message names the first offending index. */
    public static double[] allInClosedRange(String name, double[] values, double lo, double hi) {
        notNull(name, values);
        for (int i = 0; i < values.length; i++) {
            if (!(values[i] >= lo && values[i] <= hi)) {
                throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + values[i]
                        + " at index " + i);
            }
        }
        return values;
    }

    /**
     * Per-row query values of a batched distribution: not null, exactly {@code length} entries, none NaN (+-Infinity
     * is allowed: densities there are 0). Returns it.
     */
    public static double[] rowValues(String name, double[] values, int length) {
        if (values == null || values.length != length) {
            throw new IllegalArgumentException(name + " must have length B = " + length + ", got "
                    + (values == null ? "null" : String.valueOf(values.length)));
        }
        for (int i = 0; i < values.length; i++) {
            if (Double.isNaN(values[i])) { // explicit test: no varargs boxing per element
                throw new IllegalArgumentException(name + " must not be NaN, got NaN at index " + i);
            }
        }
        return values;
    }

    /** Not null. Returns it. */
    public static <T> T notNull(String name, T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        return value;
    }

    /** Array has exactly the given shape. Returns it. */
    public static INDArray shape(String name, INDArray array, long... expected) {
        notNull(name, array);
        if (!Arrays.equals(array.shape(), expected)) {
            throw new IllegalArgumentException(
                    name + " must have shape " + Arrays.toString(expected) + ", got " + Arrays.toString(array.shape()));
        }
        return array;
    }

    /**
     * A batch of rows: rank 2, {@code columns} columns, at least one row. Returns it. The message names the expected
     * shape with its legend, e.g. {@code "phi must have shape [B, D] = [B, 8] with B >= 1, got [2, 4, 8]"}.
     *
     * @param legend the letter of the column count in the shape legend ({@code "D"}, {@code "K"})
     */
    public static INDArray rows(String name, INDArray array, String legend, long columns) {
        notNull(name, array);
        if (array.rank() != 2 || array.size(1) != columns || array.size(0) < 1) {
            throw new IllegalArgumentException(name + " must have shape [B, " + legend + "] = [B, " + columns
                    + "] with B >= 1, got " + Arrays.toString(array.shape()));
        }
        return array;
    }

    /** Array has the given rank. Returns it. */
    public static INDArray rank(String name, INDArray array, int rank) {
        notNull(name, array);
        if (array.rank() != rank) {
            throw new IllegalArgumentException(
                    name + " must have rank " + rank + ", got shape " + Arrays.toString(array.shape()));
        }
        return array;
    }
}
