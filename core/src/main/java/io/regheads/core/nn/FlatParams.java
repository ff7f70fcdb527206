package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import java.util.List;

/**
 * The parameters of a model as one flat {@code double[]}: parameter after parameter in list order, each in c order.
 * For data-parallel training, where parameters and gradient sums travel between machines as plain arrays (they
 * serialise with any serializer; ND4J arrays do not survive Kryo): the Spark trainer uses it. FLOAT values widen to
 * double exactly and narrow back to the same float.
 *
 * <p>Stateless and thread-safe; the parameters themselves are not (one writer at a time).
 */
public final class FlatParams {
    private FlatParams() {}

    /** Total number of elements of {@code params}. */
    public static int size(List<Param> params) {
        long n = 0;
        for (Param p : params) {
            n += p.size();
        }
        Checks.require(n <= Integer.MAX_VALUE - 8, "params must have fewer than 2^31 elements in all, got %d", n);
        return (int) n;
    }

    /** A new flat copy of the parameter values. */
    public static double[] values(List<Param> params) {
        double[] out = new double[size(params)];
        int at = 0;
        for (Param p : params) {
            int n = (int) p.size();
            Host.read(p.value(), 0, out, at, n);
            at += n;
        }
        return out;
    }

    /**
     * Overwrites the parameter values with {@code flat}.
     *
     * @throws IllegalArgumentException if flat's length is not the parameters' total size
     */
    public static void setValues(double[] flat, List<Param> params) {
        int at = checkLength("flat", flat, params);
        for (Param p : params) {
            int n = (int) p.size();
            Host.write(flat, at, n, p.value(), 0);
            at += n;
        }
    }

    /**
     * Adds {@code scale * grad} of every parameter into {@code sum} (same layout as {@link #values}).
     *
     * @throws IllegalArgumentException if sum's length is not the parameters' total size
     */
    public static void addGradients(List<Param> params, double scale, double[] sum) {
        int at = checkLength("sum", sum, params);
        double[] buf = new double[0];
        for (Param p : params) {
            int n = (int) p.size();
            if (buf.length < n) {
                buf = new double[n];
            }
            Host.read(p.grad(), 0, buf, 0, n);
            for (int i = 0; i < n; i++) {
                sum[at + i] += scale * buf[i];
            }
            at += n;
        }
    }

    /**
     * Overwrites every parameter's gradient with the matching slice of {@code flat}.
     *
     * @throws IllegalArgumentException if flat's length is not the parameters' total size
     */
    public static void setGradients(double[] flat, List<Param> params) {
        int at = checkLength("flat", flat, params);
        for (Param p : params) {
            int n = (int) p.size();
            Host.write(flat, at, n, p.grad(), 0);
            at += n;
        }
    }

    private static int checkLength(String name, double[] flat, List<Param> params) {
        Checks.notNull(name, flat);
        int size = size(params);
        Checks.require(flat.length == size, "%s must have the parameters' %d elements, got %d", name, size, flat.length);
        return 0;
    }
}
