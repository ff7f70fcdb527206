package io.regheads.heads.xval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.Scalar;
import io.regheads.core.loss.LossValue;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.mixture.MixtureDistribution;
import io.regheads.losses.Losses;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class XValHeadTest {

    static final int B = 3;
    static final int D = 4;

    /** <output, R> for either output form; R1 for the values/means, R2 for the stds. */
    static double project(HeadOutput out, INDArray r1, INDArray r2) {
        if (out instanceof Scalar) {
            return ((Scalar) out).values().mul(r1).sumNumber().doubleValue();
        }
        GaussianMixture g = (GaussianMixture) out;
        return g.means().reshape(B).mul(r1).sumNumber().doubleValue()
                + g.stds().reshape(B).mul(r2).sumNumber().doubleValue();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void passesTheGradientCheck(boolean learnedVariance) {
        XValHead head = new XValSpec(5, learnedVariance).build(D, 3, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(1, 1.0, B, D);
        INDArray r1 = GradientCheck.random(2, 1.0, B);
        INDArray r2 = GradientCheck.random(4, 1.0, B);
        INDArray[] dPhi = new INDArray[1];
        List<GradientCheck.Variable> vars = new ArrayList<>();
        vars.add(new GradientCheck.Variable("phi", phi, () -> dPhi[0]));
        for (Param p : head.params()) {
            vars.add(new GradientCheck.Variable(p.name(), p.value(), p::grad));
        }
        double worst = GradientCheck.check(() -> project(head.forward(phi, null, Arena.none()).output(), r1, r2),
                () -> {
                    head.params().forEach(Param::zeroGrad);
                    var f = head.forward(phi, null, Arena.none());
                    HeadOutput g = f.output().zerosLike();
                    if (g instanceof Scalar) {
                        ((Scalar) g).values().assign(r1);
                    } else {
                        ((GaussianMixture) g).means().assign(r1.reshape(B, 1));
                        ((GaussianMixture) g).stds().assign(r2.reshape(B, 1));
                    }
                    dPhi[0] = head.backward(f, g, Arena.none());
                }, vars, GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-5, "worst " + worst);
    }

    @Test
    void matchesAPlainLoopMlp() {
        XValHead head = new XValSpec(5, true).build(D, 3, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(1, 1.0, B, D);
        double[][] w1 = head.params().get(0).value().toDoubleMatrix();
        double[] b1 = head.params().get(1).value().toDoubleVector();
        double[][] w2 = head.params().get(2).value().toDoubleMatrix();
        double[] b2 = head.params().get(3).value().toDoubleVector();
        GaussianMixture g = (GaussianMixture) head.forward(phi, null, Arena.none()).output();
        for (int i = 0; i < B; i++) {
            double[] o = b2.clone();
            for (int h = 0; h < 5; h++) {
                double z = b1[h];
                for (int j = 0; j < D; j++) {
                    z += phi.getDouble(i, j) * w1[j][h];
                }
                // GELU, tanh form: 0.5 z (1 + tanh(sqrt(2/pi) (z + 0.044715 z^3)))
                double a = 0.5 * z * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (z + 0.044715 * z * z * z)));
                o[0] += a * w2[h][0];
                o[1] += a * w2[h][1];
            }
            assertEquals(o[0], g.means().getDouble(i, 0), 1e-12);
            assertEquals(Math.log1p(Math.exp(o[1])) + XValHead.MIN_STD, g.stds().getDouble(i, 0), 1e-12);
        }
    }

    @Test
    void pointHeadTrainsWithMseAndReportsAGaussian() {
        XValHead head = XValSpec.paper(D).build(D, 3, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(1, 1.0, B, D);
        double[] y = {0.5, -1.0, 2.0};
        var f = head.forward(phi, head.targets(y), Arena.none());
        LossValue l = Losses.ce().evaluate(f.output(), head.targets(y));
        double[] yHat = head.predict(phi);
        double mse = 0;
        for (int i = 0; i < B; i++) {
            mse += (yHat[i] - y[i]) * (yHat[i] - y[i]) / B;
        }
        assertEquals(mse, l.value(), 1e-12);
        head.setNoiseStd(0.5);
        MixtureDistribution dist = head.distribution(phi);
        assertEquals(yHat[1], dist.mean()[1], 1e-12);
        assertEquals(0.25, dist.variance()[1], 1e-12);
    }

    @Test
    void learnedVarianceHasTheGaussianNll() {
        XValHead head = new XValSpec(4, true).build(D, 9, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(1, 1.0, B, D);
        double[] y = {0.5, -1.0, 2.0};
        GaussianMixture g = (GaussianMixture) head.forward(phi, head.targets(y), Arena.none()).output();
        double nll = 0;
        for (int i = 0; i < B; i++) {
            double m = g.means().getDouble(i, 0);
            double s = g.stds().getDouble(i, 0);
            nll += (0.5 * Math.log(2 * Math.PI * s * s) + (y[i] - m) * (y[i] - m) / (2 * s * s)) / B;
        }
        assertEquals(nll, Losses.ce().evaluate(g, head.targets(y)).value(), 1e-10);
        assertEquals(-nll * B, sum(head.distribution(phi).logDensity(y)), 1e-10);
    }

    /** The head's distributions (fixed noise and learned variance) pass the shared distribution contract. */
    @Test
    void distributionsPassTheContract() {
        INDArray phi = GradientCheck.random(5, 1.0, B, D);
        XValHead point = XValSpec.paper(D).build(D, 3, DataType.DOUBLE);
        point.setNoiseStd(0.4);
        io.regheads.core.testing.DistributionContract.verify(point.distribution(phi), 20_000, 11);
        XValHead learned = new XValSpec(4, true).build(D, 9, DataType.DOUBLE);
        io.regheads.core.testing.DistributionContract.verify(learned.distribution(phi), 20_000, 12);
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }

    @Test
    void rejectsBadInput() {
        XValHead head = XValSpec.paper(D).build(D, 3, DataType.DOUBLE);
        IllegalArgumentException w = assertThrows(IllegalArgumentException.class,
                () -> head.forward(Nd4j.zeros(DataType.DOUBLE, 2, 5), null, Arena.none()));
        assertEquals("phi must have shape [B, D] = [B, 4] with B >= 1, got [2, 5]", w.getMessage());
        assertThrows(IllegalArgumentException.class, () -> head.targets(new double[] {1, Double.NaN}));
        assertThrows(IllegalArgumentException.class, () -> head.setNoiseStd(0));
        assertThrows(IllegalArgumentException.class, () -> new XValSpec(4, false).build(0, 1, DataType.DOUBLE));
        var f = head.forward(Nd4j.zeros(DataType.DOUBLE, 2, 4), null, Arena.none());
        assertThrows(IllegalArgumentException.class, () -> head.backward(f, new GaussianMixture(
                Nd4j.zeros(DataType.DOUBLE, 2, 1), Nd4j.zeros(DataType.DOUBLE, 2, 1), Nd4j.ones(DataType.DOUBLE, 2, 1)),
                Arena.none()));
    }

    /** The point head's after-fit noise level by hand; the learned-variance head has no after-fit state. */
    @Test
    void afterFitSetsThePointHeadsNoiseLevelAndItsState() {
        XValHead head = XValSpec.paper(D).build(D, 3, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(7, 1.0, 2, D);
        double[] pred = head.predict(phi);
        // residuals 0.6 and -0.8 by hand: mean square (0.36 + 0.64) / 2 = 0.5
        head.afterFit(phi, new double[] {pred[0] - 0.6, pred[1] + 0.8});
        assertEquals(Math.sqrt(0.5), head.noiseStd(), 1e-15);
        assertEquals(java.util.Map.of("noiseStd", Math.sqrt(0.5)), head.state());
        XValHead copy = XValSpec.paper(D).build(D, 3, DataType.DOUBLE);
        copy.restoreState(head.state());
        assertEquals(head.distribution(phi).logDensity(pred)[1], copy.distribution(phi).logDensity(pred)[1], 0.0);
        assertThrows(IllegalArgumentException.class, () -> copy.restoreState(java.util.Map.of()));

        XValHead learned = new XValSpec(5, true).build(D, 3, DataType.DOUBLE);
        learned.afterFit(phi, new double[] {5, 5});
        assertEquals(1.0, learned.noiseStd(), 0.0); // untouched: its sigma is learned
        assertEquals(java.util.Map.of(), learned.state());
        assertThrows(IllegalArgumentException.class, () -> learned.restoreState(java.util.Map.of("noiseStd", 1.0)));
    }
}
