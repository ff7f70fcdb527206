package io.regheads.core.internal;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Matrix product into a preallocated output, {@code C = alpha op(A) op(B) + beta C}, with the semantics of {@link
 * Nd4j#gemm(INDArray, INDArray, INDArray, boolean, boolean, double, double)} (op = transpose when its flag is set).
 *
 * <p>Why not {@code Nd4j.gemm} directly: on the CPU backend every {@code Nd4j.gemm} call builds an op, its shape
 * buffers and a native op context before it reaches OpenBLAS, a fixed cost per call whatever the size that
 * dominates small products (figures in docs/perf-engine.md). A training step of a 2 x 256 MLP with a pointwise
 * head makes 12 such calls (three of them large). When the
 * backend is ND4J's CPU backend and all three arrays are rank 2, c-ordered, contiguous and of one floating type,
 * this class calls OpenBLAS's {@code cblas_sgemm} / {@code cblas_dgemm} on the arrays' host buffers ({@code
 * cblas_sgemv} / {@code cblas_dgemv} for one output column, N = 1, which reads A once instead of packing it); in
 * every other case (the CUDA backend, views with strides, f-order, mixed types) it calls {@code Nd4j.gemm}, so the
 * CUDA profile keeps an ND4J path. Both paths are tested to agree.
 *
 * <p>Shapes: A [M, K] (or [K, M] when {@code transposeA}), B [K, N] (or [N, K]), C [M, N]; mismatches raise
 * {@link IllegalArgumentException} naming the shapes. C must not alias A or B. Thread safety: as OpenBLAS (calls on
 * distinct outputs may run concurrently).
 */
public final class Gemm {
    private Gemm() {}

    /** True when the direct OpenBLAS path is available (ND4J CPU backend with the bundled OpenBLAS). */
    public static boolean directAvailable() {
        return Host.blasAvailable();
    }

    /**
     * {@code c = alpha op(a) op(b) + beta c}.
     *
     * @throws IllegalArgumentException on null arrays, ranks other than 2, or shapes that do not chain
     */
    public static void gemm(INDArray a, INDArray b, INDArray c, boolean transposeA, boolean transposeB, double alpha,
            double beta) {
        Checks.notNull("a", a);
        Checks.notNull("b", b);
        Checks.notNull("c", c);
        if (a.rank() != 2 || b.rank() != 2 || c.rank() != 2) {
            throw new IllegalArgumentException("gemm needs rank-2 a, b, c, got shapes " + Arrays.toString(a.shape())
                    + ", " + Arrays.toString(b.shape()) + ", " + Arrays.toString(c.shape()));
        }
        long m = transposeA ? a.size(1) : a.size(0);
        long k = transposeA ? a.size(0) : a.size(1);
        long kb = transposeB ? b.size(1) : b.size(0);
        long n = transposeB ? b.size(0) : b.size(1);
        if (k != kb || c.size(0) != m || c.size(1) != n) {
            throw new IllegalArgumentException("gemm shapes do not chain: op(a) " + m + "x" + k + ", op(b) " + kb + "x"
                    + n + ", c " + Arrays.toString(c.shape()));
        }
        if (useDirect(a, b, c)) {
            Host.gemm(a, b, c, transposeA, transposeB, (int) m, (int) n, (int) k, alpha, beta);
        } else {
            Nd4j.gemm(a, b, c, transposeA, transposeB, alpha, beta);
        }
    }

    private static boolean useDirect(INDArray a, INDArray b, INDArray c) {
        if (!Host.blasAvailable()) {
            return false;
        }
        DataType t = c.dataType();
        return (t == DataType.FLOAT || t == DataType.DOUBLE) && a.dataType() == t && b.dataType() == t
                && Host.hostLayout(a) && Host.hostLayout(b) && Host.hostLayout(c)
                && a.length() > 0 && b.length() > 0 && c.length() > 0;
    }
}
