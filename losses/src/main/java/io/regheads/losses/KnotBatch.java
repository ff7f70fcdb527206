package io.regheads.losses;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.QuantileKnots;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.head.Targets;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The checked view of one loss call on {@link QuantileKnots}: knots {@code [B * L]} as doubles (finite,
 * non-decreasing per row), the targets, and a host gradient buffer written back by {@link #commit}. Package-private;
 * one instance per call, not thread-safe.
 */
final class KnotBatch {
    final int batch;
    final int levels;
    final double[] knots; // [B * L]
    final double[] y; // [B]
    final double[] grad; // [B * L], added into the caller's gradient by commit
    private final INDArray target;

    private KnotBatch(int batch, int levels, double[] knots, double[] y, INDArray target) {
        this.batch = batch;
        this.levels = levels;
        this.knots = knots;
        this.y = y;
        this.grad = new double[knots.length];
        this.target = target;
    }

    /**
     * @throws IllegalArgumentException naming the argument: targets not values of length B, a gradient of another
     *                                  form or shape, perExample of another length, a non-finite weight, or knots
     *                                  that are not finite and non-decreasing (naming row and level)
     */
    static KnotBatch of(String loss, QuantileKnots out, Targets targets, double weight, HeadOutput gradient,
                        double[] perExample) {
        Checks.finite("weight", weight);
        Checks.require(targets instanceof Targets.Values, "%s on QuantileKnots needs Targets.Values, got %s", loss,
                TokenBatch.kind(targets));
        int b = out.batchSize();
        int l = out.levelCount();
        double[] y = ((Targets.Values) targets).y();
        Checks.require(y.length == b, "targets y must have length B = %d, got %d", b, y.length);
        Checks.notNull("perExample", perExample);
        Checks.require(perExample.length == b, "perExample must have length B = %d, got %d", b, perExample.length);
        Checks.require(gradient instanceof QuantileKnots, "gradient must be QuantileKnots like the output, got %s",
                TokenBatch.kind(gradient));
        QuantileKnots g = (QuantileKnots) gradient;
        Checks.shape("gradient knots", g.knots(), out.knots().shape());
        Checks.require(Arrays.equals(g.levels(), out.levels()), "gradient levels must equal the output's levels");
        double[] q = Host.doubles(Host.contiguous(out.knots(), DataType.DOUBLE)); // [B * L]
        for (int i = 0; i < b; i++) {
            for (int j = 0; j < l; j++) {
                double v = q[i * l + j];
                if (!Double.isFinite(v) || (j > 0 && !(v >= q[i * l + j - 1]))) { // the message only when thrown
                    throw new IllegalArgumentException("knots must be finite and non-decreasing along each row, got "
                            + (j > 0 ? q[i * l + j - 1] + " then " : "") + v + " at [" + i + ", " + j + "]");
                }
            }
        }
        return new KnotBatch(b, l, q, y, g.knots());
    }

    /** Adds {@link #grad} into the caller's gradient array. */
    void commit() {
        boolean direct = Host.hostLayout(target);
        if (direct) {
            double[] v = Host.doubles(target);
            for (int i = 0; i < v.length; i++) {
                v[i] += grad[i];
            }
            Host.write(v, target);
        } else {
            target.addi(Nd4j.createFromArray(grad).reshape(target.shape()).castTo(target.dataType()));
        }
    }
}
