package io.regheads.heads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Arena;
import io.regheads.core.testing.DistributionContract;
import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.histogram.HistogramHead;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureDistribution;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseHead;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The heads' columnar distributions against naive references computed here with plain loops and {@link Math#exp}
 * from the heads' own parameters, the shared distribution contract, and the chunked builders (fast kernels) against
 * one-shot {@code distribution(phi)} (exact softmax in double): within the stated bounds, exactly where the kernels
 * hand rows over (wide logit spreads, float overflow).
 */
class HeadDistributionTest {
    static final int D = 6;
    static final int B = 9;

    /** {@code phi W + b} in double from the head's (only) linear layer's parameters: {@code [B][out]}. */
    static double[][] naiveLinear(RegressionHead<?> head, INDArray phi) {
        double[] w = Host.doubles(head.params().get(0).value()); // [D, out]
        double[] bias = Host.doubles(head.params().get(1).value()); // [out]
        double[] x = Host.doubles(phi); // [B, D]
        int out = bias.length;
        int rows = (int) phi.size(0);
        double[][] z = new double[rows][out];
        for (int i = 0; i < rows; i++) {
            for (int o = 0; o < out; o++) {
                double s = bias[o];
                for (int j = 0; j < D; j++) {
                    s += x[i * D + j] * w[j * out + o];
                }
                z[i][o] = s;
            }
        }
        return z;
    }

    static double[] naiveSoftmax(double[] z, int from, int n) {
        double max = Double.NEGATIVE_INFINITY;
        for (int j = from; j < from + n; j++) {
            max = Math.max(max, z[j]);
        }
        double[] p = new double[n];
        double s = 0;
        for (int j = 0; j < n; j++) {
            p[j] = Math.exp(z[from + j] - max);
            s += p[j];
        }
        for (int j = 0; j < n; j++) {
            p[j] /= s;
        }
        return p;
    }

    /** FLOAT: the matrix product in float and float exponentials; DOUBLE: about double rounding. */
    static double tolerance(DataType type) {
        return type == DataType.FLOAT ? 2e-5 : 1e-12;
    }

    static Stream<Arguments> types() {
        return Stream.of(Arguments.of(DataType.FLOAT), Arguments.of(DataType.DOUBLE));
    }

    @ParameterizedTest
    @MethodSource("types")
    void histogramProbabilitiesAndMeanMatchANaiveSoftmax(DataType type) {
        for (boolean tails : new boolean[] {false, true}) {
            int n = 37; // odd: the kernels' remainder paths run
            HistogramHead head = new HistogramSpec(n, tails, -1, 2).build(D, 4, type);
            INDArray phi = GradientCheck.random(5, 3.0, B, D).castTo(type);
            HistogramDistribution d = head.distribution(phi);
            double[][] z = naiveLinear(head, phi);
            double[][] p = d.probabilities();
            double[] borders = d.borders();
            double[] mean = d.mean();
            double tol = tolerance(type);
            for (int b = 0; b < B; b++) {
                double[] ref = naiveSoftmax(z[b], 0, n);
                double refMean = 0;
                for (int i = 0; i < n; i++) {
                    assertEquals(ref[i], p[b][i], tol * ref[i] + 1e-300, "row " + b + " bin " + i);
                    double c = 0.5 * (borders[i] + borders[i + 1]);
                    if (tails && i == 0) {
                        c = borders[1] - (borders[1] - borders[0]) / 0.6744897501960817 * Math.sqrt(2 / Math.PI);
                    } else if (tails && i == n - 1) {
                        c = borders[n - 1] + (borders[n] - borders[n - 1]) / 0.6744897501960817 * Math.sqrt(2 / Math.PI);
                    }
                    refMean += ref[i] * c;
                }
                assertEquals(refMean, mean[b], tol * 4, "mean of row " + b);
            }
            DistributionContract.verify(d, 100_000, 7);
        }
    }

