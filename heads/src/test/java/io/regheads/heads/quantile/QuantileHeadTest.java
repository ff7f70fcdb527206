package io.regheads.heads.quantile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.QuantileKnots;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.loss.Loss;
import io.regheads.core.nn.Arena;
import io.regheads.core.testing.DistributionContract;
import io.regheads.core.testing.GradientCheck;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.HeadRegistry;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.model.RegressionModelTest;
import io.regheads.losses.Losses;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The quantile head: forward against plain loops, gradients, the distribution contract, the model API and files. */
class QuantileHeadTest {
    static final int D = 5;

    @TempDir
    Path dir;

    /** The knots written out from the raw outputs with plain loops (the reference for forward and distribution). */
    static double[][] naiveKnots(double[][] raw, double floor) {
        double[][] q = new double[raw.length][raw[0].length];
        for (int b = 0; b < raw.length; b++) {
            q[b][0] = raw[b][0];
            for (int l = 1; l < raw[b].length; l++) {
                q[b][l] = q[b][l - 1] + Math.log1p(Math.exp(raw[b][l])) + floor;
            }
        }
        return q;
    }

    @Test
    void forwardAndDistributionAreTheFirstKnotPlusSoftplusIncrements() {
        QuantileHead head = new QuantileHead(new QuantileSpec(new double[] {0.1, 0.5, 0.9}, 1e-6), D, 3, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(4, 1.0, 3, D);
        INDArray w = head.params().get(0).value();
        INDArray bias = head.params().get(1).value();
        double[][] raw = phi.mmul(w).addRowVector(bias).toDoubleMatrix();
        double[][] expected = naiveKnots(raw, 1e-6);
        QuantileKnots out = (QuantileKnots) head.forward(phi, null, Arena.none()).output();
        double[][] q = out.knots().toDoubleMatrix();
        double[][] dq = head.distribution(phi).knots();
        for (int b = 0; b < 3; b++) {
            assertArrayEquals(expected[b], q[b], 1e-14);
            assertArrayEquals(expected[b], dq[b], 1e-14);
        }
        assertArrayEquals(new double[] {0.1, 0.5, 0.9}, out.levels(), 0.0);
    }

    @Test
    void initialKnotsSpreadOverTheTrainingRange() {
        QuantileHead head = new QuantileSpec().build(D, 1, DataType.DOUBLE);
        double[] q = head.distribution(org.nd4j.linalg.factory.Nd4j.zeros(DataType.DOUBLE, 1, D)).knots()[0];
        // phi = 0: the bias alone; first knot -0.5 + U(-1/sqrt(D), 1/sqrt(D)), increments about 1/98 each
        assertEquals(-0.5, q[0], 1 / Math.sqrt(D));
        assertEquals(1.0, q[98] - q[0], 0.6);
    }

    @Test
    void knotsStayStrictlyIncreasingForExtremeFeatures() {
        QuantileHead head = new QuantileSpec().build(D, 2, DataType.FLOAT);
        INDArray phi = GradientCheck.random(5, 300.0, 8, D).castTo(DataType.FLOAT);
        QuantileDistribution d = head.distribution(phi); // the constructor checks every row
        for (double[] row : d.knots()) {
            for (int l = 1; l < row.length; l++) {
                assertTrue(row[l] > row[l - 1]);
            }
        }
    }

    @Test
    void headAndLossGradientsMatchFiniteDifferences() {
        for (Loss loss : List.of(Losses.pinball(), Losses.crps(), Losses.pinball().plus(0.5, Losses.crps()))) {
            QuantileHead head = new QuantileHead(new QuantileSpec(QuantileSpec.equallySpaced(7), 1e-6), D, 7, DataType.DOUBLE);
            check(head, loss, new double[] {-0.45, -0.13, 0.02, 0.43});
        }
    }

    private static void check(RegressionHead<?> head, Loss loss, double[] y) {
        // noise floored: the pinball gradient of the first knot's raw output, sum_l (1{y < q_l} - t_l) / L over a
        // batch, can be exactly 0 while the central difference shows its rounding (~3e-11)
        GradientCheck.checkHead(head, loss, y, GradientCheck.random(11, 1.0, y.length, D),
                GradientCheck.Tolerance.noiseFloored());
    }

    @Test
    void distributionMeetsTheContract() {
        DistributionContract.verify(new QuantileDistribution(new double[] {0.25, 0.75}, new double[][] {{-1, 1}}),
                100_000, 3);
        QuantileHead head = new QuantileSpec().build(D, 4, DataType.DOUBLE);
        DistributionContract.verify(head.distribution(GradientCheck.random(6, 1.0, 3, D)), 100_000, 4);
        QuantileHead uneven = new QuantileSpec(0.05, 0.2, 0.5, 0.6, 0.97).build(D, 5, DataType.FLOAT);
        DistributionContract.verify(uneven.distribution(GradientCheck.random(7, 2.0, 3, D).castTo(DataType.FLOAT)),
                100_000, 5);
    }

    @Test
    void goldenValuesByHand() {
        QuantileDistribution d = new QuantileDistribution(new double[] {0.25, 0.75}, new double[][] {{-1, 1}});
        assertEquals(0.25 * Math.exp(-1), d.cumulativeProbability(new double[] {-2})[0], 1e-16);
        assertEquals(1 - 0.25 * Math.exp(-2), d.cumulativeProbability(new double[] {3})[0], 1e-16);
        assertEquals(Math.log(0.25), d.logDensity(new double[] {0.3})[0], 1e-15);
        assertEquals(Math.log(0.25) - 2, d.logDensity(new double[] {-3})[0], 1e-15);
        assertEquals(0.0, d.mean()[0], 1e-15);
        assertEquals(8.0 / 3, d.variance()[0], 1e-15);
        assertEquals(0.0, d.median()[0], 1e-15);
        assertEquals(-1 + Math.log(0.1 / 0.25), d.inverseCumulativeProbability(0.1)[0], 1e-15);
        assertEquals(Double.NEGATIVE_INFINITY, d.inverseCumulativeProbability(0)[0]);
        assertEquals(Double.POSITIVE_INFINITY, d.inverseCumulativeProbability(1)[0]);
    }

    @Test
    void badArgumentsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new QuantileDistribution(new double[] {0.25, 0.75}, new double[][] {{1, 1}}));
        assertTrue(e.getMessage().contains("strictly increasing") && e.getMessage().contains("[0, 1]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new QuantileSpec(0.5));
        assertEquals("levels must hold at least 2 levels, got 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new QuantileSpec(0.1, 1.0));
        assertEquals("levels must be in (0, 1), got 1.0 at index 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new QuantileSpec(new double[] {0.1, 0.9}, 0));
        assertEquals("incrementFloor must be > 0 and finite, got 0.0", e.getMessage());
        Properties p = new QuantileSpec(0.1, 0.9).toProperties();
        p.setProperty("head.levels", "0.1,x");
        e = assertThrows(IllegalArgumentException.class, () -> HeadRegistry.read(p));
        assertTrue(e.getMessage().startsWith("head.levels must list numbers"), e.getMessage());
        p.setProperty("head.levels", "0.9,0.1");
        e = assertThrows(IllegalArgumentException.class, () -> HeadRegistry.read(p));
        assertTrue(e.getMessage().startsWith("head.levels must be strictly increasing"), e.getMessage());
    }

    @Test
    void specRoundTripsThroughItsKeys() {
        for (QuantileSpec s : List.of(new QuantileSpec(), new QuantileSpec(0.1, 0.5, 0.9),
                new QuantileSpec(new double[] {1e-3, 0.3, 0.999}, 0.25))) {
            Properties p = s.toProperties();
            assertEquals("quantile", p.getProperty("head"));
            assertEquals("1", p.getProperty("head.version"));
            assertEquals(s, HeadRegistry.read(p));
            ModelConfig mc = ModelConfig.defaults(s);
            assertEquals("pinball", mc.loss());
            assertEquals(mc, ModelConfig.of(mc.toProperties()));
        }
        assertEquals("0.01", new QuantileSpec().settings().get("levels").split(",")[0]);
        assertEquals(99, new QuantileSpec().levels().length);
    }

    @ParameterizedTest
    @EnumSource(names = {"pinball", "crps"})
    void trainsThroughTheModelAndRoundTripsThroughAFile(LossName loss) throws Exception {
        Dataset train = RegressionModelTest.data(800, 1);
        Dataset test = RegressionModelTest.data(300, 2);
        ModelConfig config = new ModelConfig(2, 32, new QuantileSpec(), loss.name(),
                TrainerConfig.defaults().withMaxEpochs(30).withPatience(10).withSeed(3));
        RegressionModel m = RegressionModel.create(config, 2);
        TrainingResult r = m.fit(train);
        assertTrue(!r.failed(), r.message());
        PredictiveDistribution d = m.predict(test.x());
        double mse = 0;
        double[] mean = d.mean();
        for (int i = 0; i < mean.length; i++) {
            mse += Math.pow(mean[i] - test.y(i), 2) / mean.length;
        }
        // y spans about 6 with noise variance 0.01: an untrained head (knots spread over the range) has MSE ~ 3
        assertTrue(mse < 0.1, loss + ": test MSE " + mse);
        double[][] ci = d.centralInterval(0.9);
        int inside = 0;
        for (int i = 0; i < mean.length; i++) {
            inside += test.y(i) >= ci[0][i] && test.y(i) <= ci[1][i] ? 1 : 0;
        }
        assertTrue(inside > 0.7 * mean.length, loss + ": 90% interval holds " + inside + " of " + mean.length);

        Path f = dir.resolve("quantile-" + loss + ".rgh");
        m.save(f);
        RegressionModel back = RegressionModel.load(f);
        assertEquals(m.config(), back.config());
        PredictiveDistribution d2 = back.predict(test.x());
        assertArrayEquals(mean, d2.mean(), 0.0);
        assertArrayEquals(d.logDensity(test.y()), d2.logDensity(test.y()), 0.0);
        assertArrayEquals(d.inverseCumulativeProbability(0.9), d2.inverseCumulativeProbability(0.9), 0.0);
        assertArrayEquals(m.predictPoint(test.x()), back.predictPoint(test.x()), 0.0);
    }

    /** The loss names the model takes for this head. */
    enum LossName { pinball, crps }
}
