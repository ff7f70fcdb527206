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
 * Baseline for {@link TransformerBlockBench}: the block's matrix products alone through raw {@code Nd4j.gemm} into
 * preallocated float32 arrays, N = B T = 640 rows: qkv [N,d]x[d,3d], out [N,d]x[d,d], fc1 [N,d]x[d,ff], fc2
 * [N,ff]x[ff,d] forward (4 gemms), and for each the weight gradient {@code x^T dy} (beta 1) and the input gradient
 * {@code dy W^T} (8 gemms).
 */
@State(Scope.Thread)
public class GemmTransformerBench extends BenchmarkBase {

    @Param({"640"})
    public int rows;

    @Param({"32"})
    public int d;

    @Param({"128"})
    public int ff;

    private final INDArray[] in = new INDArray[4];
    private final INDArray[] w = new INDArray[4];
    private final INDArray[] out = new INDArray[4];
    private final INDArray[] dOut = new INDArray[4];
    private final INDArray[] dW = new INDArray[4];
    private final INDArray[] dIn = new INDArray[4];

    @Setup(Level.Trial)
    public void setUp() {
        Nd4j.getRandom().setSeed(1);
        int[][] shapes = {{d, 3 * d}, {d, d}, {d, ff}, {ff, d}};
        for (int i = 0; i < 4; i++) {
            int k = shapes[i][0];
            int n = shapes[i][1];
            in[i] = Nd4j.rand(DataType.FLOAT, rows, k);
            w[i] = Nd4j.rand(DataType.FLOAT, k, n);
            out[i] = Nd4j.zeros(DataType.FLOAT, rows, n);
            dOut[i] = Nd4j.rand(DataType.FLOAT, rows, n);
            dW[i] = Nd4j.zeros(DataType.FLOAT, k, n);
            dIn[i] = Nd4j.zeros(DataType.FLOAT, rows, k);
        }
        Nd4j.gemm(in[3], w[3], out[3], false, false, 1, 0);
        double diff = out[3].sub(in[3].mmul(w[3])).amaxNumber().doubleValue();
        if (!(diff < 1e-3)) {
            throw new IllegalStateException("gemm differs from mmul by " + diff);
        }
    }

    @Benchmark
    public INDArray forwardGemms() {
        for (int i = 0; i < 4; i++) {
            Nd4j.gemm(in[i], w[i], out[i], false, false, 1, 0);
        }
        return out[3];
    }

    @Benchmark
    public INDArray forwardBackwardGemms() {
        for (int i = 0; i < 4; i++) {
            Nd4j.gemm(in[i], w[i], out[i], false, false, 1, 0);
        }
        for (int i = 3; i >= 0; i--) {
            Nd4j.gemm(in[i], dOut[i], dW[i], true, false, 1, 1);
            Nd4j.gemm(dOut[i], w[i], dIn[i], false, true, 1, 0);
        }
        return dIn[0];
    }
}
