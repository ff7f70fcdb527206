package io.regheads.losses;

import io.regheads.core.Checks;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.Arrays;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.concurrency.AffinityManager;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Plain-Java access to the host memory of a c-ordered, contiguous {@code [R, C]}-shaped (any rank, last axis C)
 * float or double array, row by row, through direct {@link java.nio} views (no copy of the array, no ND4J op per
 * element). Rows are grouped in chunks of at most 1 GiB so arrays larger than 2 GiB work too.
 *
 * <p>Measured ({@code LossHostAccessBench}, a sum over [64, 32128] floats): {@code INDArray.getFloat} per element
 * 12.5 ms, {@code DataBuffer.getFloat} 2.0 ms, absolute {@code FloatBuffer.get} 2.0 ms, bulk row copies 2.5 ms (the
 * sum's add chain bounds the last three); bulk copies let the loss loops run on plain Java arrays. Package-private;
 * one instance per call, not thread-safe (it keeps a row scratch array).
 */
sealed interface HostRows permits HostRows.Floats, HostRows.Doubles {

    /** Elements per row C. */
    int rowLength();

    /** Reads row {@code row} into {@code dst[0..C)}, widened to double. */
    void read(int row, double[] dst);

    /** Element ({@code row}, {@code col}). */
    double get(int row, int col);

    /** {@code row[j] += scale * src[j]} for all j in [0, C). */
    void addScaled(int row, double scale, double[] src);

    /** {@code row[col] += delta}. */
    void add(int row, int col, double delta);

    /**
     * Views {@code array} as rows of its last axis.
     *
     * @param name  the argument name for messages
     * @param array c-ordered, contiguous (element-wise stride 1), FLOAT or DOUBLE
     * @param write whether the caller will write (then the host copy is marked as the newest, for the CUDA backend)
     * @throws IllegalArgumentException if the array is not float/double or not contiguous c-order
     */
    static HostRows of(String name, INDArray array, boolean write) {
        return of(name, array, write, 1L << 30);
    }

    /** As {@link #of(String, INDArray, boolean)} with chunks of at most {@code chunkBytes} (tests use tiny ones). */
    static HostRows of(String name, INDArray array, boolean write, long chunkBytes) {
        Checks.notNull(name, array);
        Checks.require(array.ordering() == 'c' && array.elementWiseStride() == 1,
                "%s must be c-ordered and contiguous (element-wise stride 1), got order %s, stride %s",
                name, array.ordering(), Arrays.toString(array.stride()));
        long length = array.length();
        int cols = (int) array.size(array.rank() - 1);
        Checks.require(cols > 0 && length > 0, "%s must not be empty, got shape %s", name,
                Arrays.toString(array.shape()));
        int rows = (int) (length / cols);
        Nd4j.getAffinityManager().ensureLocation(array, AffinityManager.Location.HOST);
        if (write) {
            Nd4j.getAffinityManager().tagLocation(array, AffinityManager.Location.HOST);
        }
        Pointer base = array.data().addressPointer(); // starts at the view's first element
        DataType type = array.dataType();
        if (type == DataType.FLOAT) {
            return new Floats(base, rows, cols, rowsPerChunk(cols, Float.BYTES, chunkBytes));
        }
        if (type == DataType.DOUBLE) {
            return new Doubles(base, rows, cols, rowsPerChunk(cols, Double.BYTES, chunkBytes));
        }
        throw new IllegalArgumentException(name + " must be FLOAT or DOUBLE, got " + type);
    }

    /** Rows per chunk so that one chunk stays below chunkBytes (a ByteBuffer holds at most 2^31 - 1 bytes). */
    private static int rowsPerChunk(int cols, int elementBytes, long chunkBytes) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE / 2, chunkBytes / ((long) cols * elementBytes)));
    }

    /** FLOAT arrays. */
    final class Floats implements HostRows {
        private final FloatBuffer[] chunks;
        private final int cols;
        private final int perChunk;
        private final float[] scratch;

        Floats(Pointer base, int rows, int cols, int perChunk) {
            this.cols = cols;
            this.perChunk = perChunk;
            int n = (rows + perChunk - 1) / perChunk;
            this.chunks = new FloatBuffer[n];
            long total = (long) rows * cols;
            for (int c = 0; c < n; c++) {
                long start = (long) c * perChunk * cols;
                long end = Math.min(total, start + (long) perChunk * cols);
                FloatPointer p = new FloatPointer(base);
                p.capacity(total);
                chunks[c] = p.position(start).limit(end).asBuffer();
            }
            this.scratch = new float[cols];
        }

        @Override
        public int rowLength() {
            return cols;
        }

        @Override
        public void read(int row, double[] dst) {
            float[] s = scratch;
            chunks[row / perChunk].get((row % perChunk) * cols, s, 0, cols);
            for (int j = 0; j < cols; j++) {
                dst[j] = s[j];
            }
        }

        @Override
        public double get(int row, int col) {
            return chunks[row / perChunk].get((row % perChunk) * cols + col);
        }

        @Override
        public void addScaled(int row, double scale, double[] src) {
            FloatBuffer b = chunks[row / perChunk];
            int at = (row % perChunk) * cols;
            float[] s = scratch;
            b.get(at, s, 0, cols);
            for (int j = 0; j < cols; j++) {
                s[j] = (float) (s[j] + scale * src[j]);
            }
            b.put(at, s, 0, cols);
        }

        @Override
        public void add(int row, int col, double delta) {
            FloatBuffer b = chunks[row / perChunk];
            int at = (row % perChunk) * cols + col;
            b.put(at, (float) (b.get(at) + delta));
        }
    }

    /** DOUBLE arrays. */
    final class Doubles implements HostRows {
        private final DoubleBuffer[] chunks;
        private final int cols;
        private final int perChunk;
        private final double[] scratch;

        Doubles(Pointer base, int rows, int cols, int perChunk) {
            this.cols = cols;
            this.perChunk = perChunk;
            int n = (rows + perChunk - 1) / perChunk;
            this.chunks = new DoubleBuffer[n];
            long total = (long) rows * cols;
            for (int c = 0; c < n; c++) {
                long start = (long) c * perChunk * cols;
                long end = Math.min(total, start + (long) perChunk * cols);
                DoublePointer p = new DoublePointer(base);
                p.capacity(total);
                chunks[c] = p.position(start).limit(end).asBuffer();
            }
            this.scratch = new double[cols];
        }

        @Override
        public int rowLength() {
            return cols;
        }

        @Override
        public void read(int row, double[] dst) {
            chunks[row / perChunk].get((row % perChunk) * cols, dst, 0, cols);
        }

        @Override
        public double get(int row, int col) {
            return chunks[row / perChunk].get((row % perChunk) * cols + col);
        }

        @Override
        public void addScaled(int row, double scale, double[] src) {
            DoubleBuffer b = chunks[row / perChunk];
            int at = (row % perChunk) * cols;
            double[] s = scratch;
            b.get(at, s, 0, cols);
            for (int j = 0; j < cols; j++) {
                s[j] += scale * src[j];
            }
            b.put(at, s, 0, cols);
        }

        @Override
        public void add(int row, int col, double delta) {
            DoubleBuffer b = chunks[row / perChunk];
            int at = (row % perChunk) * cols + col;
            b.put(at, b.get(at) + delta);
        }
    }
}
