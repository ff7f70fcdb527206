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
import io.regheads.heads.mixture.MixtureDistribution;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.pointwise.PointwiseHead;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The heads' columnar distributions (fast softmax, chunked builders) against naive references computed here with
 * plain loops and {@link Math#exp} from the heads' own parameters, the shared distribution contract, and the
 * chunked builder against one-shot {@code distribution(phi)}.
 */
class HeadDistributionTest {
    static final int D = 6;
    static final int B = 9;

    /** {@code phi W + b} in double from the head's (only) linear layer's parameters: {@code [B][out]}. */
    static double[][] naiveLinear(RegressionHead head, INDArray phi) {
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
            HistogramHead head = new HistogramHead(new HistogramHead.Config(D,
                    HistogramDistribution.equalBorders(n, -1, 2), tails, 4), type);
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
        MixtureHead head = new MixtureHead(new MixtureHead.Config(D, k, 8), type);
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
                double sigma = s > 0 ? s + 1 : Math.exp(s);
                assertEquals(sigma, sd[b][j], tol * sigma, "sigma " + b + "," + j);
            }
        }
        DistributionContract.verify(d, 100_000, 8);
    }

    @Test
    void pointwiseIsAGaussianAroundTheLinearOutput() {
        PointwiseHead head = new PointwiseHead(new PointwiseHead.Config(D, true, 9), DataType.DOUBLE);
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
                Arguments.of(new PointwiseHead(PointwiseHead.Config.linear(D, 1), DataType.FLOAT)),
                Arguments.of(new HistogramHead(HistogramHead.Config.unit(D, 64, 2), DataType.FLOAT)),
                Arguments.of(new HistogramHead(new HistogramHead.Config(D, HistogramDistribution.equalBorders(16, 0, 1),
                        true, 3), DataType.DOUBLE)),
                Arguments.of(new MixtureHead(new MixtureHead.Config(D, 5, 4), DataType.FLOAT)));
    }

    /** Chunks of 4, 4 and 1 rows, each through a reset arena, give what one call on all rows gives. */
    @ParameterizedTest
    @MethodSource("heads")
    void chunkedBuildersEqualOneShotDistributions(RegressionHead head) {
        INDArray phi = GradientCheck.random(8, 2.0, B, D).castTo(head.params().get(0).value().dataType());
        PredictiveDistribution whole = head.distribution(phi);
        RegressionHead.DistributionBuilder builder = head.distributionBuilder(B);
        Arena arena = Arena.create();
        int[] cuts = {0, 4, 8, B};
        for (int c = 0; c + 1 < cuts.length; c++) {
            arena.reset();
            INDArray chunk = phi.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(cuts[c], cuts[c + 1]),
                    org.nd4j.linalg.indexing.NDArrayIndex.all()).dup('c');
            builder.add(chunk, cuts[c], arena);
        }
        PredictiveDistribution chunked = builder.build();
        double[] y = whole.inverseCumulativeProbability(0.3);
        // the same numbers up to the float products' rounding (OpenBLAS may pick other kernels for other row counts)
        assertArrayEquals(whole.mean(), chunked.mean(), 1e-6);
        assertArrayEquals(whole.logDensity(y), chunked.logDensity(y), 1e-5);
        assertArrayEquals(whole.cumulativeProbability(y), chunked.cumulativeProbability(y), 1e-6);
    }

    @Test
    void buildersRefuseChunksOutOfOrderAndMissingRows() {
        HistogramHead head = new HistogramHead(HistogramHead.Config.unit(D, 8, 2), DataType.FLOAT);
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
        HistogramHead head = new HistogramHead(HistogramHead.Config.unit(D, 8, 2), DataType.FLOAT);
        INDArray phi = GradientCheck.random(8, 1.0, 3, D).castTo(DataType.FLOAT);
        phi.putScalar(1, 2, Double.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> head.distribution(phi));
        assertTrue(e.getMessage().contains("row 1"), e.getMessage());
    }
}
