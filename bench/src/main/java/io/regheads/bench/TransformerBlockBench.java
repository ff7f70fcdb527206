package io.regheads.bench;

import io.regheads.core.nn.Arena;
import io.regheads.core.nn.MultiHeadSelfAttention;
import io.regheads.core.nn.TransformerBlock;
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
 * One pre-LN {@link TransformerBlock} forward and forward+backward, float32, at B = 128, T = 5, d = 32, 1 head, ff =
 * 128 (the paper's small decoder block), with the plain-Java attention kernel (the default for T <= 16) and the
 * ND4J-ops kernel. Baseline: {@link GemmTransformerBench} (the block's twelve matrix products through raw gemm).
 */
@State(Scope.Thread)
public class TransformerBlockBench extends BenchmarkBase {

    @Param({"128"})
    public int batch;

    @Param({"5"})
    public int positions;

    @Param({"32"})
    public int d;

    @Param({"1"})
    public int heads;

    @Param({"128"})
    public int ff;

    @Param({"JAVA", "ND4J"})
    public MultiHeadSelfAttention.Kernel kernel;

    private TransformerBlock block;
    private INDArray x;
    private INDArray dy;
    private Arena arena;

    @Setup(Level.Trial)
    public void setUp() {
        Nd4j.getRandom().setSeed(1);
        block = new TransformerBlock("block", new TransformerBlock.Config(d, heads, ff), kernel, DataType.FLOAT,
                RandomSource.XO_RO_SHI_RO_128_PP.create(1L));
        x = Nd4j.rand(DataType.FLOAT, batch, positions, d).subi(0.5);
        dy = Nd4j.rand(DataType.FLOAT, batch, positions, d).subi(0.5);
        arena = Arena.create();
        // both kernels must give the same block output
        TransformerBlock other = new TransformerBlock("block", new TransformerBlock.Config(d, heads, ff),
                kernel == MultiHeadSelfAttention.Kernel.JAVA ? MultiHeadSelfAttention.Kernel.ND4J
                        : MultiHeadSelfAttention.Kernel.JAVA, DataType.FLOAT,
                RandomSource.XO_RO_SHI_RO_128_PP.create(1L));
        double diff = block.forward(x, Arena.none()).output().sub(other.forward(x, Arena.none()).output())
                .amaxNumber().doubleValue();
        if (!(diff < 1e-4)) {
            throw new IllegalStateException("attention kernels disagree by " + diff);
        }
    }

    @Benchmark
    public INDArray forward() {
        arena.reset();
        return block.forward(x, arena).output();
    }

    /** Gradients keep accumulating across calls (no zeroing, as in the raw gemm baseline). */
    @Benchmark
    public INDArray forwardBackward() {
        arena.reset();
        TransformerBlock.Cache c = block.forward(x, arena);
        INDArray dx = block.backward(c, dy, arena);
        return dx;
    }
}
