package io.regheads.bench;

import io.regheads.app.peer.PeerComparison;
import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.nn.Arena;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.Random;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Batch prediction at the setup of the PyTorch reference implementation (encoder 8-256-256 ReLU; pointwise, histogram 256 bins, MDN 10
 * components), through the public API: {@code model.predictUnit(x)} for {@code rows} rows of x {@code double[][]},
 * then what a user reads off it. One operation = one call on all rows. {@link #mean} is what the reference implementation times
 * ({@code head.predict(enc(x))}: the predictive means); {@link #quantiles} asks the batch method for three levels.
 * The baseline for both is {@link GemmPredictBench}: the same matrix products alone.
 *
 * <p>The model is trained for 2 epochs on 4096 rows of the reference implementation's generator (x ~ U[-1, 1]^8, y = sin(3 x0) + 0.5
 * x1^2 + noise); speed does not depend on the weights. {@code @Setup} checks the predicted means of the first rows
 * against the head's one-shot distribution of the encoder's training forward.
 */
public class PredictBench extends BenchmarkBase {

    @Param({"2048", "65536"})
    public int rows;

    @Param({"pointwise", "histogram", "mdn"})
    public String head;

    private RegressionModel model;
    private double[][] x;

    /** The reference implementation's generator: x ~ U[-1, 1]^8, y = sin(3 x0) + 0.5 x1^2 + 0.1 (1 + |x2|) N(0, 1). */
    static Dataset peerLike(int n, long seed) {
        Random r = new Random(seed);
        double[][] xs = new double[n][8];
        double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 8; j++) {
                xs[i][j] = 2 * r.nextDouble() - 1;
            }
            ys[i] = Math.sin(3 * xs[i][0]) + 0.5 * xs[i][1] * xs[i][1] + 0.1 * (1 + Math.abs(xs[i][2])) * r.nextGaussian();
        }
        return Dataset.of(xs, ys);
    }

    static HeadSpec spec(String head) {
        return switch (head) {
            case "pointwise" -> new PointwiseSpec(false);
            case "histogram" -> new HistogramSpec(256, false);
            case "mdn" -> new MixtureSpec(10);
            default -> throw new IllegalArgumentException("head must be pointwise, histogram or mdn, got " + head);
        };
    }

    @Setup
    public void setup() {
        HeadSpec spec = spec(head);
        model = RegressionModel.create(PeerComparison.config(spec).withTrainer(
                TrainerConfig.shortRun().withValidationFraction(0).withMaxEpochs(2)), 8);
        model.fit(peerLike(4096, 1));
        x = peerLike(rows, 2).x();
        // check: the first rows' means against the head's one-shot distribution of the training forward (reference
        // config: x is not standardised)
        int check = 16;
        double[][] first = java.util.Arrays.copyOf(x, check);
        double[] fast = model.predictUnit(first).mean();
        double[] flat = new double[check * 8];
        for (int i = 0; i < check; i++) {
            for (int j = 0; j < 8; j++) {
                flat[i * 8 + j] = first[i][j];
            }
        }
        PredictiveDistribution ref = model.head().distribution(
                model.encoder().forward(Nd4j.createFromArray(flat).reshape(check, 8).castTo(DataType.FLOAT), Arena.none())
                        .output());
        double[] slow = ref.mean();
        // the head's units to y01: y = scale * h + shift (the spec's target scaling), y01 = (y - min) / range
        double min = model.yScaler().min();
        double max = model.yScaler().max();
        double a = spec.targetScaling().scale(min, max) / (max - min);
        double b = (spec.targetScaling().shift(min, max) - min) / (max - min);
        for (int i = 0; i < check; i++) {
            double expected = a * slow[i] + b;
            if (!(Math.abs(fast[i] - expected) <= 1e-5)) {
                throw new IllegalStateException(head + ": predicted mean " + fast[i] + " of row " + i
                        + " differs from the one-shot distribution's " + expected);
            }
        }
    }

    /** x to the predictive means: the reference implementation's {@code head.predict(enc(x))}. */
    @Benchmark
    public double[] mean() {
        return model.predictUnit(x).mean();
    }

    /** x to the 5%, 50% and 95% quantiles in one batch call. */
    @Benchmark
    public double[][] quantiles() {
        return model.predictUnit(x).quantiles(0.05, 0.5, 0.95);
    }
}
