package io.regheads.bench;

import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
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
 * {@link Linear} forward and forward+backward, float32, N x in -> out (default 1024 x 256 -> 256), one arena reset
 * per operation as in a training step. Compare with {@link GemmLinearBench} (the same three matrix products through
 * raw {@code Nd4j.gemm}). Seed 1; inputs N(0, 1)-like uniform values from ND4J's seeded generator.
 */
@State(Scope.Thread)
public class LayerLinearBench extends BenchmarkBase {

    @Param({"1024"})
    public int rows;

    @Param({"256"})
    public int in;

    @Param({"256"})
    public int out;

    private Linear linear;
    private INDArray x;
    private INDArray dy;
    private Arena arena;

    @Setup(Level.Trial)
    public void setUp() {
        Nd4j.getRandom().setSeed(1);
        linear = new Linear(in, out, DataType.FLOAT, 1L);
        x = Nd4j.rand(DataType.FLOAT, rows, in).subi(0.5);
        dy = Nd4j.rand(DataType.FLOAT, rows, out).subi(0.5);
        arena = Arena.create();
        // check against the reference: y = x W + b through raw gemm
        INDArray ref = Nd4j.createUninitialized(DataType.FLOAT, rows, out);
        Nd4j.gemm(x, linear.weight().value(), ref, false, false, 1, 0);
        ref.addiRowVector(linear.bias().value());
        double diff = ref.sub(linear.forward(x, Arena.none()).output()).amaxNumber().doubleValue();
        if (!(diff < 1e-4)) {
            throw new IllegalStateException("Linear forward differs from gemm reference by " + diff);
        }
    }

    @Benchmark
    public INDArray forward() {
        arena.reset();
        return linear.forward(x, arena).output();
    }

    /** Gradients keep accumulating across calls (no zeroing, as in the raw gemm baseline). */
    @Benchmark
    public INDArray forwardBackward() {
        arena.reset();
        Linear.Cache c = linear.forward(x, arena);
        INDArray dx = linear.backward(c, dy, arena);
        return dx;
    }
}
