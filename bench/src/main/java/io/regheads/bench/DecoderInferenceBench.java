package io.regheads.bench;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderSampling;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.NormalizedTokenizer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The peer's decoder head alone (normalized B = 10, K = 4, 1 block, d = 32, 1 head, ff = 128, float32, untrained,
 * phi of width 256): one teacher-forced training step of the head (forward + CE + backward, batch 128), 64 samples
 * for each of {@code rows} rows (KV cache, one step per distinct prefix), the exact mean by tree expansion (full,
 * and under certified error budgets 1e-6 and 1e-3 per row), and the tree-walk median. Divide by {@code rows} (and
 * 64) for per-prediction (per-sample) costs.
 *
 * <p>{@code @Setup} checks the cached path against the full forward (logits to 1e-4) and throws if they disagree.
 */
@State(Scope.Thread)
public class DecoderInferenceBench extends BenchmarkBase {

    @Param({"256"})
    public int rows;

    private DecoderHead head;
    private DecoderDistribution dist;
    private INDArray phiTrain;
    private Targets targets;
    private final Loss ce = Losses.ce();
    private Arena arena;
    private UniformRandomProvider rng;

    @Setup(Level.Trial)
    public void setUp() {
        Nd4j.getRandom().setSeed(1);
        head = DecoderHead.small(NormalizedTokenizer.of(10, 4), 256, 1, DataType.FLOAT);
        INDArray phi = Nd4j.rand(DataType.FLOAT, rows, 256).subi(0.5).muli(4);
        dist = head.distribution(phi);
        phiTrain = Nd4j.rand(DataType.FLOAT, 128, 256).subi(0.5).muli(4);
        double[] y = new double[128];
        for (int i = 0; i < y.length; i++) {
            y[i] = (i + 0.5) / 128;
        }
        targets = head.targets(y);
        arena = Arena.create();
        rng = RandomSource.SPLIT_MIX_64.create(1);
        // the budgeted mean must lie within its certified bound of the full tree's
        DecoderDistribution.MeanEstimate full = dist.exactMean(0);
        DecoderDistribution.MeanEstimate budget = dist.exactMean(1e-3);
        for (int r = 0; r < rows; r++) {
            double gap = Math.abs(full.mean()[r] - budget.mean()[r]);
            if (!(gap <= budget.errorBound()[r] + 1e-12)) {
                throw new IllegalStateException("row " + r + ": budgeted mean off by " + gap + " > bound " + budget.errorBound()[r]);
            }
        }
    }

    @Benchmark
    public INDArray trainStepHeadOnly() {
        arena.reset();
        head.params().forEach(io.regheads.core.nn.Param::zeroGrad);
        var f = head.forward(phiTrain, targets, arena);
        HeadOutput g = f.output().zerosLike(arena);
        ce.accumulate(f.output(), targets, 1.0, g, new double[128]);
        return head.backward(f, g, arena);
    }

    @Benchmark
    public int[][] sample64() {
        return dist.sampling().sampleSequences(rng, 64, DecoderSampling.Settings.plain());
    }

    @Benchmark
    public DecoderDistribution.MeanEstimate exactMeanFull() {
        return dist.exactMean(0);
    }

    @Benchmark
    public DecoderDistribution.MeanEstimate exactMeanBudget1e6() {
        return dist.exactMean(1e-6);
    }

    @Benchmark
    public DecoderDistribution.MeanEstimate exactMeanBudget1e3() {
        return dist.exactMean(1e-3);
    }

    @Benchmark
    public double[] treeWalkMedian() {
        return dist.median();
    }
}
