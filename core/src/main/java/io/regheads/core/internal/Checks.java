package io.regheads.core.internal;

import java.util.Arrays;
import java.util.Locale;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Argument checks with messages that name the argument, the rule and the actual value, e.g.
 * {@code "targets must have shape [32], got [32, 1]"} or {@code "sigma must be > 0 and finite, got NaN"}.
 *
 * <p>Each check tests the <em>valid</em> condition, so NaN always falls into the throw. All methods throw
 * {@link IllegalArgumentException}; none returns a silent NaN. Stateless and thread-safe.
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

    /**
     * Scans a c-ordered contiguous FLOAT/DOUBLE array through the host layer (no native op: an ND4J reduction pays
     * its op dispatch even on a small batch; docs/perf-engine.md). Returns true when it was scanned and is finite; throws naming the
     * first offending flat index; returns false when the array is not of that kind (the caller then checks natively).
     */
    private static boolean hostScanFinite(String name, INDArray array) {
        if (!Host.hostLayout(array)) {
            return false;
        }
        long i = Host.firstNonFinite(array);
        if (i >= 0) {
            throw notFinite(name, array, Host.get(array, i), i);
        }
        return true;
    }

    private static IllegalArgumentException notFinite(String name, INDArray array, double v, long i) {
        return new IllegalArgumentException(
                name + " must be finite everywhere, got " + v + " at flat index " + i + " (shape "
                        + Arrays.toString(array.shape()) + ")");
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

    /**
     * Every element of a rank-2 array finite; the message names the row and column of the first offending value,
     * e.g. {@code "phi must be finite, got Infinity at row 3, column 0"}. One host copy. Returns it.
     */
    public static INDArray finiteRows(String name, INDArray array) {
        rank(name, array, 2);
        long cols = array.size(1);
        double[] v = Host.doubles(array);
        for (int i = 0; i < v.length; i++) {
            if (!Double.isFinite(v[i])) {
                throw new IllegalArgumentException(name + " must be finite, got " + v[i] + " at row " + (i / cols)
                        + ", column " + (i % cols));
            }
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

    /** Every element of the array finite; the message names the first offending flat index and value. */
    public static INDArray allFinite(String name, INDArray array) {
        notNull(name, array);
        if (array.isEmpty()) {
            return array;
        }
        if (hostScanFinite(name, array)) {
            return array;
        }
        // other types and layouts: one native reduction in the common case; a scan only to build the message
        double sum = array.sumNumber().doubleValue();
        if (!Double.isFinite(sum)) {
            INDArray flat = array.reshape(array.length());
            for (long i = 0; i < flat.length(); i++) {
                double v = flat.getDouble(i);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException(
                            name + " must be finite everywhere, got " + v + " at flat index " + i
                                    + " (shape " + Arrays.toString(array.shape()) + ")");
                }
            }
        }
        return array;
    }
}
