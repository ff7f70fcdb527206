package io.regheads.core.optim;

import io.regheads.core.Checks;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Direct element access to a contiguous FLOAT or DOUBLE array's host memory (CPU backend), for plain-Java loops.
 *
 * <p>The NIO view spans the whole underlying allocation; element {@code i} of the array sits at absolute index
 * {@code offset + i} (checked for views by the optimizer tests). Not for the CUDA backend, whose host copy may
 * be stale: callers test {@link #usable()} first.
 */
final class HostAccess {
    private HostAccess() {}

    /** True when plain-Java loops over host memory are valid (the CPU backend). */
    static boolean usable() {
        return Nd4j.getEnvironment().isCPU();
    }

    /** Checks the array is FLOAT or DOUBLE and contiguous in c order. */
    static void checkLayout(String name, INDArray a) {
        Checks.require(a.dataType() == DataType.FLOAT || a.dataType() == DataType.DOUBLE,
                "%s must have data type FLOAT or DOUBLE, got %s", name, a.dataType());
        Checks.require(a.length() <= 1 || (a.ordering() == 'c' && a.elementWiseStride() == 1),
                "%s must be contiguous (c order, element-wise stride 1), got ordering %s, stride %s",
                name, a.ordering(), a.elementWiseStride());
        Checks.require(a.offset() + a.length() <= Integer.MAX_VALUE,
                "%s must fit in an int-indexed buffer, got offset %s + length %s", name, a.offset(), a.length());
    }

    static FloatBuffer floats(INDArray a) {
        return a.data().asNioFloat();
    }

    static DoubleBuffer doubles(INDArray a) {
        return a.data().asNioDouble();
    }

    static int base(INDArray a) {
        return (int) a.offset();
    }

    /** Sum of squares of all elements, accumulated in double. */
    static double sumOfSquares(INDArray a) {
        int n = (int) a.length();
        int o = base(a);
        double s = 0;
        if (a.dataType() == DataType.FLOAT) {
            FloatBuffer f = floats(a);
            for (int i = 0; i < n; i++) {
                double v = f.get(o + i);
                s += v * v;
            }
        } else {
            DoubleBuffer d = doubles(a);
            for (int i = 0; i < n; i++) {
                double v = d.get(o + i);
                s += v * v;
            }
        }
        return s;
    }

    /** {@code a *= factor} element-wise. */
    static void scale(INDArray a, double factor) {
        int n = (int) a.length();
        int o = base(a);
        if (a.dataType() == DataType.FLOAT) {
            FloatBuffer f = floats(a);
            for (int i = 0; i < n; i++) {
                f.put(o + i, (float) (f.get(o + i) * factor));
            }
        } else {
            DoubleBuffer d = doubles(a);
            for (int i = 0; i < n; i++) {
                d.put(o + i, d.get(o + i) * factor);
            }
        }
    }
}
