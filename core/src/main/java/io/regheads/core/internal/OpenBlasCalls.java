package io.regheads.core.internal;

import static org.bytedeco.openblas.global.openblas_nolapack.CblasNoTrans;
import static org.bytedeco.openblas.global.openblas_nolapack.CblasRowMajor;
import static org.bytedeco.openblas.global.openblas_nolapack.CblasTrans;
import static org.bytedeco.openblas.global.openblas_nolapack.cblas_dgemm;
import static org.bytedeco.openblas.global.openblas_nolapack.cblas_dgemv;
import static org.bytedeco.openblas.global.openblas_nolapack.cblas_sgemm;
import static org.bytedeco.openblas.global.openblas_nolapack.cblas_sgemv;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;

/** Row-major {@code cblas_?gemm}: the only class that names OpenBLAS (see {@link Blas}). */
final class OpenBlasCalls {
    private OpenBlasCalls() {}

    static void sgemm(boolean ta, boolean tb, int m, int n, int k, float alpha, FloatPointer a, int lda,
            FloatPointer b, int ldb, float beta, FloatPointer c, int ldc) {
        cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a,
                lda, b, ldb, beta, c, ldc);
    }

    static void dgemm(boolean ta, boolean tb, int m, int n, int k, double alpha, DoublePointer a, int lda,
            DoublePointer b, int ldb, double beta, DoublePointer c, int ldc) {
        cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a,
                lda, b, ldb, beta, c, ldc);
    }

    static void sgemv(boolean ta, int rows, int cols, float alpha, FloatPointer a, int lda, FloatPointer x, float beta,
            FloatPointer y) {
        cblas_sgemv(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, rows, cols, alpha, a, lda, x, 1, beta, y, 1);
    }

    static void dgemv(boolean ta, int rows, int cols, double alpha, DoublePointer a, int lda, DoublePointer x,
            double beta, DoublePointer y) {
        cblas_dgemv(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, rows, cols, alpha, a, lda, x, 1, beta, y, 1);
    }
}
