package io.regheads.heads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.Scalar;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureDistribution;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.xval.XValHead;
import io.regheads.heads.xval.XValSpec;
import io.regheads.tokenizers.NormalizedTokenizer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * What every head does with inputs it must refuse (wrong ranks and shapes, non-finite values: the message names the
 * expected shape or the row) and with finite inputs far outside anything seen in training (a valid distribution).
 */
class HeadInputTest {
    static final int D = 8;

    static Stream<Arguments> heads() {
        return Stream.of(
                Arguments.of("pointwise", new PointwiseSpec(false).build(D, 1, DataType.FLOAT)),
                Arguments.of("histogram", new HistogramSpec(16, false).build(D, 2, DataType.FLOAT)),
                Arguments.of("histogram tails", new HistogramSpec(8, true).build(D, 3, DataType.FLOAT)),
                Arguments.of("mdn", new MixtureSpec(4).build(D, 4, DataType.FLOAT)),
                Arguments.of("decoder", new DecoderHead(NormalizedTokenizer.of(10, 3), D,
                        new TransformerBlock.Config(8, 2, 16), 1, 5, DataType.FLOAT)),
                Arguments.of("xval", new XValSpec(8, true).build(D, 6, DataType.FLOAT)));
    }

    /** Targets valid for every head: values in (0, 1). */
    private static Targets targets(RegressionHead<?> head, int b) {
        double[] y = new double[b];
        for (int i = 0; i < b; i++) {
            y[i] = (i + 0.5) / b;
        }
        return head.targets(y);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("heads")
    void wrongRanksAndShapesAreRefusedNamingTheExpectedShape(String name, RegressionHead<?> head) {
        INDArray rank3 = Nd4j.zeros(DataType.FLOAT, 2, 4, 8);
        String expected = "phi must have shape [B, D] = [B, 8] with B >= 1, got [2, 4, 8]";
        assertEquals(expected, assertThrows(IllegalArgumentException.class, () -> head.distribution(rank3)).getMessage());
        assertEquals(expected, assertThrows(IllegalArgumentException.class,
                () -> head.forward(rank3, targets(head, 2), Arena.none())).getMessage());
        assertEquals("phi must have shape [B, D] = [B, 8] with B >= 1, got [3, 7]", assertThrows(
                IllegalArgumentException.class, () -> head.distribution(Nd4j.zeros(DataType.FLOAT, 3, 7))).getMessage());
        // a gradient for another batch size than the forward's
        RegressionHead.Forward f = head.forward(Nd4j.ones(DataType.FLOAT, 3, D), targets(head, 3), Arena.none());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> head.backward(f, wrongBatch(f), Arena.none()));
        assertTrue(e.getMessage().startsWith("dOutput "), e.getMessage());
    }

    /** A gradient of the forward output's form for a batch of 5 instead of 3. */
    private static io.regheads.core.head.HeadOutput wrongBatch(RegressionHead.Forward f) {
        if (f.output() instanceof Scalar) {
            return new Scalar(Nd4j.zeros(DataType.FLOAT, 5));
        }
        if (f.output() instanceof GaussianMixture g) {
            long k = g.components();
            return new GaussianMixture(Nd4j.zeros(DataType.FLOAT, 5, k), Nd4j.zeros(DataType.FLOAT, 5, k),
                    Nd4j.zeros(DataType.FLOAT, 5, k));
        }
        TokenLogits t = (TokenLogits) f.output();
        return new TokenLogits(Nd4j.zeros(DataType.FLOAT, 5, t.positions(), t.vocabularySize()), t.tokenValues(), null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("heads")
    void aNonFiniteRowIsRefusedByNumber(String name, RegressionHead<?> head) {
        INDArray phi = Nd4j.ones(DataType.FLOAT, 4, D);
        phi.putScalar(2, 5, Float.POSITIVE_INFINITY);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> head.distribution(phi));
        assertEquals("phi must be finite, got Infinity at row 2, column 5", e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("heads")
    void finitePhiFarOutsideTrainingGivesAValidDistribution(String name, RegressionHead<?> head) {
        // rows: ordinary, large (an input thousands of training standard deviations out), and the large row negated
        float[][] rows = new float[3][D];
        for (int j = 0; j < D; j++) {
            rows[0][j] = (float) Math.sin(j + 1);
            rows[1][j] = (float) (3e4 * Math.sin(j + 1));
            rows[2][j] = -rows[1][j];
        }
        assertValid(name, head.distribution(Nd4j.create(rows)), 3);
        if (head instanceof MixtureHead) {
            for (double[] row : ((MixtureDistribution) head.distribution(Nd4j.create(rows))).sigmas()) {
                for (double s : row) {
                    assertTrue(s >= MixtureHead.SIGMA_FLOOR, name + ": sigma " + s);
                }
            }
        }
        // a row whose float products overflow: the linear heads recompute it in double, the decoder works in double
        // anyway; the xVal head's MLP refuses it, naming the row
        float[][] huge = {rows[0], new float[D]};
        java.util.Arrays.fill(huge[1], 1e38f);
        if (head instanceof XValHead) {
            for (io.regheads.core.nn.Param p : head.params()) {
                p.value().assign(1);
            } // the first layer's sum 8e38 overflows float for sure
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> head.distribution(Nd4j.create(huge)));
            assertTrue(e.getMessage().startsWith("the xVal head's mean for phi row 1 must be finite, got "), e.getMessage());
        } else {
            assertValid(name, head.distribution(Nd4j.create(huge)), 2);
        }
    }

    private static void assertValid(String name, PredictiveDistribution d, int rows) {
        double[] lo = d.inverseCumulativeProbability(0.05);
        double[] med = d.median();
        double[] hi = d.inverseCumulativeProbability(0.95);
        double[] dens = d.logDensity(med);
        for (int i = 0; i < rows; i++) {
            double tol = 1e-12 * Math.max(1, Math.abs(med[i])); // quantiles are solved to about 1e-13 relative
            assertTrue(Double.isFinite(lo[i]) && lo[i] <= med[i] + tol && med[i] <= hi[i] + tol && Double.isFinite(hi[i]),
                    name + " row " + i + ": quantiles " + lo[i] + ", " + med[i] + ", " + hi[i]);
            assertTrue(dens[i] > Double.NEGATIVE_INFINITY && dens[i] < Double.POSITIVE_INFINITY,
                    name + " row " + i + ": log density at the median " + dens[i]);
        }
    }

    @Test
    void histogramLogDensityStaysFiniteWhereTheProbabilityUnderflows() {
        // logits 0 and -2000: p = exp(-2000) is 0 in double, its log is not
        double[] borders = HistogramDistribution.equalBorders(2, 0, 1);
        HistogramDistribution h = HistogramDistribution.fromLogits(borders, new double[][] {{0, -2000}}, false);
        assertEquals(0.0, h.probabilities()[0][1], 0.0);
        assertEquals(-2000 + Math.log(2), h.logDensity(new double[] {0.75})[0], 1e-9);
        assertEquals(Math.log(2), h.logDensity(new double[] {0.25})[0], 1e-12);
        assertEquals("logits[0][1] must be finite, got NaN", assertThrows(IllegalArgumentException.class,
                () -> HistogramDistribution.fromLogits(borders, new double[][] {{0, Double.NaN}}, false)).getMessage());
    }
}