    @ParameterizedTest
    @MethodSource("types")
    void mixtureParametersMatchANaiveForward(DataType type) {
        int k = 4;
        MixtureHead head = new MixtureSpec(k).build(D, 8, type);
        INDArray phi = GradientCheck.random(6, 2.0, B, D).castTo(type);
        MixtureDistribution d = head.distribution(phi);
        double[][] z = naiveLinear(head, phi);
        double[][] w = d.weights();
        double[][] mu = d.means();
        double[][] sd = d.sigmas();
        double tol = tolerance(type);
        for (int b = 0; b < B; b++) {
            double[] ref = naiveSoftmax(z[b], 0, k);
            for (int j = 0; j < k; j++) {
                assertEquals(ref[j], w[b][j], tol * ref[j], "weight " + b + "," + j);
                assertEquals(z[b][k + j], mu[b][j], tol * Math.max(1, Math.abs(z[b][k + j])), "mean " + b + "," + j);
                double s = z[b][2 * k + j];
                double sigma = (s > 0 ? s + 1 : Math.exp(s)) + MixtureHead.SIGMA_FLOOR;
                assertEquals(sigma, sd[b][j], tol * sigma, "sigma " + b + "," + j);
            }
        }
        DistributionContract.verify(d, 100_000, 8);
    }

    @Test
    void pointwiseIsAGaussianAroundTheLinearOutput() {
        PointwiseHead head = new PointwiseSpec(true).build(D, 9, DataType.DOUBLE);
        head.setNoiseStd(0.25);
        INDArray phi = GradientCheck.random(7, 1.0, B, D);
        MixtureDistribution d = head.distribution(phi);
        double[][] z = naiveLinear(head, phi);
        for (int b = 0; b < B; b++) {
            assertEquals(1 / (1 + Math.exp(-z[b][0])), d.mean()[b], 1e-13);
            assertEquals(0.25 * 0.25, d.variance()[b], 1e-15);
        }
        DistributionContract.verify(d, 100_000, 9);
    }

    static Stream<Arguments> heads() {
        return Stream.of(
                Arguments.of(new PointwiseSpec(false).build(D, 1, DataType.FLOAT)),
                Arguments.of(new HistogramSpec(64, false).build(D, 2, DataType.FLOAT)),
                Arguments.of(new HistogramSpec(16, true).build(D, 3, DataType.DOUBLE)),
                Arguments.of(new MixtureSpec(5).build(D, 4, DataType.FLOAT)));
    }

    /** Chunks of 4, 4 and 1 rows, each through a reset arena, give what one call on all rows gives. */
    @ParameterizedTest
    @MethodSource("heads")
    void chunkedBuildersEqualOneShotDistributions(RegressionHead<?> head) {
        INDArray phi = GradientCheck.random(8, 2.0, B, D).castTo(head.params().get(0).value().dataType());
        PredictiveDistribution whole = head.distribution(phi);
        PredictiveDistribution chunked = builtInChunks(head, phi, 0, 4, 8, B);
        double[] y = whole.inverseCumulativeProbability(0.3);
        // the same numbers up to the float products' rounding (OpenBLAS may pick other kernels for other row counts)
        assertArrayEquals(whole.mean(), chunked.mean(), 1e-6);
        assertArrayEquals(whole.logDensity(y), chunked.logDensity(y), 1e-5);
        assertArrayEquals(whole.cumulativeProbability(y), chunked.cumulativeProbability(y), 1e-6);
    }

    /** Rows {@code [cuts[c], cuts[c + 1])} chunk by chunk through the head's builder, each through a reset arena. */
    static PredictiveDistribution builtInChunks(RegressionHead<?> head, INDArray phi, int... cuts) {
        RegressionHead.DistributionBuilder builder = head.distributionBuilder(cuts[cuts.length - 1]);
        Arena arena = Arena.create();
        for (int c = 0; c + 1 < cuts.length; c++) {
            arena.reset();
            INDArray chunk = phi.get(NDArrayIndex.interval(cuts[c], cuts[c + 1]), NDArrayIndex.all()).dup('c');
            builder.add(chunk, cuts[c], arena);
        }
        return builder.build();
    }

