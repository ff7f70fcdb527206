package io.regheads.core.nn;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Bulk copies between an array's host memory and Java arrays, so plain-Java kernels run over {@code float[]} /
 * {@code double[]} (which the JIT can vectorise; loops over NIO buffers it does not). The arrays must be
 * c-ordered and contiguous (see {@link Tensors#contiguous}); copies are memcpy-speed. Stateless.
 */
final class Host {
    private Host() {}

    /** Copies {@code a} (FLOAT) into {@code dst}, which must have length {@code a.length()}; returns dst. */
    static float[] read(INDArray a, float[] dst) {
        ((FloatPointer) a.data().pointer()).asBuffer().get(Math.toIntExact(a.offset()), dst, 0, dst.length);
        return dst;
    }

    /** Copies {@code a} (DOUBLE) into {@code dst}; returns dst. */
    static double[] read(INDArray a, double[] dst) {
        ((DoublePointer) a.data().pointer()).asBuffer().get(Math.toIntExact(a.offset()), dst, 0, dst.length);
        return dst;
    }

    /** Copies {@code src} into {@code a} (FLOAT, same length). */
    static void write(float[] src, INDArray a) {
        ((FloatPointer) a.data().pointer()).asBuffer().put(Math.toIntExact(a.offset()), src, 0, src.length);
    }

    /** Copies {@code src} into {@code a} (DOUBLE, same length). */
    static void write(double[] src, INDArray a) {
        ((DoublePointer) a.data().pointer()).asBuffer().put(Math.toIntExact(a.offset()), src, 0, src.length);
    }

    private static final float[] ZERO_F = new float[4096];
    private static final double[] ZERO_D = new double[4096];

    /** Sets every element of {@code a} (c-ordered, contiguous, FLOAT or DOUBLE) to 0 by bulk puts. */
    static void zero(INDArray a) {
        int n = Math.toIntExact(a.length());
        int off = Math.toIntExact(a.offset());
        if (a.dataType() == org.nd4j.linalg.api.buffer.DataType.FLOAT) {
            java.nio.FloatBuffer b = ((FloatPointer) a.data().pointer()).asBuffer();
            for (int i = 0; i < n; i += ZERO_F.length) {
                b.put(off + i, ZERO_F, 0, Math.min(ZERO_F.length, n - i));
            }
        } else {
            java.nio.DoubleBuffer b = ((DoublePointer) a.data().pointer()).asBuffer();
            for (int i = 0; i < n; i += ZERO_D.length) {
                b.put(off + i, ZERO_D, 0, Math.min(ZERO_D.length, n - i));
            }
        }
    }

    /** FLOAT array contents via an arena scratch array. */
    static float[] floats(INDArray a, Arena arena) {
        return read(a, arena.floats(Math.toIntExact(a.length())));
    }

    /** DOUBLE array contents via an arena scratch array. */
    static double[] doubles(INDArray a, Arena arena) {
        return read(a, arena.doubles(Math.toIntExact(a.length())));
    }
}
