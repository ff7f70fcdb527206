package io.regheads.core.head;

import io.regheads.core.check.Checks;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * One number per example: a point prediction (pointwise head, xVal number head).
 *
 * @param values {@code [B]}. As a gradient: d(loss)/d(values).
 */
public record Scalar(INDArray values) implements HeadOutput {

    /** @throws IllegalArgumentException unless values has rank 1 */
    public Scalar {
        Checks.rank("values", values, 1);
    }

    @Override
    public int batchSize() {
        return (int) values.size(0);
    }

    @Override
    public Scalar zerosLike(io.regheads.core.nn.Arena arena) {
        return new Scalar(arena.zeros(values.dataType(), values.shape()));
    }

    @Override
    public Scalar zerosLike() {
        return new Scalar(values.ulike().assign(0));
    }
}
