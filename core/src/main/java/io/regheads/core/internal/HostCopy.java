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
 * The copy loops behind {@link Host}, with the device synchronisation as a parameter (tests pass a recording one):
 * NIO buffers over at most {@link #SPAN} elements each, float/double conversion through a small scratch, and the
 * layout and range checks. Every method fences the array it touches; no buffer or pointer leaves this class except
 * to {@link Host#gemm}, which fences its arrays itself.
 */
final class HostCopy {
    /** Elements converted per step between float and double (a small scratch, never a copy of the whole array). */
    static final int CHUNK = 4096;
    /** Read-only sources of zeros for {@link #zero}. */
    private static final float[] ZEROS_F = new float[CHUNK];
    private static final double[] ZEROS_D = new double[CHUNK];
    /** Elements per NIO buffer: a buffer spans at most 2^31 - 1 bytes. */
    private static final int SPAN = 1 << 26;

    private HostCopy() {}

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
     * Runs {@code span} over every element of {@code a} (any layout {@link Host#hostLayout} accepts), one NIO buffer's
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

    static FloatPointer floatsAt(INDArray a) {
        return pointer(a, new FloatPointer(a.data().pointer()));
    }

    static DoublePointer doublesAt(INDArray a) {
        return pointer(a, new DoublePointer(a.data().pointer()));
    }

    static int lengthOf(INDArray a) {
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
        if (!Host.hostLayout(a)) {
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
