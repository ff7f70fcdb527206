package io.regheads.app.experiments;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.MlpEncoder;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * An MLP encoder (ReLU), one head of a known type and a loss, trained on x standardised with the training rows'
 * mean and standard deviation and on y mapped affinely into the head's units: {@code u = (y - shift) / scale}.
 * The experiments use it where they need the head itself (a decoder's sampling controls, a tokenizer that has no
 * {@code HeadSpec}, an unnormalized decoder on raw y); the others go through {@code RegressionModel}.
 *
 * <p>Example: an unnormalized decoder on raw y, {@code new Net<>(new MlpEncoderConfig(1, 2, 128, 0), new
 * DecoderHead(cfg, DataType.FLOAT), Losses.ce(), YMap.IDENTITY)}, then {@code fit(train, trainer)} and {@code
 * head().distribution(phi(x))}.
 *
 * <p>Not thread-safe while fitting (parameters change); {@link #phi} may be called concurrently after.
 *
 * @param <H> the head's type
 */
public final class Net<H extends RegressionHead> implements TrainableModel {

    /**
     * The map from y to the head's units, {@code u = (y - shift) / scale}.
     *
     * @param shift subtracted first, finite
     * @param scale divides next, > 0 and finite
     */
    public record YMap(double shift, double scale) {
        /** Raw y. */
        public static final YMap IDENTITY = new YMap(0, 1);

        /** @throws IllegalArgumentException if shift is not finite or scale is not > 0 and finite */
        public YMap {
            Checks.require(Double.isFinite(shift), "shift must be finite, got %s", shift);
            Checks.require(scale > 0 && scale < Double.POSITIVE_INFINITY, "scale must be > 0 and finite, got %s", scale);
        }

        /** {@code (y - min) / (max - min)}: [min, max] onto [0, 1]. */
        public static YMap minMax(double min, double max) {
            return new YMap(min, max - min);
        }

        /** Head units of y. */
        public double toUnits(double y) {
            return (y - shift) / scale;
        }

        /** y of head units. */
        public double toY(double u) {
            return shift + scale * u;
        }
    }

    private final MlpEncoder encoder;
    private final H head;
    private final Loss loss;
    private final YMap yMap;
    private StandardScaler xScaler;

    /**
     * @param encoder encoder sizes and seed (its input width is the number of features)
     * @param head    a fresh head whose input width is {@code encoder.width()}
     * @param loss    the training loss
     * @param yMap    y to head units
     * @throws IllegalArgumentException on a null argument or mismatched widths
     */
    public Net(MlpEncoderConfig encoder, H head, Loss loss, YMap yMap) {
        Checks.notNull("encoder", encoder);
        this.head = Checks.notNull("head", head);
        this.loss = Checks.notNull("loss", loss);
        this.yMap = Checks.notNull("yMap", yMap);
        Checks.require(head.inputWidth() == encoder.width(), "head input width must be the encoder width %d, got %d",
                encoder.width(), head.inputWidth());
        this.encoder = new MlpEncoder(encoder, DataType.FLOAT);
    }

    /** The head (trained in place by {@link #fit}). */
    public H head() {
        return head;
    }

    /** The y map. */
    public YMap yMap() {
        return yMap;
    }

    /** Number of trainable scalars in the encoder and the head. */
    public long parameterCount() {
        long n = 0;
        for (Param p : params()) {
            n += p.value().length();
        }
        return n;
    }

    /**
     * Standardises x with {@code train}'s statistics and trains with {@code trainer} (its validation split and early
     * stopping included).
     *
     * @throws IllegalArgumentException if training diverges or a target is outside what the head can represent
     */
    public TrainingResult fit(Dataset train, TrainerConfig trainer) {
        Checks.notNull("train", train);
        xScaler = StandardScaler.fit(train);
        double[] u = new double[train.rows()];
        for (int i = 0; i < u.length; i++) {
            u[i] = yMap.toUnits(train.y(i));
        }
        TrainingResult r = new Trainer(trainer).fit(this, xScaler.transform(train).withY(u));
        Checks.require(!r.diverged(), "training diverged: %s", r.message());
        return r;
    }

    /**
     * phi for rows of x (standardised as in {@link #fit}).
     *
     * @param x {@code [B][D]}
     * @return {@code [B, width]}
     * @throws IllegalArgumentException if the net is not fitted
     */
    public INDArray phi(double[][] x) {
        Checks.require(xScaler != null, "the net must be fitted before predicting");
        double[][] z = xScaler.transform(x);
        int d = z[0].length;
        float[] flat = new float[z.length * d];
        for (int i = 0; i < z.length; i++) {
            for (int j = 0; j < d; j++) {
                flat[i * d + j] = (float) z[i][j];
            }
        }
        return encoder.infer(Nd4j.create(flat, new long[] {z.length, d}, 'c'));
    }

    @Override
    public List<Param> params() {
        List<Param> all = new ArrayList<>(encoder.params());
        all.addAll(head.params());
        return all;
    }

    @Override
    public double trainStep(INDArray x, double[] y, Arena arena) {
        MlpEncoder.Cache ec = encoder.forward(x, arena);
        Targets t = head.targets(y);
        RegressionHead.Forward fw = head.forward(ec.output(), t, arena);
        HeadOutput g = fw.output().zerosLike(arena);
        double value = loss.accumulate(fw.output(), t, 1.0, g, new double[y.length]);
        encoder.backwardParams(ec, head.backward(fw, g, arena), arena);
        return value;
    }

    @Override
    public double evaluate(INDArray x, double[] y, Arena arena) {
        MlpEncoder.Cache ec = encoder.forward(x, arena);
        Targets t = head.targets(y);
        RegressionHead.Forward fw = head.forward(ec.output(), t, arena);
        return loss.accumulate(fw.output(), t, 1.0, fw.output().zerosLike(arena), new double[y.length]);
    }

    @Override
    public DataType dataType() {
        return DataType.FLOAT;
    }
}
