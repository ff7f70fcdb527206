package io.regheads.core.nn;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Flat element access to the host memory of a c-ordered, contiguous FLOAT or DOUBLE array, for the plain-Java
 * code paths of this package that touch few elements or run rarely (embedding gather/scatter, the exact GELU,
 * small gradient accumulations, mask checks); the hot kernels use {@link Host} copies into Java arrays instead,
 * which the JIT vectorises. Arithmetic is done in double; a float array is read and written through float
 * conversions.
 *
 * <p>Index {@code i} is the flat c-order index into the array (the view's own offset is applied). Only two
 * final implementations exist, so call sites stay at most bimorphic and inline. A {@code Vec} is a short-lived
 * view: create it per kernel call, never keep it. Not thread-safe for concurrent writers.
 */
public sealed interface Vec permits Vec.F, Vec.D {

    double get(int i);

    void set(int i, double v);

    /** {@code this[i] += v}. */
    void add(int i, double v);

    /**
     * A {@code [rows][cols]} copy of a rank-2 array through its host memory (ND4J's {@code toDoubleMatrix} costs
     * about 0.1-0.2 ms per call at [128, 10]); non-contiguous arrays are copied to c order first.
     */
    static double[][] toMatrix(INDArray a) {
        INDArray c = Tensors.isContiguous(a) && (a.dataType() == DataType.FLOAT || a.dataType() == DataType.DOUBLE)
                ? a : a.castTo(DataType.DOUBLE).dup('c');
        int rows = Math.toIntExact(c.size(0));
        int cols = Math.toIntExact(c.size(1));
        Vec v = of(c);
        double[][] m = new double[rows][cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                m[i][j] = v.get(i * cols + j);
            }
        }
        return m;
    }

    /** A view of {@code a}: c-ordered, contiguous, FLOAT or DOUBLE (see {@link Tensors#contiguous}). */
    public static Vec of(INDArray a) {
        if (!Tensors.isContiguous(a)) {
            throw new IllegalArgumentException("array must be c-ordered and contiguous, got ordering " + a.ordering()
                    + " and element-wise stride " + a.elementWiseStride());
        }
        int offset = Math.toIntExact(a.offset());
        if (a.dataType() == DataType.FLOAT) {
            return new F(((FloatPointer) a.data().pointer()).asBuffer(), offset);
        }
        if (a.dataType() == DataType.DOUBLE) {
            return new D(((DoublePointer) a.data().pointer()).asBuffer(), offset);
        }
        throw new IllegalArgumentException("array must be FLOAT or DOUBLE, got " + a.dataType());
    }

    /** Float storage. */
    final class F implements Vec {
        private final FloatBuffer b;
        private final int off;

        F(FloatBuffer b, int off) {
            this.b = b;
            this.off = off;
        }

        @Override
        public double get(int i) {
            return b.get(off + i);
        }

        @Override
        public void set(int i, double v) {
            b.put(off + i, (float) v);
        }

        @Override
        public void add(int i, double v) {
            b.put(off + i, (float) (b.get(off + i) + v));
        }
    }

    /** Double storage. */
    final class D implements Vec {
        private final DoubleBuffer b;
        private final int off;

        D(DoubleBuffer b, int off) {
            this.b = b;
            this.off = off;
        }

        @Override
        public double get(int i) {
            return b.get(off + i);
        }

        @Override
        public void set(int i, double v) {
            b.put(off + i, v);
        }

        @Override
        public void add(int i, double v) {
            b.put(off + i, b.get(off + i) + v);
        }
    }
}
