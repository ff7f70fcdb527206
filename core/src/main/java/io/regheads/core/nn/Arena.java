package io.regheads.core.nn;

import io.regheads.core.internal.Host;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Reusable scratch buffers for one forward/backward pass, so a training loop allocates nothing per step.
 *
 * <p>The i-th {@link #get} after a {@link #reset()} returns the same array as the i-th call after the previous
 * reset, as long as the requested type and shape agree (otherwise a new array is allocated in that slot). A
 * training step therefore calls {@code reset()} once at its start; every forward cache and gradient array taken
 * from the arena stays valid until the next {@code reset()}.
 *
 * <p>Contents are <em>not</em> zeroed: callers that accumulate must use {@link #zeros}. {@link #none()} returns
 * an arena that always allocates fresh arrays (results never invalidated), for inference and tests.
 *
 * <p>Not thread-safe: one arena per thread.
 */
public final class Arena {
    private final boolean reuse;
    private final List<INDArray> slots = new ArrayList<>();
    private final List<float[]> floatSlots = new ArrayList<>();
    private final List<double[]> doubleSlots = new ArrayList<>();
    private final List<INDArray[]> viewSlots = new ArrayList<>();
    private int next;
    private int nextView;
    private int nextFloat;
    private int nextDouble;

    private Arena(boolean reuse) {
        this.reuse = reuse;
    }

    /** An arena that reuses its buffers across {@link #reset()} calls. */
    public static Arena create() {
        return new Arena(true);
    }

    /** An arena that allocates every array fresh (nothing is ever overwritten). */
    public static Arena none() {
        return new Arena(false);
    }

    /** Starts a new pass: buffers handed out before are recycled by the following {@link #get} calls. */
    public void reset() {
        next = 0;
        nextFloat = 0;
        nextDouble = 0;
        nextView = 0;
    }

    /** A c-ordered array of the given type and shape with unspecified contents. */
    public INDArray get(DataType type, long... shape) {
        if (!reuse) {
            return Nd4j.createUninitialized(type, shape, 'c');
        }
        if (next < slots.size()) {
            INDArray a = slots.get(next);
            if (a.dataType() == type && Arrays.equals(a.shape(), shape)) {
                next++;
                return a;
            }
            INDArray fresh = Nd4j.createUninitialized(type, shape, 'c');
            slots.set(next++, fresh);
            return fresh;
        }
        INDArray fresh = Nd4j.createUninitialized(type, shape, 'c');
        slots.add(fresh);
        next++;
        return fresh;
    }

    /** Like {@link #get} but filled with zeros. */
    public INDArray zeros(DataType type, long... shape) {
        INDArray a = get(type, shape);
        if (type == DataType.FLOAT || type == DataType.DOUBLE) {
            Host.zero(a); // one memset: an ND4J assign pays op dispatch at any size
            return a;
        }
        return a.assign(0);
    }

    /**
     * A Java {@code float[]} of exactly {@code length} elements with unspecified contents: host scratch for plain-Java
     * kernels, recycled across {@link #reset()} like {@link #get} (the i-th call after a reset returns the i-th
     * array if its length agrees). Added to the original contract; backward compatible.
     */
    public float[] floats(int length) {
        if (!reuse) {
            return new float[length];
        }
        if (nextFloat < floatSlots.size() && floatSlots.get(nextFloat).length == length) {
            return floatSlots.get(nextFloat++);
        }
        float[] fresh = new float[length];
        if (nextFloat < floatSlots.size()) {
            floatSlots.set(nextFloat++, fresh);
        } else {
            floatSlots.add(fresh);
            nextFloat++;
        }
        return fresh;
    }

    /** The elements of the FLOAT array {@code a} copied into a recycled {@link #floats} scratch array. */
    float[] floatsOf(INDArray a) {
        return Host.read(a, floats(Math.toIntExact(a.length())));
    }

    /** The elements of {@code a} (FLOAT widened, or DOUBLE) copied into a recycled {@link #doubles} scratch array. */
    double[] doublesOf(INDArray a) {
        return Host.read(a, doubles(Math.toIntExact(a.length())));
    }

    /** As {@link #floats} for {@code double[]}. */
    public double[] doubles(int length) {
        if (!reuse) {
            return new double[length];
        }
        if (nextDouble < doubleSlots.size() && doubleSlots.get(nextDouble).length == length) {
            return doubleSlots.get(nextDouble++);
        }
        double[] fresh = new double[length];
        if (nextDouble < doubleSlots.size()) {
            doubleSlots.set(nextDouble++, fresh);
        } else {
            doubleSlots.add(fresh);
            nextDouble++;
        }
        return fresh;
    }

    /**
     * {@code base.reshape('c', shape)}, remembered by position like {@link #get}: when the i-th call after a reset
     * names the same {@code base} object and shape as the i-th call before, the same view object is returned, so a
     * steady training loop builds no new shape descriptors (a reshape costs about as much as a small ND4J op).
     * {@code base} must be c-ordered and contiguous; the view shares its memory. Views are not counted by
     * {@link #size()} (they hold no memory of their own, but keep {@code base} reachable until their slot is
     * replaced). Added to the original contract; backward compatible.
     */
    public INDArray view(INDArray base, long... shape) {
        if (!reuse) {
            return base.reshape('c', shape);
        }
        if (nextView < viewSlots.size()) {
            INDArray[] pair = viewSlots.get(nextView);
            if (pair[0] == base && Arrays.equals(pair[1].shape(), shape)) {
                nextView++;
                return pair[1];
            }
            INDArray v = base.reshape('c', shape);
            viewSlots.set(nextView++, new INDArray[] {base, v});
            return v;
        }
        INDArray v = base.reshape('c', shape);
        viewSlots.add(new INDArray[] {base, v});
        nextView++;
        return v;
    }

    /** Number of buffers held, arrays from {@link #get} and host arrays from {@link #floats}/{@link #doubles}. */
    public int size() {
        return slots.size() + floatSlots.size() + doubleSlots.size();
    }
}
