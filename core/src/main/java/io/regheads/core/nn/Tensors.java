package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Package-private helpers: argument checks shared by the layers, contiguity, initialisers. Stateless. */
final class Tensors {
    private Tensors() {}

    /** The random source behind every {@code long seed} convenience constructor of this package. */
    static UniformRandomProvider rng(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    }

    /** Parameter types: FLOAT (training) or DOUBLE (gradient checks). */
    static DataType paramType(String name, DataType type) {
        Checks.notNull(name, type);
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE,
                "%s must be FLOAT or DOUBLE, got %s", name, type);
        return type;
    }

    /**
     * {@code a} has rank >= {@code minRank}, the given dtype and last dimension {@code width}; returns the number of
     * rows (product of the leading dimensions).
     */
    static long rowsOf(String name, INDArray a, DataType type, long width, int minRank) {
        Checks.notNull(name, a);
        // the shape's text only when a check fails: these run on every layer call of training and prediction
        if (a.rank() < minRank) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must have rank >= %d, got shape %s", name, minRank,
                    Arrays.toString(a.shape())));
        }
        Checks.require(a.dataType() == type, "%s must have data type %s (the parameters' type), got %s", name, type,
                a.dataType());
        long last = a.size(a.rank() - 1);
        if (last != width) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must have last dimension %d, got shape %s", name,
                    width, Arrays.toString(a.shape())));
        }
        if (a.length() <= 0) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must not be empty, got shape %s", name,
                    Arrays.toString(a.shape())));
        }
        return a.length() / width;
    }

    /** {@code dOut} must have exactly the shape and type of the forward output. */
    static void sameAs(String name, INDArray a, INDArray like) {
        Checks.notNull(name, a);
        if (!Arrays.equals(a.shape(), like.shape())) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must have shape %s (the forward output), got %s",
                    name, Arrays.toString(like.shape()), Arrays.toString(a.shape())));
        }
        Checks.require(a.dataType() == like.dataType(), "%s must have data type %s, got %s", name, like.dataType(),
                a.dataType());
    }

    static boolean isContiguous(INDArray a) {
        return a.ordering() == 'c' && (a.length() <= 1 || a.elementWiseStride() == 1);
    }

    /** {@code a} itself if c-ordered and contiguous, else a c-ordered copy. */
    static INDArray contiguous(INDArray a) {
        return isContiguous(a) ? a : a.dup('c');
    }

    /** A [rows, width] view of contiguous {@code a} (copying first only if {@code a} is not contiguous). */
    static INDArray rows(INDArray a, long rows, long width, Arena arena) {
        INDArray c = contiguous(a);
        return c.rank() == 2 && c.size(0) == rows ? c : arena.view(c, rows, width);
    }

    /** {@code out = a + b} elementwise (same shapes), returns out. */
    static INDArray add(INDArray a, INDArray b, INDArray out) {
        return a.add(b, out);
    }

    /** Uniform on [-bound, bound) in the given type and shape, c-ordered. */
    static INDArray uniform(UniformRandomProvider rng, double bound, DataType type, long... shape) {
        double[] d = new double[Math.toIntExact(length(shape))];
        for (int i = 0; i < d.length; i++) {
            d[i] = (2 * rng.nextDouble() - 1) * bound;
        }
        return Nd4j.createFromArray(d).reshape('c', shape).castTo(type).dup('c');
    }

    /** N(0, scale^2) in the given type and shape, c-ordered. */
    static INDArray normal(UniformRandomProvider rng, double scale, DataType type, long... shape) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] d = new double[Math.toIntExact(length(shape))];
        for (int i = 0; i < d.length; i++) {
            d[i] = scale * g.sample();
        }
        return Nd4j.createFromArray(d).reshape('c', shape).castTo(type).dup('c');
    }

    /** A constant array. */
    static INDArray filled(double value, DataType type, long... shape) {
        return Nd4j.valueArrayOf(shape, value, type);
    }

    private static long length(long[] shape) {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        return n;
    }
}
