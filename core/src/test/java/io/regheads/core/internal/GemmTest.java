package io.regheads.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/** The direct OpenBLAS path against a naive triple loop and against Nd4j.gemm. */
class GemmTest {

    @Test
    void theDirectPathIsUsedOnTheCpuBackend() {
        assertTrue(Gemm.directAvailable(), "tests run on nd4j-native, where the direct path must be taken");
    }

    @Test
    void agreesWithANaiveProductForEveryTransposeTypeAndBeta() {
        UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(7);
        int[][] sizes = {{1, 1, 1}, {128, 1, 256}, {1, 256, 128}, {3, 5, 7}, {37, 19, 64}, {128, 256, 8}};
        for (DataType type : new DataType[] {DataType.DOUBLE, DataType.FLOAT}) {
            double tol = type == DataType.DOUBLE ? 1e-12 : 2e-5;
            for (int[] s : sizes) {
                int m = s[0];
                int n = s[1];
                int k = s[2];
                for (int flags = 0; flags < 4; flags++) {
                    boolean ta = (flags & 1) != 0;
                    boolean tb = (flags & 2) != 0;
                    double[][] a = random(rng, ta ? k : m, ta ? m : k);
                    double[][] b = random(rng, tb ? n : k, tb ? k : n);
                    double[][] c0 = random(rng, m, n);
                    for (double beta : new double[] {0, 1, -0.5}) {
                        INDArray c = matrix(c0, type);
                        Gemm.gemm(matrix(a, type), matrix(b, type), c, ta, tb, 1.5, beta);
                        for (int i = 0; i < m; i++) {
                            for (int j = 0; j < n; j++) {
                                double want = beta * c0[i][j];
                                for (int p = 0; p < k; p++) {
                                    want += 1.5 * (ta ? a[p][i] : a[i][p]) * (tb ? b[j][p] : b[p][j]);
                                }
                                assertEquals(want, c.getDouble(i, j), tol * (1 + Math.abs(want)),
                                        type + " " + m + "x" + n + "x" + k + " ta=" + ta + " tb=" + tb + " beta=" + beta);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * With beta 0 whatever c held (NaN, infinities: a reused buffer) is overwritten, not scaled by 0, for one output
     * column (the matrix-vector path) and for several; checked against a hand computation.
     */
    @Test
    void betaZeroOverwritesNaNAndInfinityInC() {
        for (DataType type : new DataType[] {DataType.DOUBLE, DataType.FLOAT}) {
            INDArray a = matrix(new double[][] {{1, 2, 3}, {-1, 0.5, 4}}, type); // [2, 3]
            for (boolean transposeA : new boolean[] {false, true}) {
                INDArray op = transposeA ? a.transpose().dup('c') : a; // [2, 3] either way after op()
                for (int n : new int[] {1, 2}) {
                    INDArray b = matrix(n == 1 ? new double[][] {{2}, {-1}, {0.5}}
                            : new double[][] {{2, 1}, {-1, 0}, {0.5, 1}}, type);
                    INDArray c = matrix(n == 1 ? new double[][] {{Double.NaN}, {Double.POSITIVE_INFINITY}}
                            : new double[][] {{Double.NaN, 1}, {Double.NEGATIVE_INFINITY, Double.NaN}}, type);
                    Gemm.gemm(op, b, c, transposeA, false, 2.0, 0.0);
                    // row 0: 1*2 + 2*(-1) + 3*0.5 = 1.5; row 1: -2 - 0.5 + 2 = -0.5 (times alpha 2); column 1: 4 and 3
                    assertEquals(3.0, c.getDouble(0, 0), 0.0, type + " n=" + n + " ta=" + transposeA);
                    assertEquals(-1.0, c.getDouble(1, 0), 0.0, type + " n=" + n + " ta=" + transposeA);
                    if (n == 2) {
                        assertEquals(8.0, c.getDouble(0, 1), 0.0);
                        assertEquals(6.0, c.getDouble(1, 1), 0.0);
                    }
                }
            }
        }
    }

    @Test
    void rowBlockViewsWithAnOffsetAndStridedViewsGiveTheNd4jResult() {
        UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(11);
        INDArray big = matrix(random(rng, 10, 6), DataType.FLOAT);
        INDArray rows = big.get(NDArrayIndex.interval(3, 8), NDArrayIndex.all()); // c-contiguous, offset 18
        INDArray cols = big.get(NDArrayIndex.all(), NDArrayIndex.interval(1, 4)); // strided: the ND4J path
        INDArray w = matrix(random(rng, 6, 4), DataType.FLOAT);
        INDArray w3 = matrix(random(rng, 3, 4), DataType.FLOAT);
        INDArray out = Nd4j.zeros(DataType.FLOAT, 5, 4);
        INDArray ref = Nd4j.zeros(DataType.FLOAT, 5, 4);
        Gemm.gemm(rows, w, out, false, false, 1, 0);
        Nd4j.gemm(rows.dup('c'), w, ref, false, false, 1, 0);
        assertEquals(0, out.sub(ref).norm1Number().doubleValue(), 1e-5);
        INDArray out2 = Nd4j.zeros(DataType.FLOAT, 10, 4);
        INDArray ref2 = Nd4j.zeros(DataType.FLOAT, 10, 4);
        Gemm.gemm(cols, w3, out2, false, false, 1, 0);
        Nd4j.gemm(cols.dup('c'), w3, ref2, false, false, 1, 0);
        assertEquals(0, out2.sub(ref2).norm1Number().doubleValue(), 1e-5);
        // writing into an offset view leaves the rest of its base alone
        INDArray base = Nd4j.zeros(DataType.FLOAT, 7, 4);
        Gemm.gemm(rows, w, base.get(NDArrayIndex.interval(2, 7), NDArrayIndex.all()), false, false, 1, 0);
        assertEquals(0, base.get(NDArrayIndex.interval(0, 2), NDArrayIndex.all()).norm1Number().doubleValue(), 0);
        assertEquals(0, base.get(NDArrayIndex.interval(2, 7), NDArrayIndex.all()).sub(ref).norm1Number().doubleValue(),
                1e-5);
    }

    @Test
    void rejectsShapesThatDoNotChain() {
        INDArray a = Nd4j.zeros(DataType.FLOAT, 3, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Gemm.gemm(a, Nd4j.zeros(DataType.FLOAT, 5, 2), Nd4j.zeros(DataType.FLOAT, 3, 2), false, false, 1, 0));
        assertTrue(e.getMessage().contains("op(a) 3x4, op(b) 5x2"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Gemm.gemm(a, Nd4j.zeros(DataType.FLOAT, 4), Nd4j.zeros(DataType.FLOAT, 3, 1), false, false, 1, 0));
        assertThrows(IllegalArgumentException.class,
                () -> Gemm.gemm(null, a, a, false, false, 1, 0));
    }

    private static double[][] random(UniformRandomProvider rng, int r, int c) {
        double[][] x = new double[r][c];
        for (double[] row : x) {
            for (int j = 0; j < c; j++) {
                row[j] = 2 * rng.nextDouble() - 1;
            }
        }
        return x;
    }

    private static INDArray matrix(double[][] x, DataType type) {
        return Nd4j.createFromArray(x).castTo(type).dup('c');
    }
}
