package io.regheads.core.internal;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Detection of, and entry to, the OpenBLAS that ND4J's CPU backend bundles. Only {@link OpenBlasCalls} names
 * OpenBLAS, and it is loaded on the first product only, so a backend without OpenBLAS (CUDA) loads nothing of it.
 * Used by {@link Host#gemm}, which keeps the arrays reachable around the call.
 */
final class Blas {
    private Blas() {}

    /** ND4J's CPU backend with its OpenBLAS presets on the class path, unless {@code -Dregheads.gemm.nd4j=true}. */
    static final boolean AVAILABLE = detect();

    private static boolean detect() {
        try {
            if (!Nd4j.getBackend().getClass().getName().equals("org.nd4j.linalg.cpu.nativecpu.CpuBackend")) {
                return false;
            }
            Class.forName("org.bytedeco.openblas.global.openblas_nolapack");
            return !Boolean.getBoolean("regheads.gemm.nd4j");
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    static void sgemm(boolean ta, boolean tb, int m, int n, int k, float alpha, FloatPointer a, int lda,
            FloatPointer b, int ldb, float beta, FloatPointer c, int ldc) {
        OpenBlasCalls.sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }

    static void dgemm(boolean ta, boolean tb, int m, int n, int k, double alpha, DoublePointer a, int lda,
            DoublePointer b, int ldb, double beta, DoublePointer c, int ldc) {
        OpenBlasCalls.dgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    }

    static void sgemv(boolean ta, int rows, int cols, float alpha, FloatPointer a, int lda, FloatPointer x, float beta,
            FloatPointer y) {
        OpenBlasCalls.sgemv(ta, rows, cols, alpha, a, lda, x, beta, y);
    }

    static void dgemv(boolean ta, int rows, int cols, double alpha, DoublePointer a, int lda, DoublePointer x,
            double beta, DoublePointer y) {
        OpenBlasCalls.dgemv(ta, rows, cols, alpha, a, lda, x, beta, y);
    }
}
