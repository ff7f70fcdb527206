package io.regheads.bench;

import io.regheads.core.internal.Gemm;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Baseline for {@link PredictBench}: the raw cost of the prediction's matrix products alone, {@code [rows, 8] x [8,
 * 256]}, {@code [rows, 256] x [256, 256]} and {@code [rows, 256] x [256, out]} (out = 1, 256 or 30 for pointwise,
 * histogram, MDN), float32 into preallocated outputs, over all rows at once, through the same direct OpenBLAS call
 * the layers use ({@link Gemm}). No bias, no ReLU, no softmax: the physical limit of a prediction on this machine.
 * {@code @Setup} checks one product against {@code mmul}.
 */
public class GemmPredictBench extends BenchmarkBase {

    @Param({"2048", "65536"})
    public int rows;

    @Param({"pointwise", "histogram", "mdn"})
    public String head;

    private INDArray x;
    private INDArray w1;
    private INDArray w2;
    private INDArray w3;
    private INDArray h1;
    private INDArray h2;
    private INDArray out;

    @Setup
    public void setup() {
        int k = switch (head) {
            case "pointwise" -> 1;
            case "histogram" -> 256;
            case "mdn" -> 30;
            default -> throw new IllegalArgumentException("head must be pointwise, histogram or mdn, got " + head);
        };
        Nd4j.getRandom().setSeed(1);
        x = Nd4j.rand(DataType.FLOAT, rows, 8).subi(0.5);
        w1 = Nd4j.rand(DataType.FLOAT, 8, 256).subi(0.5);
        w2 = Nd4j.rand(DataType.FLOAT, 256, 256).subi(0.5).divi(16);
        w3 = Nd4j.rand(DataType.FLOAT, 256, k).subi(0.5).divi(16);
        h1 = Nd4j.zeros(DataType.FLOAT, rows, 256);
        h2 = Nd4j.zeros(DataType.FLOAT, rows, 256);
        out = Nd4j.zeros(DataType.FLOAT, rows, k);
        products();
        double diff = out.sub(x.mmul(w1).mmul(w2).mmul(w3)).amaxNumber().doubleValue();
        if (!(diff < 1e-3)) {
            throw new IllegalStateException("gemm chain differs from mmul by " + diff);
        }
    }

    @Benchmark
    public INDArray products() {
        Gemm.gemm(x, w1, h1, false, false, 1, 0);
        Gemm.gemm(h1, w2, h2, false, false, 1, 0);
        Gemm.gemm(h2, w3, out, false, false, 1, 0);
        return out;
    }
}
