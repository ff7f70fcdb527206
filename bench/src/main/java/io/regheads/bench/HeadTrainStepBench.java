package io.regheads.bench;

import io.regheads.app.peer.PeerComparison;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.nn.Arena;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.core.optim.Optimizer;
import io.regheads.core.train.TrainableModel;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.quantile.QuantileSpec;
import java.util.Random;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One training step per head at the PyTorch peer's setup: encoder 8-256-256 ReLU, batch 128, Adam 1e-3; histogram
 * 256 bins, MDN 10 components, quantile head 99 levels. One operation = zero gradients + forward + loss + backward +
 * Adam step on a fixed batch (what the peer's micro-benchmark times). Data: x ~ U[-1, 1]^8, y = sin(3 x0) + 0.5 x1^2
 * + noise, as the peer's generator. By default the log-score loss ({@code nll}: {@code ce}; the quantile head's
 * {@code pinball}); {@code -p loss=nll,crps} adds the same step by the CRPS ({@link CrpsInterleavedBench} times the
 * two round-robin).
 *
 * <p>Run: {@code SD_MAX_THREADS=1 SD_MASTER_THREADS=1 java -jar bench/target/benchmarks.jar HeadTrainStep -f 1 -wi 3
 * -i 5 -w 1 -r 1}.
 */
public class HeadTrainStepBench extends BenchmarkBase {

    @Param({"pointwise", "histogram", "mdn", "quantile"})
    public String head;

    /** {@code nll}: the head's log-score loss ({@code ce}; {@code pinball} for the quantile head); {@code crps}. */
    @Param({"nll"})
    public String loss;

    private TrainableModel model;
    private Optimizer optimizer;
    private Arena arena;
    private INDArray x;
    private double[] y;

    @Setup
    public void setup() {
        int b = 128;
        Random r = new Random(0);
        double[][] xs = new double[b][8];
        double[] ys = new double[b];
        for (int i = 0; i < b; i++) {
            for (int j = 0; j < 8; j++) {
                xs[i][j] = 2 * r.nextDouble() - 1;
            }
            ys[i] = Math.sin(3 * xs[i][0]) + 0.5 * xs[i][1] * xs[i][1] + 0.1 * (1 + Math.abs(xs[i][2])) * r.nextGaussian();
        }
        HeadSpec spec = switch (head) {
            case "pointwise" -> new PointwiseSpec(false);
            case "histogram" -> new HistogramSpec(256, false);
            case "mdn" -> new MixtureSpec(10);
            case "quantile" -> new QuantileSpec();
            default -> throw new IllegalArgumentException("head " + head);
        };
        MinMaxScaler s = MinMaxScaler.fit(ys);
        y = s.transform(ys);
        for (int i = 0; i < b; i++) {
            y[i] = spec.targetScaling().fromUnit(Math.min(y[i], 1 - 1e-7), s.min(), s.max());
        }
        x = Nd4j.createFromArray(xs).castTo(DataType.FLOAT);
        String expression = loss.equals("crps") ? "crps" : head.equals("quantile") ? "pinball" : "ce";
        model = RegressionModel.create(PeerComparison.config(spec).withLoss(expression), 8).asTrainable();
        optimizer = new AdamW(model.params(), AdamConfig.adam(1e-3));
        arena = Arena.create();
        double first = step();
        double later = 0;
        for (int i = 0; i < 50; i++) {
            later = step();
        }
        if (!(later < first)) { // the step must train: 50 steps on one batch lower its loss
            throw new IllegalStateException(head + " " + expression + ": loss did not fall on a fixed batch: " + first
                    + " -> " + later);
        }
    }

    private double step() {
        optimizer.zeroGrad();
        arena.reset();
        double value = model.trainStep(x, y, arena);
        optimizer.step();
        return value;
    }

    @Benchmark
    public double trainStep() {
        return step();
    }
}
