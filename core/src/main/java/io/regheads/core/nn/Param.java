package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One trainable tensor and its gradient, side by side.
 *
 * <p>Layers hold their parameters as typed {@code final Param} fields ({@code weight}, {@code bias}) and list
 * them through {@code params()} for optimizers and checkpoints. {@code backward} <em>adds</em> into {@link
 * #grad()}; {@link #zeroGrad()} is the one separate call that clears it, so a weight used twice needs no special
 * code.
 *
 * <p>Mutable: {@code value} changes in optimizer steps, {@code grad} in backward passes. Not thread-safe for
 * concurrent writers; concurrent forward passes that only read {@code value} are fine.
 */
public final class Param {
    private final String name;
    private final INDArray value;
    private final INDArray grad;

    /** Wraps {@code value} (taken, not copied) and allocates a zero gradient of the same shape and type. */
    public Param(String name, INDArray value) {
        this.name = Checks.notNull("name", name);
        this.value = Checks.notNull("value", value);
        Checks.require(value.ordering() == 'c', "%s must be c-ordered, got ordering %s", name, value.ordering());
        this.grad = value.ulike();
        this.grad.assign(0);
    }

    /** {@return the parameter's name, unique within a model} */
    public String name() {
        return name;
    }

    /** The tensor itself (live, mutable). */
    public INDArray value() {
        return value;
    }

    /** The accumulated gradient (live, mutable), same shape and type as {@link #value()}. */
    public INDArray grad() {
        return grad;
    }

    /** {@return the number of values} */
    public long size() {
        return value.length();
    }

    /** Sets the gradient to 0 (a host-memory fill on the CPU backend, which avoids one ND4J op per parameter). */
    public void zeroGrad() {
        DataType t = grad.dataType();
        if ((t == DataType.FLOAT || t == DataType.DOUBLE) && Tensors.isContiguous(grad) && Nd4j.getEnvironment().isCPU()) {
            Host.zero(grad);
        } else {
            grad.assign(0);
        }
    }

    @Override
    public String toString() {
        return name + java.util.Arrays.toString(value.shape());
    }
}
