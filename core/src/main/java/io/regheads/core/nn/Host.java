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

    /** FLOAT array contents via an arena scratch array. */
    static float[] floats(INDArray a, Arena arena) {
        return read(a, arena.floats(Math.toIntExact(a.length())));
    }

    /** DOUBLE array contents via an arena scratch array. */
    static double[] doubles(INDArray a, Arena arena) {
        return read(a, arena.doubles(Math.toIntExact(a.length())));
    }
}
