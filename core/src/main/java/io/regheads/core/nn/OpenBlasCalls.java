package io.regheads.core.nn;

import static org.bytedeco.openblas.global.openblas_nolapack.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas_nolapack.CblasRowMajor;
import static org.bytedeco.openblas.global.openblas_nolapack.CblasTrans;
import static org.bytedeco.openblas.global.openblas_nolapack.cblas_dgemm;
import static org.bytedeco.openblas.global.openblas_nolapack.cblas_sgemm;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.Pointer;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Row-major {@code cblas_?gemm} on the host buffers of c-ordered contiguous rank-2 arrays: the only class that names
 * OpenBLAS. Loaded by {@link Gemm} only after it has checked that the ND4J CPU backend and OpenBLAS are present;
 * callers have checked types, contiguity and shapes.
 */
final class OpenBlasCalls {
    private OpenBlasCalls() {}

    static void gemm(INDArray a, INDArray b, INDArray c, boolean ta, boolean tb, int m, int n, int k, double alpha,
            double beta) {
        int lda = (int) a.size(1);
        int ldb = (int) b.size(1);
        int ldc = (int) c.size(1);
        int opA = ta ? CblasTrans : CblasNoTrans;
        int opB = tb ? CblasTrans : CblasNoTrans;
        if (c.dataType() == DataType.FLOAT) {
            cblas_sgemm(CblasRowMajor, opA, opB, m, n, k, (float) alpha, floats(a), lda, floats(b), ldb, (float) beta,
                    floats(c), ldc);
        } else {
            cblas_dgemm(CblasRowMajor, opA, opB, m, n, k, alpha, doubles(a), lda, doubles(b), ldb, beta, doubles(c),
                    ldc);
        }
    }

    private static FloatPointer floats(INDArray a) {
        FloatPointer p = (FloatPointer) a.data().pointer();
        return a.offset() == 0 ? p : new FloatPointer((Pointer) p).position(p.position() + a.offset());
    }

    private static DoublePointer doubles(INDArray a) {
        DoublePointer p = (DoublePointer) a.data().pointer();
        return a.offset() == 0 ? p : new DoublePointer((Pointer) p).position(p.position() + a.offset());
    }
}
