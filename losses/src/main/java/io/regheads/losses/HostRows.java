package io.regheads.losses;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import java.util.Arrays;
import java.util.Locale;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Row-by-row access to a c-ordered, contiguous float or double array seen as {@code [R, C]} (any rank, last axis
 * C), for the token losses' plain-Java loops: rows are copied through {@link Host} in blocks of about 64k elements
 * into a {@code double[]}, so one host call serves many rows (the loops visit rows in order) and arrays of any size
 * work. Writes ({@link #addScaled}, {@link #add}) go into the block and reach the array when the block moves on or
 * at {@link #flush()}; a float array is rounded once per element at that point.
 *
 * <p>Package-private; one instance per loss call, not thread-safe.
 */
final class HostRows {
    /** Elements per block (rows are never split: a block holds at least one row). */
    private static final int BLOCK = 1 << 16;

    private final INDArray array;
    private final int cols;
    private final long rows;
    private final boolean writable;
    private final int rowsPerBlock;
    private final double[] block;
    /** First row held in {@link #block}, or -1 when none. */
    private long first = -1;
    private int count;
    private boolean dirty;

    private HostRows(INDArray array, int cols, long rows, boolean writable, int blockElements) {
        this.array = array;
        this.cols = cols;
        this.rows = rows;
        this.writable = writable;
        this.rowsPerBlock = (int) Math.max(1, Math.min(rows, blockElements / cols));
        this.block = new double[rowsPerBlock * cols];
    }

    /**
     * Views {@code array} as rows of its last axis.
     *
     * @param name     the argument name for messages
     * @param array    c-ordered, contiguous (element-wise stride 1), FLOAT or DOUBLE
     * @param writable whether the caller will write (then it must call {@link #flush()} when done)
     * @throws IllegalArgumentException if the array is not float/double, not contiguous c-order, or empty
     */
    static HostRows of(String name, INDArray array, boolean writable) {
        return of(name, array, writable, BLOCK);
    }

    /** As {@link #of(String, INDArray, boolean)} with blocks of about {@code blockElements} (tests use tiny ones). */
    static HostRows of(String name, INDArray array, boolean writable, int blockElements) {
        Checks.notNull(name, array);
        Checks.require(array.dataType() == DataType.FLOAT || array.dataType() == DataType.DOUBLE,
                "%s must be FLOAT or DOUBLE, got %s", name, array.dataType());
        if (!Host.hostLayout(array)) { // the texts only when a check fails: this runs on every loss call
            throw new IllegalArgumentException(String.format(Locale.ROOT, 
                    "%s must be c-ordered and contiguous (element-wise stride 1), got order %s, stride %s",
                    name, array.ordering(), Arrays.toString(array.stride())));
        }
        long length = array.length();
        long cols = array.rank() == 0 ? 1 : array.size(array.rank() - 1);
        if (!(cols > 0 && length > 0)) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must not be empty, got shape %s", name,
                    Arrays.toString(array.shape())));
        }
        return new HostRows(array, (int) cols, length / cols, writable, blockElements);
    }

    /** Elements per row C. */
    int rowLength() {
        return cols;
    }

    /** Reads row {@code row} into {@code dst[0..C)}, widened to double. */
    void read(int row, double[] dst) {
        System.arraycopy(block, at(row), dst, 0, cols);
    }

    /** Element ({@code row}, {@code col}). */
    double get(int row, int col) {
        return block[at(row) + col];
    }

    /** {@code row[j] += scale * src[j]} for all j in [0, C). */
    void addScaled(int row, double scale, double[] src) {
        int o = writeAt(row);
        for (int j = 0; j < cols; j++) {
            block[o + j] += scale * src[j];
        }
    }

    /** {@code row[col] += delta}. */
    void add(int row, int col, double delta) {
        block[writeAt(row) + col] += delta;
    }

    /** Writes pending changes back to the array. */
    void flush() {
        if (dirty) {
            Host.write(block, 0, count * cols, array, first * cols);
            dirty = false;
        }
    }

    private int writeAt(int row) {
        if (!writable) {
            throw new IllegalStateException("rows opened read-only");
        }
        int o = at(row);
        dirty = true;
        return o;
    }

    /** The offset of {@code row} in {@link #block}, loading the block that holds it first. */
    private int at(int row) {
        if (row < first || row >= first + count || first < 0) {
            if (row < 0 || row >= rows) {
                throw new IndexOutOfBoundsException("row " + row + " of " + rows);
            }
            flush();
            first = row;
            count = (int) Math.min(rowsPerBlock, rows - row);
            Host.read(array, first * cols, block, 0, count * cols);
        }
        return (int) (row - first) * cols;
    }
}
