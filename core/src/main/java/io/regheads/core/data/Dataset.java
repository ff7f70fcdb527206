package io.regheads.core.data;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.ArrayChecks;
import io.regheads.core.internal.Host;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A regression data set: features x {@code [N, D]}, targets y {@code [N]}, and column names.
 *
 * <p>Values are stored once, row-major in double precision. Features are finite; targets may also be NaN or
 * +-Infinity (outcomes that a head with special tokens learns; a model with any other head refuses them when it
 * fits, naming the row). The class is immutable: every
 * accessor that returns an array returns a copy, and {@link #subset}, {@link #withX}, {@link #withY} return new
 * data sets. Batches for training are copied straight into a caller-owned, preallocated {@link INDArray} with
 * {@link #copyRows} (no allocation on the CPU backend).
 *
 * <p>Example: {@code Dataset.of(new double[][] {{1, 2}, {3, 4}}, new double[] {5, 6})} has 2 rows, 2 features
 * named {@code x0, x1} and target {@code y}.
 *
 * <p>Thread-safe (immutable).
 */
public final class Dataset {
    private final double[] x; // [N * D] row-major
    private final double[] y; // [N]
    private final int rows;
    private final int features;
    private final List<String> featureNames;
    private final String targetName;

    private Dataset(double[] x, double[] y, int features, List<String> featureNames, String targetName) {
        this.x = x;
        this.y = y;
        this.rows = y.length;
        this.features = features;
        this.featureNames = featureNames;
        this.targetName = targetName;
    }

    /**
     * A data set from row arrays (copied).
     *
     * @param x            {@code [N][D]}, N >= 1, D >= 1, rectangular, finite
     * @param y            {@code [N]}, finite, NaN or +-Infinity
     * @param featureNames D distinct non-null names
     * @param targetName   non-null
     * @throws IllegalArgumentException on empty or ragged input, a non-finite feature, a length mismatch, or bad
     *                                  names
     */
    public static Dataset of(double[][] x, double[] y, List<String> featureNames, String targetName) {
        Checks.notNull("x", x);
        Checks.notNull("y", y);
        Checks.require(x.length > 0, "x must have at least one row, got 0 rows");
        Checks.require(y.length == x.length, "y must have one value per row of x (%d), got length %d",
                x.length, y.length);
        Checks.notNull("x[0]", x[0]);
        int d = x[0].length;
        Checks.require(d > 0, "x must have at least one column, got 0 columns");
        double[] flat = new double[Math.multiplyExact(x.length, d)];
        for (int i = 0; i < x.length; i++) {
            Checks.notNull("x[" + i + "]", x[i]);
            Checks.require(x[i].length == d, "x must be rectangular: row 0 has %d columns, row %d has %d",
                    d, i, x[i].length);
            for (int j = 0; j < d; j++) {
                Checks.require(Double.isFinite(x[i][j]), "x must be finite everywhere, got %s at row %d, column %d",
                        x[i][j], i, j);
            }
            System.arraycopy(x[i], 0, flat, i * d, d);
        }
        return new Dataset(flat, y.clone(), d, checkNames(featureNames, d), Checks.notNull("targetName", targetName));
    }

    /** Like {@link #of(double[][], double[], List, String)} with features named {@code x0..x(D-1)}, target {@code y}. */
    public static Dataset of(double[][] x, double[] y) {
        Checks.notNull("x", x);
        Checks.require(x.length > 0, "x must have at least one row, got 0 rows");
        Checks.notNull("x[0]", x[0]);
        return of(x, y, defaultNames(x[0].length), "y");
    }

    /**
     * A data set from a rank-2 array {@code [N, D]} of any floating type (values read as double).
     *
     * @throws IllegalArgumentException if x is not rank 2, has no rows or columns, or holds non-finite values
     */
    public static Dataset of(INDArray x, double[] y, List<String> featureNames, String targetName) {
        Checks.rank("x", x, 2);
        ArrayChecks.allFinite("x", x);
        return of(x.toDoubleMatrix(), y, featureNames, targetName);
    }

    static List<String> defaultNames(int d) {
        List<String> names = new ArrayList<>(d);
        for (int j = 0; j < d; j++) {
            names.add("x" + j);
        }
        return names;
    }

    private static List<String> checkNames(List<String> names, int d) {
        Checks.notNull("featureNames", names);
        Checks.require(names.size() == d, "featureNames must have one name per column (%d), got %d names",
                d, names.size());
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            Checks.notNull("feature name", n);
            Checks.require(seen.add(n), "featureNames must be distinct, got '%s' twice", n);
        }
        return List.copyOf(names);
    }

    /** Number of rows N. */
    public int rows() {
        return rows;
    }

    /** Number of feature columns D. */
    public int features() {
        return features;
    }

    /** Feature column names, D of them (unmodifiable). */
    public List<String> featureNames() {
        return featureNames;
    }

    /** Name of the target column. */
    public String targetName() {
        return targetName;
    }

    /** x[row][column]. */
    public double x(int row, int column) {
        Checks.inRange("row", row, 0, rows - 1);
        Checks.inRange("column", column, 0, features - 1);
        return x[row * features + column];
    }

    /** y[row]. */
    public double y(int row) {
        Checks.inRange("row", row, 0, rows - 1);
        return y[row];
    }

    /** A copy of one feature row, {@code [D]}. */
    public double[] row(int row) {
        Checks.inRange("row", row, 0, rows - 1);
        return Arrays.copyOfRange(x, row * features, (row + 1) * features);
    }

    /** A copy of all targets, {@code [N]}. */
    public double[] y() {
        return y.clone();
    }

    /** A copy of the features as rows, {@code [N][D]}. */
    public double[][] x() {
        double[][] out = new double[rows][];
        for (int i = 0; i < rows; i++) {
            out[i] = Arrays.copyOfRange(x, i * features, (i + 1) * features);
        }
        return out;
    }

    /** The features as a new c-ordered array {@code [N, D]} of the given floating type. */
    public INDArray featureMatrix(DataType type) {
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE, "type must be FLOAT or DOUBLE, got %s", type);
        return Nd4j.createFromArray(x).reshape('c', rows, features).castTo(type);
    }

    /**
     * The rows {@code order[from .. from+count)} in that order, as a new data set.
     *
     * @throws IllegalArgumentException if the range is out of bounds or an index is outside [0, N)
     */
    public Dataset subset(int[] order, int from, int count) {
        Checks.notNull("order", order);
        checkRange(order, from, count);
        Checks.atLeast("count", count, 1);
        double[] nx = new double[count * features];
        double[] ny = new double[count];
        for (int i = 0; i < count; i++) {
            int r = order[from + i];
            Checks.inRange("order[" + (from + i) + "]", r, 0, rows - 1);
            System.arraycopy(x, r * features, nx, i * features, features);
            ny[i] = y[r];
        }
        return new Dataset(nx, ny, features, featureNames, targetName);
    }

    /** The given rows, in that order, as a new data set ({@code rows.length >= 1}). */
    public Dataset subset(int[] rows) {
        Checks.notNull("rows", rows);
        return subset(rows, 0, rows.length);
    }

    /** The same rows with new features {@code [N][D']} (column names kept if D' = D, else {@code x0..}). */
    public Dataset withX(double[][] newX) {
        Checks.notNull("x", newX);
        Checks.require(newX.length == rows, "x must have %d rows, got %d", rows, newX.length);
        List<String> names = newX[0] != null && newX[0].length == features ? featureNames : defaultNames(
                newX[0] == null ? 0 : newX[0].length);
        return of(newX, y, names, targetName);
    }

    /** The same features with new targets {@code [N]} (finite, NaN or +-Infinity). */
    public Dataset withY(double[] newY) {
        Checks.notNull("y", newY);
        Checks.require(newY.length == rows, "y must have length %d, got %d", rows, newY.length);
        return new Dataset(x, newY.clone(), features, featureNames, targetName);
    }

    /**
     * Copies the feature rows {@code order[from .. from+count)} into {@code dest [count, D]} (FLOAT or DOUBLE,
     * c-ordered and contiguous), overwriting it. One host copy.
     *
     * @throws IllegalArgumentException on a shape, type or range mismatch
     */
    public void copyRows(int[] order, int from, int count, INDArray dest) {
        Checks.notNull("order", order);
        checkRange(order, from, count);
        Checks.shape("dest", dest, count, features);
        Checks.require(dest.dataType() == DataType.FLOAT || dest.dataType() == DataType.DOUBLE,
                "dest must be FLOAT or DOUBLE, got %s", dest.dataType());
        Checks.require(dest.ordering() == 'c' && (dest.length() <= 1 || dest.elementWiseStride() == 1),
                "dest must be contiguous in c order, got ordering %s, stride %s", dest.ordering(),
                dest.elementWiseStride());
        for (int i = 0; i < count; i++) {
            Checks.inRange("order[" + (from + i) + "]", order[from + i], 0, rows - 1);
        }
        if (dest.dataType() == DataType.DOUBLE) {
            double[] block = new double[count * features];
            for (int i = 0; i < count; i++) {
                System.arraycopy(x, order[from + i] * features, block, i * features, features);
            }
            Host.write(block, dest);
        } else {
            float[] block = new float[count * features];
            for (int i = 0; i < count; i++) {
                int src = order[from + i] * features;
                for (int j = 0; j < features; j++) {
                    block[i * features + j] = (float) x[src + j];
                }
            }
            Host.write(block, dest);
        }
    }

    /** Copies the targets {@code order[from .. from+count)} into {@code dest[0 .. count)}. */
    public void copyTargets(int[] order, int from, int count, double[] dest) {
        Checks.notNull("order", order);
        Checks.notNull("dest", dest);
        checkRange(order, from, count);
        Checks.require(dest.length >= count, "dest must have length >= %d, got %d", count, dest.length);
        for (int i = 0; i < count; i++) {
            int r = order[from + i];
            Checks.inRange("order[" + (from + i) + "]", r, 0, rows - 1);
            dest[i] = y[r];
        }
    }

    private static void checkRange(int[] order, int from, int count) {
        Checks.require(from >= 0 && count >= 0 && from <= order.length - count,
                "range [from, from + count) must lie in [0, %d], got from %d, count %d", order.length, from, count);
    }

    @Override
    public String toString() {
        return "Dataset[" + rows + " x " + features + ", target " + targetName + "]";
    }
}
