package io.regheads.bench;

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
 * Baseline for {@link LayerLinearBench}: the raw cost of a linear layer's three matrix products through {@code
 * Nd4j.gemm} into preallocated float32 arrays: {@code y = x W}, {@code dW += x^T dy}, {@code dx = dy W^T}, and all
 * three together (the floor for Linear forward+backward, without bias work).
 */
@State(Scope.Thread)
public class GemmLinearBench extends BenchmarkBase {

    @Param({"1024"})
    public int rows;

    @Param({"256"})
    public int in;

    @Param({"256"})
    public int out;

    private INDArray x;
    private INDArray w;
    private INDArray y;
    private INDArray dy;
    private INDArray dw;
    private INDArray dx;

    @Setup(Level.Trial)
    public void setUp() {
        Nd4j.getRandom().setSeed(1);
        x = Nd4j.rand(DataType.FLOAT, rows, in).subi(0.5);
        w = Nd4j.rand(DataType.FLOAT, in, out).subi(0.5);
        dy = Nd4j.rand(DataType.FLOAT, rows, out).subi(0.5);
        y = Nd4j.zeros(DataType.FLOAT, rows, out);
        dw = Nd4j.zeros(DataType.FLOAT, in, out);
        dx = Nd4j.zeros(DataType.FLOAT, rows, in);
        Nd4j.gemm(x, w, y, false, false, 1, 0);
        double diff = y.sub(x.mmul(w)).amaxNumber().doubleValue();
        if (!(diff < 1e-3)) {
            throw new IllegalStateException("gemm differs from mmul by " + diff);
        }
    }

    @Benchmark
    public INDArray forwardXW() {
        return Nd4j.gemm(x, w, y, false, false, 1, 0);
    }

    @Benchmark
    public INDArray weightGradXtDy() {
        return Nd4j.gemm(x, dy, dw, true, false, 1, 1);
    }

    @Benchmark
    public INDArray inputGradDyWt() {
        return Nd4j.gemm(dy, w, dx, false, true, 1, 0);
    }

    @Benchmark
    public INDArray allThree() {
        Nd4j.gemm(x, w, y, false, false, 1, 0);
        Nd4j.gemm(x, dy, dw, true, false, 1, 1);
        return Nd4j.gemm(dy, w, dx, false, true, 1, 0);
    }
}
