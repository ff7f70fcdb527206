package io.regheads.core.internal;

import java.lang.ref.Reference;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.Arrays;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The one host-access layer: copies between the native memory of ND4J arrays and Java arrays, and the direct BLAS
 * call. No other class of the project touches native pointers or buffers (a build check enforces it).
 *
 * <p><b>Why a layer.</b> A {@code FloatBuffer} or {@code Pointer} over an array's memory does not keep the array
 * alive: once the JIT sees the {@code INDArray} unused, a collection may free its memory while a loop still reads
 * it, which crashes the JVM or silently changes results. Every method here therefore takes the owning array, does
 * the whole access inside the call and ends with {@link Reference#reachabilityFence} on it; no buffer, pointer or
 * view ever leaves this class. Kernels work on the Java arrays these methods fill (which the JIT vectorises) and
 * write their results back with one call.
 *
 * <p><b>Devices.</b> On a device backend (CUDA) every access first brings the newest data to the host ({@code
 * AffinityManager.ensureLocation(a, HOST)}) and every write marks the host copy as the newest ({@code tagLocation(a,
 * HOST)}), so that ND4J copies it to the device before the next op; on the CPU backend both are skipped.
 *
 * <p><b>Arrays.</b> Element {@code i} is the {@code i}-th element in c order of a c-ordered, contiguous FLOAT or
 * DOUBLE array (a view's offset is applied); anything else is refused with an {@link IllegalArgumentException}
 * (callers make a contiguous copy first where they may get other layouts). Reads into {@code double[]} widen a FLOAT
 * array; writes from {@code double[]} round to float. Indices are {@code long}, so arrays beyond 2^31 elements work
 * range by range.
 *
 * <p>Stateless and thread-safe: concurrent reads of one array are safe; concurrent writes to overlapping elements
 * are the caller's race, as for any memory.
 */
public final class Host {
    /** The backend's synchronisation, fixed when the class loads. */
    private static final DeviceSync SYNC = DeviceSync.forBackend();
    /** Elements converted per step between float and double (a small scratch, never a copy of the whole array). */
    private static final int CHUNK = 4096;
    /** Read-only sources of zeros for {@link #zero}. */
    private static final float[] ZEROS_F = new float[CHUNK];
    private static final double[] ZEROS_D = new double[CHUNK];
    /** Elements per NIO buffer: a buffer spans at most 2^31 - 1 bytes. */
    private static final int SPAN = 1 << 26;

    private Host() {}

    // ------------------------------------------------------------------ reads

    /** Copies the whole FLOAT array {@code a} into {@code dst} (length {@code a.length()}); returns {@code dst}. */
    public static float[] read(INDArray a, float[] dst) {
        return read(SYNC, a, dst);
    }

    /** Copies the whole of {@code a} (FLOAT widened, or DOUBLE) into {@code dst} (length {@code a.length()}). */
    public static double[] read(INDArray a, double[] dst) {
        return read(SYNC, a, dst);
    }

    /** Copies elements {@code [from, from + n)} of the FLOAT array {@code a} into {@code dst[at, at + n)}. */
    public static void read(INDArray a, long from, float[] dst, int at, int n) {
        read(SYNC, a, from, dst, at, n);
    }

    /** Copies elements {@code [from, from + n)} of {@code a} (FLOAT widened, or DOUBLE) into {@code dst[at, at + n)}. */
    public static void read(INDArray a, long from, double[] dst, int at, int n) {
        read(SYNC, a, from, dst, at, n);
    }

    /** A new {@code float[]} with the elements of the FLOAT array {@code a}. */
    public static float[] floats(INDArray a) {
        return read(a, new float[lengthOf(a)]);
    }

    /**
     * A new {@code double[]} with the elements of {@code a} in c order: any layout and numeric type (an array without
     * the {@link #hostLayout} is copied to a c-ordered DOUBLE array first).
     */
    public static double[] doubles(INDArray a) {
        INDArray c = hostLayout(a) ? a : a.castTo(DataType.DOUBLE).dup('c');
        return read(c, new double[lengthOf(c)]);
    }

    /**
     * The rank-2 array {@code a} as {@code [rows][cols]} doubles; any layout and floating type (a non-contiguous or
     * non-FLOAT/DOUBLE array is copied to a c-ordered DOUBLE array first).
     */
    public static double[][] matrix(INDArray a) {
        if (a.rank() != 2) {
            throw new IllegalArgumentException("array must have rank 2, got shape " + Arrays.toString(a.shape()));
        }
        INDArray c = hostLayout(a) ? a : a.castTo(DataType.DOUBLE).dup('c');
        int rows = Math.toIntExact(c.size(0));
        int cols = Math.toIntExact(c.size(1));
        double[] flat = doubles(c);
        double[][] m = new double[rows][];
        for (int i = 0; i < rows; i++) {
            m[i] = Arrays.copyOfRange(flat, i * cols, (i + 1) * cols);
        }
        return m;
    }

    /** Element {@code i} of {@code a} (FLOAT widened, or DOUBLE); for single values, not loops. */
    public static double get(INDArray a, long i) {
        double[] one = new double[1];
        read(a, i, one, 0, 1);
        return one[0];
    }

    /**
     * The flat index of the first element of {@code a} that is NaN or infinite, or -1 when all are finite (scanned in
     * chunks: no copy of the whole array).
     */
    public static long firstNonFinite(INDArray a) {
        long n = a.length();
        if (a.dataType() == DataType.FLOAT) {
            float[] buf = new float[(int) Math.min(CHUNK, Math.max(n, 1))];
            for (long from = 0; from < n; from += buf.length) {
                int len = (int) Math.min(buf.length, n - from);
                read(a, from, buf, 0, len);
                for (int i = 0; i < len; i++) {
                    if (!Float.isFinite(buf[i])) {
                        return from + i;
                    }
                }
            }
            return -1;
        }
        double[] buf = new double[(int) Math.min(CHUNK, Math.max(n, 1))];
        for (long from = 0; from < n; from += buf.length) {
            int len = (int) Math.min(buf.length, n - from);
            read(a, from, buf, 0, len);
            for (int i = 0; i < len; i++) {
                if (!Double.isFinite(buf[i])) {
                    return from + i;
                }
            }
        }
        return -1;
    }

    // ------------------------------------------------------------------ writes

    /** Copies {@code src} (length {@code a.length()}) into the FLOAT array {@code a}. */
    public static void write(float[] src, INDArray a) {
        write(SYNC, src, 0, src.length, a, 0, true);
    }

    /** Copies {@code src} (length {@code a.length()}) into {@code a} (rounded to float for a FLOAT array). */
    public static void write(double[] src, INDArray a) {
        write(SYNC, src, 0, src.length, a, 0, true);
    }

    /** Copies {@code src[at, at + n)} into elements {@code [to, to + n)} of the FLOAT array {@code a}. */
    public static void write(float[] src, int at, int n, INDArray a, long to) {
        write(SYNC, src, at, n, a, to, false);
    }

    /** Copies {@code src[at, at + n)} into elements {@code [to, to + n)} of {@code a} (rounded for FLOAT). */
    public static void write(double[] src, int at, int n, INDArray a, long to) {
        write(SYNC, src, at, n, a, to, false);
    }

    /** Sets element {@code i} of {@code a} to {@code v}; for single values, not loops. */
    public static void set(INDArray a, long i, double v) {
        write(new double[] {v}, 0, 1, a, i);
    }

    /** Writes {@code row} into every row of {@code a} (last dimension {@code row.length}): a bias broadcast. */
    public static void fillRows(float[] row, INDArray a) {
        fillRows(SYNC, row, a);
    }

    /** As {@link #fillRows(float[], INDArray)}, rounded to float for a FLOAT array. */
    public static void fillRows(double[] row, INDArray a) {
        fillRows(SYNC, row, a);
    }

    /** Sets every element of {@code a} to 0 (one memset). */
    public static void zero(INDArray a) {
        zero(SYNC, a);
    }

    /**
     * Replaces every element x of {@code a} (FLOAT or DOUBLE) with {@code max(x, 0)} in place, as {@link Math#max}
     * computes it: NaN stays NaN, {@code -0.0} becomes {@code 0.0}. Element by element in small chunks, each read into
     * a scratch array, clamped there (a loop the JIT vectorises) and written back.
     */
    public static void relu(INDArray a) {
        relu(SYNC, a);
    }

    /** A new c-ordered FLOAT array of the given shape holding {@code src}. */
    public static INDArray create(float[] src, long... shape) {
        INDArray a = org.nd4j.linalg.factory.Nd4j.createUninitialized(DataType.FLOAT, shape, 'c');
        write(src, a);
        return a;
    }

    /** A new c-ordered array of the given type (FLOAT or DOUBLE) and shape holding {@code src}. */
    public static INDArray create(double[] src, DataType type, long... shape) {
        INDArray a = org.nd4j.linalg.factory.Nd4j.createUninitialized(type, shape, 'c');
        write(src, a);
        return a;
    }

    // ------------------------------------------------------------------ BLAS

    /**
     * Whether {@link #gemm} can call OpenBLAS directly: ND4J's CPU backend with its bundled OpenBLAS on the class
     * path, unless the system property {@code regheads.gemm.nd4j} is {@code true}.
     */
    public static boolean blasAvailable() {
        return Blas.AVAILABLE;
    }

    /**
     * Row-major {@code c = alpha op(a) op(b) + beta c} by {@code cblas_sgemm}/{@code cblas_dgemm} on the arrays' host
     * memory; for one column ({@code n = 1}, as a single-output layer) by {@code cblas_sgemv}/{@code cblas_dgemv}
     * instead, which reads {@code a} once rather than packing it (a 2048 x 256 times 256 x 1 product: several times
     * faster). With {@code beta = 0} the product clears c itself (a memset) and asks BLAS for {@code beta = 1}:
     * OpenBLAS clears c first too, then adds the product, so the bits are the same, but its own clearing pass was
     * measured slower (docs/perf-engine.md). The caller has checked what {@code Gemm} checks: {@link #blasAvailable()},
     * rank 2, c-ordered and contiguous, one floating type, non-empty, shapes that chain ({@code op(a)} is m x k, {@code
     * op(b)} k x n), and c aliasing neither a nor b.
     */
    public static void gemm(INDArray a, INDArray b, INDArray c, boolean transposeA, boolean transposeB, int m, int n,
            int k, double alpha, double beta) {
        if (!Blas.AVAILABLE) {
            throw new IllegalStateException("direct BLAS is not available on this backend (see Host.blasAvailable)");
        }
        try {
            SYNC.beforeHostAccess(a);
            SYNC.beforeHostAccess(b);
            SYNC.beforeHostAccess(c);
            if (n == 1) {
                if (beta == 0) { // c may hold anything, NaN included; BLAS may scale it by beta rather than overwrite
                    zero(SYNC, c);
                }
                int rows = (int) a.size(0);
                int cols = (int) a.size(1);
                if (c.dataType() == DataType.FLOAT) {
                    Blas.sgemv(transposeA, rows, cols, (float) alpha, floatsAt(a), cols, floatsAt(b), (float) beta,
                            floatsAt(c));
                } else {
                    Blas.dgemv(transposeA, rows, cols, alpha, doublesAt(a), cols, doublesAt(b), beta, doublesAt(c));
                }
            } else if (beta == 0) {
                zero(SYNC, c);
                product(a, b, c, transposeA, transposeB, m, n, k, alpha, 1);
            } else {
                product(a, b, c, transposeA, transposeB, m, n, k, alpha, beta);
            }
            SYNC.afterHostWrite(c);
        } finally {
            Reference.reachabilityFence(a);
            Reference.reachabilityFence(b);
            Reference.reachabilityFence(c);
        }
    }

    /** {@code cblas_?gemm} on the host memory of arrays the caller keeps reachable. */
    private static void product(INDArray a, INDArray b, INDArray c, boolean transposeA, boolean transposeB, int m,
            int n, int k, double alpha, double beta) {
        if (c.dataType() == DataType.FLOAT) {
            Blas.sgemm(transposeA, transposeB, m, n, k, (float) alpha, floatsAt(a), (int) a.size(1), floatsAt(b),
                    (int) b.size(1), (float) beta, floatsAt(c), (int) c.size(1));
        } else {
            Blas.dgemm(transposeA, transposeB, m, n, k, alpha, doublesAt(a), (int) a.size(1), doublesAt(b),
                    (int) b.size(1), beta, doublesAt(c), (int) c.size(1));
        }
    }

    // ------------------------------------------------------------------ layout

    /** True when {@code a} is FLOAT or DOUBLE, c-ordered and contiguous: the layout every method here accepts. */
    public static boolean hostLayout(INDArray a) {
        DataType t = a.dataType();
        return (t == DataType.FLOAT || t == DataType.DOUBLE) && a.ordering() == 'c'
                && (a.length() <= 1 || a.elementWiseStride() == 1);
    }

    /** {@code a} itself when it has the {@link #hostLayout} and type {@code type}, else a c-ordered copy in it. */
    public static INDArray contiguous(INDArray a, DataType type) {
        return hostLayout(a) && a.dataType() == type ? a : a.castTo(type).dup('c');
    }

    // ------------------------------------------------------------------ implementation (sync as a parameter, for tests)

    static float[] read(DeviceSync sync, INDArray a, float[] dst) {
        requireLength(a, dst.length);
        read(sync, a, 0, dst, 0, dst.length);
        return dst;
    }

    static double[] read(DeviceSync sync, INDArray a, double[] dst) {
        requireLength(a, dst.length);
        read(sync, a, 0, dst, 0, dst.length);
        return dst;
    }

    static void read(DeviceSync sync, INDArray a, long from, float[] dst, int at, int n) {
        requireRange(a, from, dst.length, at, n);
        requireType(a, DataType.FLOAT, "read into a float[]");
        if (n == 0) {
            return;
        }
        try {
            sync.beforeHostAccess(a);
            for (int done = 0; done < n; done += SPAN) {
                int len = Math.min(SPAN, n - done);
                floats(a, from + done, len).get(dst, at + done, len);
            }
        } finally {
            Reference.reachabilityFence(a);
        }
    }

    static void read(DeviceSync sync, INDArray a, long from, double[] dst, int at, int n) {
        requireRange(a, from, dst.length, at, n);
        if (n == 0) {
            return;
        }
        try {
            sync.beforeHostAccess(a);
            if (a.dataType() == DataType.DOUBLE) {
                for (int done = 0; done < n; done += SPAN) {
                    int len = Math.min(SPAN, n - done);
                    doubles(a, from + done, len).get(dst, at + done, len);
                }
            } else {
                float[] buf = new float[Math.min(CHUNK, n)];
                for (int s0 = 0; s0 < n; s0 += SPAN) {
                    int span = Math.min(SPAN, n - s0);
                    FloatBuffer b = floats(a, from + s0, span); // one per span: making one is a native call
                    for (int done = 0; done < span; done += buf.length) {
                        int len = Math.min(buf.length, span - done);
                        b.get(done, buf, 0, len);
                        int o = at + s0 + done;
                        for (int i = 0; i < len; i++) {
                            dst[o + i] = buf[i];
                        }
                    }
                }
            }
        } finally {
            Reference.reachabilityFence(a);
        }
    }

    static void write(DeviceSync sync, float[] src, int at, int n, INDArray a, long to, boolean whole) {
        if (whole) {
            requireLength(a, src.length);
        }
        requireRange(a, to, src.length, at, n);
        requireType(a, DataType.FLOAT, "written from a float[]");
        if (n == 0) {
            return;
        }
        try {
            sync.beforeHostAccess(a);
            for (int done = 0; done < n; done += SPAN) {
                int len = Math.min(SPAN, n - done);
                floats(a, to + done, len).put(src, at + done, len);
            }
            sync.afterHostWrite(a);
        } finally {
            Reference.reachabilityFence(a);
        }
    }

    static void write(DeviceSync sync, double[] src, int at, int n, INDArray a, long to, boolean whole) {
        if (whole) {
            requireLength(a, src.length);
        }
        requireRange(a, to, src.length, at, n);
        if (n == 0) {
            return;
        }
        try {
            sync.beforeHostAccess(a);
            if (a.dataType() == DataType.DOUBLE) {
                for (int done = 0; done < n; done += SPAN) {
                    int len = Math.min(SPAN, n - done);
                    doubles(a, to + done, len).put(src, at + done, len);
                }
            } else {
                float[] buf = new float[Math.min(CHUNK, n)];
                for (int s0 = 0; s0 < n; s0 += SPAN) {
                    int span = Math.min(SPAN, n - s0);
                    FloatBuffer b = floats(a, to + s0, span);
                    for (int done = 0; done < span; done += buf.length) {
                        int len = Math.min(buf.length, span - done);
                        int o = at + s0 + done;
                        for (int i = 0; i < len; i++) {
                            buf[i] = (float) src[o + i];
                        }
                        b.put(done, buf, 0, len);
                    }
                }
            }
            sync.afterHostWrite(a);
        } finally {
            Reference.reachabilityFence(a);
        }
    }

    static void fillRows(DeviceSync sync, float[] row, INDArray a) {
        requireRows(a, row.length);
        requireType(a, DataType.FLOAT, "filled from a float[]");
        long rows = a.length() / row.length;
        int perSpan = Math.max(1, SPAN / row.length);
        try {
            sync.beforeHostAccess(a);
            for (long r0 = 0; r0 < rows; r0 += perSpan) {
                int nr = (int) Math.min(perSpan, rows - r0);
                FloatBuffer b = floats(a, r0 * row.length, nr * row.length);
                for (int r = 0; r < nr; r++) {
                    b.put(row);
                }
            }
            sync.afterHostWrite(a);
        } finally {
            Reference.reachabilityFence(a);
        }
    }

    static void fillRows(DeviceSync sync, double[] row, INDArray a) {
        requireRows(a, row.length);
        if (a.dataType() == DataType.FLOAT) {
            float[] f = new float[row.length];
            for (int i = 0; i < f.length; i++) {
                f[i] = (float) row[i];
            }
            fillRows(sync, f, a);
            return;
        }
        long rows = a.length() / row.length;
        int perSpan = Math.max(1, SPAN / row.length);
        try {
            sync.beforeHostAccess(a);
            for (long r0 = 0; r0 < rows; r0 += perSpan) {
                int nr = (int) Math.min(perSpan, rows - r0);
                DoubleBuffer b = doubles(a, r0 * row.length, nr * row.length);
                for (int r = 0; r < nr; r++) {
                    b.put(row);
                }
            }
            sync.afterHostWrite(a);
        } finally {
            Reference.reachabilityFence(a);
        }
    }

    static void relu(DeviceSync sync, INDArray a) {
        writeSpans(sync, a, (from, length) -> {
            if (a.dataType() == DataType.FLOAT) {
                FloatBuffer b = floats(a, from, length);
                float[] x = new float[Math.min(CHUNK, length)];
                for (int at = 0; at < length; at += x.length) {
                    int len = Math.min(x.length, length - at);
                    b.get(at, x, 0, len);
                    for (int i = 0; i < len; i++) {
                        x[i] = Math.max(x[i], 0f);
                    }
                    b.put(at, x, 0, len);
                }
            } else {
                DoubleBuffer b = doubles(a, from, length);
                double[] x = new double[Math.min(CHUNK, length)];
                for (int at = 0; at < length; at += x.length) {
                    int len = Math.min(x.length, length - at);
                    b.get(at, x, 0, len);
                    for (int i = 0; i < len; i++) {
                        x[i] = Math.max(x[i], 0.0);
                    }
                    b.put(at, x, 0, len);
                }
            }
        });
    }

    static void zero(DeviceSync sync, INDArray a) {
        writeSpans(sync, a, (from, length) -> {
            if (a.dataType() == DataType.FLOAT) {
                FloatBuffer b = floats(a, from, length);
                for (int at = 0; at < length; at += ZEROS_F.length) {
                    b.put(at, ZEROS_F, 0, Math.min(ZEROS_F.length, length - at));
                }
            } else {
                DoubleBuffer b = doubles(a, from, length);
                for (int at = 0; at < length; at += ZEROS_D.length) {
                    b.put(at, ZEROS_D, 0, Math.min(ZEROS_D.length, length - at));
                }
            }
        });
    }

    /** Elements {@code [from, from + length)} of an array, length at most {@link #SPAN}. */
    private interface Span {
        void run(long from, int length);
    }

    /**
     * Runs {@code span} over every element of {@code a} (any layout {@link #hostLayout} accepts), one NIO buffer's
     * worth at a time (making a buffer is a native call: one per span, chunks within it by absolute index), between
     * the device synchronisation of a write; {@code a} stays reachable throughout.
     */
    private static void writeSpans(DeviceSync sync, INDArray a, Span span) {
        requireLayout(a);
        long n = a.length();
        if (n == 0) {
            return;
        }
        try {
            sync.beforeHostAccess(a);
            for (long from = 0; from < n; from += SPAN) {
                span.run(from, (int) Math.min(SPAN, n - from));
            }
            sync.afterHostWrite(a);
        } finally {
            Reference.reachabilityFence(a);
        }
    }

    /**
     * A buffer over elements {@code [from, from + n)} of {@code a} (n at most {@link #SPAN}), made from a fresh
     * pointer object (never the data buffer's own, so concurrent calls share no position). Valid only while {@code a}
     * is reachable: every caller fences {@code a}, and no buffer leaves this class.
     */
    private static FloatBuffer floats(INDArray a, long from, int n) {
        FloatPointer p = new FloatPointer(a.data().pointer());
        long start = p.position() + a.offset() + from;
        return p.position(start).limit(start + n).asBuffer();
    }

    private static DoubleBuffer doubles(INDArray a, long from, int n) {
        DoublePointer p = new DoublePointer(a.data().pointer());
        long start = p.position() + a.offset() + from;
        return p.position(start).limit(start + n).asBuffer();
    }

    /** {@code p} (a fresh copy of a's data pointer) moved to a's first element. */
    private static <P extends Pointer> P pointer(INDArray a, P p) {
        p.position(p.position() + a.offset());
        return p;
    }

    private static FloatPointer floatsAt(INDArray a) {
        return pointer(a, new FloatPointer(a.data().pointer()));
    }

    private static DoublePointer doublesAt(INDArray a) {
        return pointer(a, new DoublePointer(a.data().pointer()));
    }

    private static int lengthOf(INDArray a) {
        long n = a.length();
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("array must have fewer than 2^31 elements to be copied whole, got " + n
                    + " (read it range by range)");
        }
        return (int) n;
    }

    private static void requireLayout(INDArray a) {
        if (a == null) {
            throw new IllegalArgumentException("array must not be null");
        }
        if (!hostLayout(a)) {
            throw new IllegalArgumentException("array must be FLOAT or DOUBLE, c-ordered and contiguous, got "
                    + a.dataType() + ", ordering " + a.ordering() + ", element-wise stride " + a.elementWiseStride()
                    + ", shape " + Arrays.toString(a.shape()));
        }
    }

    private static void requireType(INDArray a, DataType type, String what) {
        if (a.dataType() != type) {
            throw new IllegalArgumentException("array must be " + type + " to be " + what + ", got " + a.dataType());
        }
    }

    private static void requireRows(INDArray a, int rowLength) {
        requireLayout(a);
        if (rowLength == 0 || a.rank() == 0 || a.size(a.rank() - 1) != rowLength) {
            throw new IllegalArgumentException("array must have last dimension " + rowLength + " (the row), got shape "
                    + Arrays.toString(a.shape()));
        }
    }

    private static void requireLength(INDArray a, int length) {
        requireLayout(a);
        if (a.length() != length) {
            throw new IllegalArgumentException("Java array must have the array's length " + a.length() + ", got "
                    + length);
        }
    }

    private static void requireRange(INDArray a, long from, int javaLength, int at, int n) {
        requireLayout(a);
        if (n < 0 || from < 0 || from > a.length() - n || at < 0 || at > javaLength - n) {
            throw new IllegalArgumentException("range [" + from + ", " + from + " + " + n + ") of an array of "
                    + a.length() + " elements and [" + at + ", " + at + " + " + n + ") of a Java array of "
                    + javaLength + " must both lie inside");
        }
    }
}