    /** One chunk of all rows through the head's builder. */
    static PredictiveDistribution built(RegressionHead<?> head, INDArray phi) {
        RegressionHead.DistributionBuilder builder = head.distributionBuilder((int) phi.size(0));
        builder.add(phi, 0, Arena.create());
        return builder.build();
    }

    /**
     * The float softmax of the builder against the exact one: every probability within the relative bound the head
     * states, {@code 3.1e-7 + 1.2e-7 D} for the row's logit spread D; the mean and the log density inherit it.
     */
    @Test
    void floatBuilderProbabilitiesAreWithinTheStatedBound() {
        int n = 37;
        HistogramHead head = new HistogramSpec(n, true, -1, 2).build(D, 4, DataType.FLOAT);
        INDArray phi = GradientCheck.random(5, 6.0, B, D).castTo(DataType.FLOAT);
        HistogramDistribution exact = head.distribution(phi);
        HistogramDistribution fast = (HistogramDistribution) built(head, phi);
        double[][] p = exact.probabilities();
        double[][] q = fast.probabilities();
        double[] y = exact.inverseCumulativeProbability(0.37);
        double[] lpExact = exact.logDensity(y);
        double[] lpFast = fast.logDensity(y);
        double maxRelative = 0;
        for (int b = 0; b < B; b++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (double v : p[b]) {
                lo = Math.min(lo, Math.log(v));
                hi = Math.max(hi, Math.log(v));
            }
            double bound = 3.1e-7 + 1.2e-7 * (hi - lo);
            for (int i = 0; i < n; i++) {
                double rel = Math.abs(q[b][i] - p[b][i]) / p[b][i];
                assertTrue(rel <= bound, "row " + b + " bin " + i + ": relative error " + rel + " > " + bound);
                maxRelative = Math.max(maxRelative, rel);
            }
            assertEquals(exact.mean()[b], fast.mean()[b], bound * 2.7, "mean of row " + b); // |centres| <= 2.7
            assertEquals(lpExact[b], lpFast[b], bound * 1.01, "log density of row " + b);
        }
        assertTrue(maxRelative > 0, "the fast path must be the float kernel here, not the exact softmax");
    }

