package io.regheads.core.internal;

import static io.regheads.core.internal.HostCopy.doublesAt;
import static io.regheads.core.internal.HostCopy.floatsAt;

import java.lang.ref.Reference;
import java.util.Arrays;
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

    private Host() {}

    // ------------------------------------------------------------------ reads

    /** Copies the whole FLOAT array {@code a} into {@code dst} (length {@code a.length()}); returns {@code dst}. */
    public static float[] read(INDArray a, float[] dst) {
        return HostCopy.read(SYNC, a, dst);
    }

    /** Copies the whole of {@code a} (FLOAT widened, or DOUBLE) into {@code dst} (length {@code a.length()}). */
    public static double[] read(INDArray a, double[] dst) {
        return HostCopy.read(SYNC, a, dst);
    }

    /** Copies elements {@code [from, from + n)} of the FLOAT array {@code a} into {@code dst[at, at + n)}. */
    public static void read(INDArray a, long from, float[] dst, int at, int n) {
        HostCopy.read(SYNC, a, from, dst, at, n);
    }

    /** Copies elements {@code [from, from + n)} of {@code a} (FLOAT widened, or DOUBLE) into {@code dst[at, at + n)}. */
    public static void read(INDArray a, long from, double[] dst, int at, int n) {
        HostCopy.read(SYNC, a, from, dst, at, n);
    }

    /** A new {@code float[]} with the elements of the FLOAT array {@code a}. */
    public static float[] floats(INDArray a) {
        return read(a, new float[HostCopy.lengthOf(a)]);
    }

    /**
     * A new {@code double[]} with the elements of {@code a} in c order: any layout and numeric type (an array without
     * the {@link #hostLayout} is copied to a c-ordered DOUBLE array first).
     */
    public static double[] doubles(INDArray a) {
        INDArray c = hostLayout(a) ? a : a.castTo(DataType.DOUBLE).dup('c');
        return read(c, new double[HostCopy.lengthOf(c)]);
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
            float[] buf = new float[(int) Math.min(HostCopy.CHUNK, Math.max(n, 1))];
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
        double[] buf = new double[(int) Math.min(HostCopy.CHUNK, Math.max(n, 1))];
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
        HostCopy.write(SYNC, src, 0, src.length, a, 0, true);
    }

    /** Copies {@code src} (length {@code a.length()}) into {@code a} (rounded to float for a FLOAT array). */
    public static void write(double[] src, INDArray a) {
        HostCopy.write(SYNC, src, 0, src.length, a, 0, true);
    }

    /** Copies {@code src[at, at + n)} into elements {@code [to, to + n)} of the FLOAT array {@code a}. */
    public static void write(float[] src, int at, int n, INDArray a, long to) {
        HostCopy.write(SYNC, src, at, n, a, to, false);
    }

    /** Copies {@code src[at, at + n)} into elements {@code [to, to + n)} of {@code a} (rounded for FLOAT). */
    public static void write(double[] src, int at, int n, INDArray a, long to) {
        HostCopy.write(SYNC, src, at, n, a, to, false);
    }

    /** Sets element {@code i} of {@code a} to {@code v}; for single values, not loops. */
    public static void set(INDArray a, long i, double v) {
        write(new double[] {v}, 0, 1, a, i);
    }

    /** Writes {@code row} into every row of {@code a} (last dimension {@code row.length}): a bias broadcast. */
    public static void fillRows(float[] row, INDArray a) {
        HostCopy.fillRows(SYNC, row, a);
    }

    /** As {@link #fillRows(float[], INDArray)}, rounded to float for a FLOAT array. */
    public static void fillRows(double[] row, INDArray a) {
        HostCopy.fillRows(SYNC, row, a);
    }

    /** Sets every element of {@code a} to 0 (one memset). */
    public static void zero(INDArray a) {
        HostCopy.zero(SYNC, a);
    }

    /**
     * Replaces every element x of {@code a} (FLOAT or DOUBLE) with {@code max(x, 0)} in place, as {@link Math#max}
     * computes it: NaN stays NaN, {@code -0.0} becomes {@code 0.0}. Element by element in small chunks, each read into
     * a scratch array, clamped there (a loop the JIT vectorises) and written back.
     */
    public static void relu(INDArray a) {
        HostCopy.relu(SYNC, a);
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
                    HostCopy.zero(SYNC, c);
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
                HostCopy.zero(SYNC, c);
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
}
