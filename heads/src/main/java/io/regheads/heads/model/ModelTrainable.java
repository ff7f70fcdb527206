package io.regheads.heads.model;

import io.regheads.core.dist.PredictionCheck;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.MlpEncoder;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Encoder + head + loss as the trainer sees them, on data in the head's units (x standardised, y as the head's spec
 * scales it): what {@link RegressionModel#fit} trains and {@link RegressionModel#asTrainable} hands out. Holds no
 * state of its own: the parameters are the encoder's and the head's.
 */
final class ModelTrainable implements TrainableModel {
    private final MlpEncoder encoder;
    private final RegressionHead<?> head;
    private final Loss loss;
    private final DataType type;

    ModelTrainable(MlpEncoder encoder, RegressionHead<?> head, Loss loss, DataType type) {
        this.encoder = encoder;
        this.head = head;
        this.loss = loss;
        this.type = type;
    }

    /** Encoder then head parameters. */
    @Override
    public List<Param> params() {
        List<Param> all = new ArrayList<>(encoder.params());
        all.addAll(head.params());
        return all;
    }

    @Override
    public double trainStep(INDArray x, double[] y, Arena arena) {
        return step(head, x, y, arena, true);
    }

    @Override
    public double evaluate(INDArray x, double[] y, Arena arena) {
        return step(head, x, y, arena, false);
    }

    /** Encoder and head forward, the loss, and (when training) head and encoder backward. */
    private <C> double step(RegressionHead<C> h, INDArray x, double[] y, Arena arena, boolean train) {
        MlpEncoder.Cache ec = encoder.forward(x, arena);
        Targets t = h.targets(y);
        RegressionHead.Forward<C> f = h.forward(ec.output(), t, arena);
        if (!train) {
            return loss.accumulate(f.output(), t, 1.0, f.output().zerosLike(arena), new double[y.length]);
        }
        HeadOutput dOut = f.output().zerosLike(arena);
        double value = loss.accumulate(f.output(), t, 1.0, dOut, new double[y.length]);
        INDArray dPhi = h.backward(f, dOut, arena);
        encoder.backwardParams(ec, dPhi, arena); // no gradient for the data
        return value;
    }

    /** {@link PredictionCheck#collapsed} on the head's distributions for these rows. */
    @Override
    public Optional<String> diagnose(INDArray x, double[] y) {
        // NaN and +-Infinity targets (a head with special tokens) are outcomes, not positions: the check looks at the
        // finite rows, whose quantiles describe the finite part
        int[] fin = IntStream.range(0, y.length).filter(i -> Double.isFinite(y[i])).toArray();
        if (fin.length == y.length) {
            return PredictionCheck.collapsed(head.distribution(encoder.infer(x)), y);
        }
        if (fin.length == 0) {
            return Optional.empty();
        }
        double[] yFinite = new double[fin.length];
        for (int i = 0; i < fin.length; i++) {
            yFinite[i] = y[fin[i]];
        }
        return PredictionCheck.collapsed(head.distribution(encoder.infer(x.getRows(fin))), yFinite);
    }

    @Override
    public DataType dataType() {
        return type;
    }
}
