package io.regheads.heads.text;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A {@link SequenceEncoder} feeding any {@link RegressionHead}, trained by a {@link Loss}: the text-to-number model
 * of the arithmetic benchmark, trainable by {@link io.regheads.core.train.Trainer}.
 *
 * <p>Rows: the trainer's x batches are packed sequences {@code [B, 2L]} ({@link SequenceBatch#toRows}); the head
 * sees {@code (y - shift) / scale} (shift 0, scale 1 for heads that spell y in tokens; the train mean and standard
 * deviation for the xVal head, which is the paper's normalised MSE). {@code trainStep}: encoder forward, head
 * forward, {@code loss.accumulate} into a zeroed gradient, head backward, encoder backward; returns the loss's batch
 * value (a mean).
 *
 * <p>Point predictions ({@link #predict}): the head's own {@link RegressionHead#point} by the estimate given at
 * construction, mapped back to y units. The arithmetic benchmark passes {@link PointEstimate#GREEDY} for decoder
 * heads (argmax token by token under the validity masks, a width-1 beam) and {@link PointEstimate#MEAN} for the xVal
 * head (its predicted value).
 *
 * <p>Not thread-safe (parameters and gradients change in training).
 */
public final class SequenceModel implements TrainableModel {
    private final SequenceEncoder encoder;
    private final RegressionHead<?> head;
    private final Loss loss;
    private final double shift;
    private final double scale;
    private final PointEstimate point;
    private final List<Param> params;

    /**
     * @param shift subtracted from y before the head sees it, finite
     * @param scale y is divided by it after the shift, finite and > 0
     * @param point which summary {@link #predict} reports (the head computes it)
     * @throws IllegalArgumentException on a null part, a head whose input width differs from the encoder's, or a
     *                                  bad shift/scale
     */
    public SequenceModel(SequenceEncoder encoder, RegressionHead<?> head, Loss loss, double shift, double scale,
            PointEstimate point) {
        this.encoder = Checks.notNull("encoder", encoder);
        this.head = Checks.notNull("head", head);
        this.loss = Checks.notNull("loss", loss);
        Checks.require(head.inputWidth() == encoder.width(), "head input width must be the encoder width %d, got %d",
                encoder.width(), head.inputWidth());
        this.shift = Checks.finite("shift", shift);
        this.scale = Checks.positive("scale", scale);
        this.point = Checks.notNull("point", point);
        List<Param> p = new ArrayList<>(encoder.params());
        p.addAll(head.params());
        this.params = Collections.unmodifiableList(p);
    }

    /** {@return the sequence encoder} */
    public SequenceEncoder encoder() {
        return encoder;
    }

    /** {@return the head} */
    public RegressionHead<?> head() {
        return head;
    }

    /** {@return the training loss} */
    public Loss loss() {
        return loss;
    }

    /** The summary {@link #predict} reports. */
    public PointEstimate pointEstimate() {
        return point;
    }

    @Override
    public List<Param> params() {
        return params;
    }

    private double[] scaled(double[] y) {
        double[] s = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            s[i] = (y[i] - shift) / scale;
        }
        return s;
    }

    private SequenceBatch batch(INDArray x) {
        return SequenceBatch.fromRows(x, encoder.config().maxLength());
    }

    /** @throws IllegalArgumentException if x is not {@code [B, 2 maxLength]} packed rows or y has another length */
    @Override
    public double trainStep(INDArray x, double[] y, Arena arena) {
        return run(batch(x), y, arena, true);
    }

    /** @throws IllegalArgumentException as {@link #trainStep} */
    @Override
    public double evaluate(INDArray x, double[] y, Arena arena) {
        return run(batch(x), y, arena, false);
    }

    /**
     * Loss on a batch, with backward when {@code train}.
     *
     * @throws IllegalArgumentException if y does not have one value per sequence
     */
    public double run(SequenceBatch batch, double[] y, Arena arena, boolean train) {
        return run(head, batch, y, arena, train);
    }

    private <C> double run(RegressionHead<C> head, SequenceBatch batch, double[] y, Arena arena, boolean train) {
        Checks.require(y.length == batch.batch(), "y must have length %d, got %d", batch.batch(), y.length);
        SequenceEncoder.Cache c = encoder.forward(batch, arena);
        Targets targets = head.targets(scaled(y));
        RegressionHead.Forward<C> f = head.forward(c.phi(), targets, arena);
        HeadOutput g = f.output().zerosLike(arena);
        double value = loss.accumulate(f.output(), targets, 1.0, g, new double[batch.batch()]);
        if (train) {
            INDArray dPhi = head.backward(f, g, arena);
            encoder.backward(c, dPhi, arena);
        }
        return value;
    }

    /** The head's predictive distributions (in the head's scaled units) for a batch. */
    public PredictiveDistribution distribution(SequenceBatch batch) {
        return head.distribution(encoder.forward(batch, Arena.none()).phi());
    }

    /**
     * Point predictions in y units ({@code head.point(phi, pointEstimate()) * scale + shift}), in chunks of 256
     * sequences.
     *
     * @param rows packed sequences {@code [N][2L]}
     * @throws IllegalArgumentException if rows is null or not packed sequences
     */
    public double[] predict(double[][] rows) {
        Checks.notNull("rows", rows);
        double[] out = new double[rows.length];
        int chunk = 256;
        for (int from = 0; from < rows.length; from += chunk) {
            int n = Math.min(chunk, rows.length - from);
            double[][] part = new double[n][];
            System.arraycopy(rows, from, part, 0, n);
            INDArray x = Nd4j.createFromArray(part).castTo(encoder.dataType());
            INDArray phi = encoder.forward(batch(x), Arena.none()).phi();
            double[] p = head.point(phi, point);
            for (int i = 0; i < n; i++) {
                out[from + i] = p[i] * scale + shift;
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return "SequenceModel(" + encoder + ", " + head + ", " + loss.name() + ", shift " + shift + ", scale " + scale
                + ", point " + point.label() + ")";
    }
}