    /**
     * A prediction's probabilities are computed on the first query that needs them: racing first queries from four
     * threads see one array, and the means asked before them, after them or without them are the same bits; a wide
     * row computed exactly at build time keeps its exact probabilities.
     */
    @Test
    void deferredProbabilitiesAreComputedOnceWhoeverAsksFirst() throws Exception {
        int n = 64;
        HistogramHead head = new HistogramSpec(n, false, -1, 2).build(D, 4, DataType.FLOAT);
        INDArray phi = GradientCheck.random(6, 3.0, B, D).castTo(DataType.FLOAT);
        phi.getRow(2).muli(5000); // spread beyond the float kernel: computed exactly when added
        HistogramDistribution meansFirst = (HistogramDistribution) built(head, phi);
        double[] m1 = meansFirst.mean();
        double[][] p1 = meansFirst.probabilities();
        HistogramDistribution raced = (HistogramDistribution) built(head, phi);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.List<java.util.concurrent.Future<double[][]>> got = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                got.add(pool.submit(() -> {
                    go.await();
                    return raced.probabilities();
                }));
            }
            go.countDown();
            for (java.util.concurrent.Future<double[][]> f : got) {
                double[][] p = f.get();
                for (int b = 0; b < B; b++) {
                    assertArrayEquals(p1[b], p[b], 0.0, "row " + b);
                }
            }
        } finally {
            pool.shutdown();
        }
        assertArrayEquals(m1, raced.mean(), 0.0);
        assertArrayEquals(head.distribution(phi).probabilities()[2], p1[2], 0.0, "the wide row, exactly");
        double[] centres = new double[n];
        for (int i = 0; i < n; i++) {
            centres[i] = -1 + 3 * (i + 0.5) / n;
        }
        for (int b = 0; b < B; b++) {
            double m = 0;
            for (int i = 0; i < n; i++) {
                m += p1[b][i] * centres[i];
            }
            assertEquals(m, m1[b], 1e-6, "mean of row " + b + " against its probabilities");
        }
    }

    /**
     * Rows whose logits spread beyond the float kernel's range, and rows whose float logits overflow, are computed as
     * {@code distribution(phi)} computes them: the same probabilities, and exact log probabilities, so the log density
     * stays finite where a bin's probability underflows to 0.
     */
    @Test
    void wideAndOverflowingRowsAreComputedExactly() {
        HistogramHead head = new HistogramSpec(8, false).build(D, 4, DataType.FLOAT);
        INDArray phi = GradientCheck.random(5, 1.0, 3, D).castTo(DataType.FLOAT);
        phi.getRow(1).muli(5000); // logits spread over thousands: p underflows in some bins
        INDArray w = head.params().get(0).value();
        alignedHuge(phi, 2, w); // float logits overflow
        INDArray floatLogits = phi.getRow(2, true).mmul(w); // [1, n] in float
        assertTrue(!Double.isFinite(floatLogits.maxNumber().doubleValue())
                || !Double.isFinite(floatLogits.minNumber().doubleValue()), "row 2 must overflow in float: " + floatLogits);
        HistogramDistribution exact = head.distribution(phi);
        HistogramDistribution fast = (HistogramDistribution) built(head, phi);
        double[][] p = exact.probabilities();
        double[][] q = fast.probabilities();
        assertTrue(java.util.Arrays.stream(p[1]).anyMatch(v -> v == 0), "row 1 must have an underflowing bin");
        for (int b = 1; b < 3; b++) {
            assertArrayEquals(p[b], q[b], 0.0, "row " + b);
        }
        for (int i = 0; i < 8; i++) {
            double[] y = {0.0625, (i + 0.5) / 8, (i + 0.5) / 8};
            double[] le = exact.logDensity(y);
            double[] lf = fast.logDensity(y);
            for (int b = 1; b < 3; b++) {
                assertTrue(Double.isFinite(lf[b]), "log density of row " + b + " in bin " + i + ": " + lf[b]);
                assertEquals(le[b], lf[b], 0.0, "log density of row " + b + " in bin " + i);
            }
        }
    }

    /**
     * Many wide rows among ordinary ones, added in three chunks: each wide row keeps exactly the probabilities, mean
     * and log probabilities of {@code distribution(phi)} (the compact store of exact rows grows past its first
     * capacity), and each ordinary row keeps its float-kernel values within the stated bound, whichever query comes
     * first.
     */
    @Test
    void manyWideRowsAmongOrdinaryOnesKeepTheirOwnValues() {
        int n = 8;
        HistogramHead head = new HistogramSpec(n, false).build(D, 4, DataType.FLOAT);
        int rows = 14;
        INDArray phi = GradientCheck.random(9, 1.0, rows, D).castTo(DataType.FLOAT);
        boolean[] wide = new boolean[rows];
        for (int r : new int[] {0, 2, 3, 5, 6, 7, 9, 10, 11, 13}) {
            phi.getRow(r).muli(5000);
            wide[r] = true;
        }
        HistogramDistribution exact = head.distribution(phi);
        HistogramDistribution fast = (HistogramDistribution) builtInChunks(head, phi, 0, 4, 9, rows);
        double[] y = new double[rows];
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(y, (i + 0.5) / n);
            double[] le = exact.logDensity(y); // log densities first: before the probabilities exist
            double[] lf = fast.logDensity(y);
            for (int r = 0; r < rows; r++) {
                if (wide[r]) {
                    assertEquals(le[r], lf[r], 0.0, "log density of wide row " + r + " in bin " + i);
                } else {
                    assertEquals(le[r], lf[r], 1e-5, "log density of ordinary row " + r + " in bin " + i);
                }
            }
        }
        double[][] p = exact.probabilities();
        double[][] q = fast.probabilities();
        double[] me = exact.mean();
        double[] mf = fast.mean();
        for (int r = 0; r < rows; r++) {
            if (wide[r]) {
                assertArrayEquals(p[r], q[r], 0.0, "wide row " + r);
                assertEquals(me[r], mf[r], 0.0, "mean of wide row " + r);
            } else {
                assertArrayEquals(p[r], q[r], 1e-5, "ordinary row " + r);
                assertEquals(me[r], mf[r], 1e-5, "mean of ordinary row " + r);
            }
        }
        assertTrue(java.util.stream.IntStream.range(0, rows).filter(r -> wide[r])
                .anyMatch(r -> java.util.Arrays.stream(p[r]).anyMatch(v -> v == 0)), "a wide row must underflow");
    }

    /** Every head's builder recomputes a row whose float output overflows in double, as distribution(phi) does. */
    @ParameterizedTest
    @MethodSource("heads")
    void everyBuilderGivesAValidDistributionForAnOverflowingRow(RegressionHead<?> head) {
        DataType type = head.params().get(0).value().dataType();
        if (type != DataType.FLOAT) {
            return; // a double product does not overflow at float's range
        }
        INDArray phi = GradientCheck.random(5, 1.0, 2, D).castTo(type);
        alignedHuge(phi, 1, head.params().get(0).value());
        INDArray out = phi.getRow(1, true).mmul(head.params().get(0).value());
        assertTrue(Double.isNaN(out.sumNumber().doubleValue()) || Double.isInfinite(out.sumNumber().doubleValue()),
                "row 1 must overflow in float: " + out);
        PredictiveDistribution exact = head.distribution(phi);
        PredictiveDistribution fast = built(head, phi);
        double m = exact.mean()[1];
        assertTrue(Double.isFinite(m) && Double.isFinite(fast.mean()[1]), m + " " + fast.mean()[1]);
        assertEquals(m, fast.mean()[1], 1e-12 * Math.max(1, Math.abs(m)));
    }

    /** Row r of phi := 3.3e38 times the signs of the weights' first column: that output is at least 3.3e38 sum |w|. */
    static void alignedHuge(INDArray phi, int r, INDArray w) {
        for (int j = 0; j < D; j++) {
            phi.putScalar(r, j, Math.copySign(3.3e38, w.getDouble(j, 0)));
        }
    }

    /** A non-finite phi in a later chunk is refused, naming the row of the whole batch. */
    @Test
    void buildersNameTheBatchRowOfANonFinitePhi() {
        HistogramHead head = new HistogramSpec(8, false).build(D, 2, DataType.FLOAT);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> {
            RegressionHead.DistributionBuilder c = head.distributionBuilder(6);
            c.add(GradientCheck.random(8, 1.0, 3, D).castTo(DataType.FLOAT), 0, Arena.create());
            INDArray bad = GradientCheck.random(9, 1.0, 3, D).castTo(DataType.FLOAT);
            bad.putScalar(2, 4, Double.POSITIVE_INFINITY);
            c.add(bad, 3, Arena.create());
        });
        assertEquals("phi must be finite, got Infinity at row 5, column 4", e.getMessage());
    }

    @Test
    void buildersRefuseChunksOutOfOrderAndMissingRows() {
        HistogramHead head = new HistogramSpec(8, false).build(D, 2, DataType.FLOAT);
        INDArray phi = GradientCheck.random(8, 1.0, 3, D).castTo(DataType.FLOAT);
        RegressionHead.DistributionBuilder b = head.distributionBuilder(5);
        assertThrows(IllegalArgumentException.class, () -> b.add(phi, 1, Arena.create()));
        b.add(phi, 0, Arena.create());
        assertThrows(IllegalArgumentException.class, () -> b.add(phi, 3, Arena.create())); // 6 > 5 rows
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals("every row must be added before build: got 3 of 5", e.getMessage());
    }

    @Test
    void nanLogitsAreRefusedNotSpread() {
        HistogramHead head = new HistogramSpec(8, false).build(D, 2, DataType.FLOAT);
        INDArray phi = GradientCheck.random(8, 1.0, 3, D).castTo(DataType.FLOAT);
        phi.putScalar(1, 2, Double.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> head.distribution(phi));
        assertTrue(e.getMessage().contains("row 1"), e.getMessage());
    }
}
