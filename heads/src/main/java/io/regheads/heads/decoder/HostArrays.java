package io.regheads.heads.decoder;

import io.regheads.core.Checks;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Bulk copies between contiguous c-ordered FLOAT/DOUBLE arrays and {@code double[]} (host kernels). Stateless. */
final class HostArrays {
    private HostArrays() {}

    /** The whole of {@code a} (contiguous, c-order) as doubles. */
    static double[] read(INDArray a) {
        double[] dst = new double[Math.toIntExact(a.length())];
        read(a, dst);
        return dst;
    }

    static void read(INDArray a, double[] dst) {
        INDArray c = contiguous(a);
        int off = Math.toIntExact(c.offset());
        if (c.dataType() == DataType.DOUBLE) {
            ((DoublePointer) c.data().pointer()).asBuffer().get(off, dst, 0, dst.length);
        } else {
            float[] f = new float[dst.length];
            ((FloatPointer) c.data().pointer()).asBuffer().get(off, f, 0, f.length);
            for (int i = 0; i < f.length; i++) {
                dst[i] = f[i];
            }
        }
    }

    /** Writes {@code src} into {@code a} (contiguous, c-order, same length). */
    static void write(double[] src, INDArray a) {
        Checks.require(a.length() == src.length, "array length must be %d, got %d", src.length, a.length());
        int off = Math.toIntExact(a.offset());
        if (a.dataType() == DataType.DOUBLE) {
            ((DoublePointer) a.data().pointer()).asBuffer().put(off, src, 0, src.length);
        } else {
            float[] f = new float[src.length];
            for (int i = 0; i < f.length; i++) {
                f[i] = (float) src[i];
            }
            ((FloatPointer) a.data().pointer()).asBuffer().put(off, f, 0, f.length);
        }
    }

    /** A new c-ordered array of {@code type} holding {@code src} with {@code shape}. */
    static INDArray create(double[] src, DataType type, long... shape) {
        INDArray a = Nd4j.create(type, shape);
        write(src, a);
        return a;
    }

    static INDArray contiguous(INDArray a) {
        boolean ok = a.ordering() == 'c' && !a.isView() || a.ordering() == 'c' && a.elementWiseStride() == 1;
        return ok ? a : a.dup('c');
    }
}
