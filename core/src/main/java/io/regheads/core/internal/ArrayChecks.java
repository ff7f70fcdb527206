package io.regheads.core.internal;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The finiteness checks of ND4J arrays, which read the arrays through {@link Host} (beside the public {@link Checks},
 * with the same one-line messages). Stateless and thread-safe.
 */
public final class ArrayChecks {
    private ArrayChecks() {}

    /**
     * Every element of a rank-2 array finite; the message names the row and column of the first offending value,
     * e.g. {@code "phi must be finite, got Infinity at row 3, column 0"}. One host copy. Returns it.
     */
    public static INDArray finiteRows(String name, INDArray array) {
        Checks.rank(name, array, 2);
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

    /** Every element of the array finite; the message names the first offending flat index and value. */
    public static INDArray allFinite(String name, INDArray array) {
        Checks.notNull(name, array);
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
                    throw notFinite(name, array, v, i);
                }
            }
        }
        return array;
    }

    /**
     * Scans a c-ordered contiguous FLOAT/DOUBLE array through the host layer (no native op: an ND4J reduction pays
     * its op dispatch even on a small batch; docs/perf-engine.md). Returns true when it was scanned and is finite;
     * throws naming the first offending flat index; returns false when the array is not of that kind (the caller then
     * checks natively).
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
}
