package io.regheads.losses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.Scalar;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.LossValue;
import io.regheads.core.head.Targets;
import io.regheads.core.testing.GradientCheck;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Every loss on Gaussian-mixture and scalar outputs: gradients, closed forms, Monte Carlo, golden values. */
class ContinuousLossTest {

    static Stream<Loss> losses() {
        return Stream.of(Losses.ce(), Losses.gce(0.4), Losses.gce(1.3, 12), Losses.ntlMse(), Losses.ntlMae(),
                Losses.ntlHuber(0.3), Losses.ntlWas(), Losses.ntlWasCdf(),
                Losses.ntlWasCdf(TargetDistribution.gaussian(1.0)), Losses.ce().plus(0.3, Losses.ntlWas()));
    }

    static GaussianMixture mixture(long seed, int b, int k) {
        Random r = new Random(seed);
        double[][] a = new double[b][k];
        double[][] mu = new double[b][k];
        double[][] s = new double[b][k];
        for (int i = 0; i < b; i++) {
            for (int m = 0; m < k; m++) {
                a[i][m] = r.nextGaussian();
                mu[i][m] = 2 * r.nextGaussian();
                s[i][m] = 0.4 + r.nextDouble();
            }
        }
        return new GaussianMixture(Nd4j.createFromArray(a), Nd4j.createFromArray(mu), Nd4j.createFromArray(s));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("losses")
    void mixtureGradientsMatchFiniteDifferences(Loss loss) {
        GaussianMixture out = mixture(5, 3, 2);
        Targets y = new Targets.Values(new double[] {0.3, -1.7, 2.2});
        GaussianMixture[] g = new GaussianMixture[1];
        GradientCheck.check(() -> loss.evaluate(out, y).value(),
                () -> g[0] = (GaussianMixture) loss.evaluate(out, y).gradient(),
                List.of(new GradientCheck.Variable("weightLogits", out.weightLogits(), () -> g[0].weightLogits()),
                        new GradientCheck.Variable("means", out.means(), () -> g[0].means()),
                        new GradientCheck.Variable("stds", out.stds(), () -> g[0].stds())),
                // absolute floor 1e-6: a component 4 stds from y has d/ds ~ 6e-9, below the central differences'
                // rounding noise (~1e-16 * |L| / eps ~ 1e-10 .. 1e-12 here); relative error stays 1e-5
                new GradientCheck.Tolerance(1e-6, 1e-5, 1e-6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("losses")
    void scalarGradientsMatchFiniteDifferences(Loss loss) {
        Scalar out = new Scalar(Nd4j.createFromArray(0.5, -1.0, 3.0, 0.2));
        Targets y = new Targets.Values(new double[] {0.0, 1.0, 3.5, 0.25});
        Scalar[] g = new Scalar[1];
        GradientCheck.check(() -> loss.evaluate(out, y).value(), () -> g[0] = (Scalar) loss.evaluate(out, y).gradient(),
                List.of(new GradientCheck.Variable("values", out.values(), () -> g[0].values())),
                GradientCheck.Tolerance.standard());
    }

    @Test
    void scalarGoldenValuesByHand() {
        // e = yHat - y = [0.5, -2, -0.5]
        Scalar out = new Scalar(Nd4j.createFromArray(0.5, -1.0, 3.0));
        Targets y = new Targets.Values(new double[] {0.0, 1.0, 3.5});
        assertEquals((0.25 + 4 + 0.25) / 3, Losses.ntlMse().evaluate(out, y).value(), 1e-15);
        assertEquals((0.25 + 4 + 0.25) / 3, Losses.ce().evaluate(out, y).value(), 1e-15);
        assertEquals((0.25 + 4 + 0.25) / 3 + 0.25, Losses.gce(0.5).evaluate(out, y).value(), 1e-15);
        assertEquals(1.0, Losses.ntlMae().evaluate(out, y).value(), 1e-15);
        assertEquals(1.0, Losses.ntlWas().evaluate(out, y).value(), 1e-15);
        assertEquals(1.0, Losses.ntlWasCdf().evaluate(out, y).value(), 1e-15);
        assertEquals((0.125 + 1.5 + 0.125) / 3, Losses.ntlHuber(1).evaluate(out, y).value(), 1e-15);
        LossValue lv = Losses.ntlMse().evaluate(out, y);
        assertEquals(2 * -2.0 / 3, ((Scalar) lv.gradient()).values().getDouble(1), 1e-15);
        assertEquals(4.0 / 3, lv.perExample()[1], 1e-15);
    }

    static GaussianMixture fixed(double[] logits, double[] mu, double[] s) {
        return new GaussianMixture(Nd4j.createFromArray(new double[][] {logits}),
                Nd4j.createFromArray(new double[][] {mu}), Nd4j.createFromArray(new double[][] {s}));
    }

    @Test
    void mixtureGoldenValuesByHand() {
        Targets y1 = new Targets.Values(new double[] {1.0});
        // N(0, 1) at y = 1: NLL = 1/2 + log(2 pi)/2
        GaussianMixture std = fixed(new double[] {0}, new double[] {0}, new double[] {1});
        assertEquals(1.4189385332046727, Losses.ce().evaluate(std, y1).value(), 1e-14);
        // E|Z| = sqrt(2/pi); E|Z - 1| = 2 phi(1) + (2 Phi(1) - 1) = 0.4839414490382867 + 0.6826894921370859
        assertEquals(Math.sqrt(2 / Math.PI),
                Losses.ntlWas().evaluate(std, new Targets.Values(new double[] {0})).value(), 1e-14);
        assertEquals(1.1666309411753726, Losses.ntlWas().evaluate(std, y1).value(), 1e-12);
        // pi = softmax([0, log 3]) = [1/4, 3/4], mu = [1, 2]: E[Y] = 1.75; y = 1: MSE 0.5625, MAE 0.75
        GaussianMixture two = fixed(new double[] {0, Math.log(3)}, new double[] {1, 2}, new double[] {0.5, 2});
        assertEquals(0.5625, Losses.ntlMse().evaluate(two, y1).value(), 1e-14);
        assertEquals(0.75, Losses.ntlMae().evaluate(two, y1).value(), 1e-14);
        // NLL against the direct density: -log(1/4 N(1; 1, 0.25) + 3/4 N(1; 2, 4))
        double direct = -Math.log(0.25 * Math.exp(0) / (0.5 * Math.sqrt(2 * Math.PI))
                + 0.75 * Math.exp(-0.125) / (2 * Math.sqrt(2 * Math.PI)));
        assertEquals(direct, Losses.ce().evaluate(two, y1).value(), 1e-14);
    }

    @Test
    void nllStaysFiniteFarFromTheMeans() {
        // y = 1000: the direct density underflows to 0; the wide component dominates, the other adds exp(-3.7e5):
        // NLL = -log(3/4) + log 2 + log(2 pi)/2 + (998/2)^2/2
        GaussianMixture two = fixed(new double[] {0, Math.log(3)}, new double[] {1, 2}, new double[] {0.5, 2});
        LossValue lv = Losses.ce().evaluate(two, new Targets.Values(new double[] {1000}));
        double expected = -Math.log(0.75) + Math.log(2) + 0.5 * Math.log(2 * Math.PI) + 0.5 * 499.0 * 499.0;
        assertEquals(expected, lv.value(), 1e-9 * expected);
        GaussianMixture g = (GaussianMixture) lv.gradient();
        // d/dmu_2 = -(y - mu)/s^2 = -998/4 (all responsibility on component 2)
        assertEquals(-998.0 / 4, g.means().getDouble(0, 1), 1e-9);
        assertEquals(0.0, g.means().getDouble(0, 0), 1e-12);
    }

    @Test
    void gceOnOneGaussianIsExact() {
        // -E_{t ~ N(y, sigma^2)} log N(t; mu, s^2) = log(s sqrt(2 pi)) + ((y - mu)^2 + sigma^2) / (2 s^2)
        GaussianMixture one = fixed(new double[] {0.7}, new double[] {0.4}, new double[] {1.5});
        double y = -0.8;
        double sigma = 0.6;
        double exact = Math.log(1.5 * Math.sqrt(2 * Math.PI)) + ((y - 0.4) * (y - 0.4) + sigma * sigma) / (2 * 2.25);
        assertEquals(exact, Losses.gce(sigma, 2).evaluate(one, new Targets.Values(new double[] {y})).value(), 1e-13);
        assertEquals(exact, Losses.gce(sigma).evaluate(one, new Targets.Values(new double[] {y})).value(), 1e-12);
    }

    @Test
    void gceOnAMixtureMatchesNumericalIntegration() {
        GaussianMixture two = fixed(new double[] {0.2, -0.5}, new double[] {-1, 1.5}, new double[] {0.8, 1.2});
        double y = 0.3;
        double sigma = 0.5;
        // Simpson's rule of -N(t; y, sigma^2) log p(t) over y +- 12 sigma
        int n = 20000;
        double lo = y - 12 * sigma;
        double h = 24 * sigma / n;
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            double t = lo + i * h;
            double w0 = Math.exp(0.2) / (Math.exp(0.2) + Math.exp(-0.5)); // mixture density written out directly
            double p = w0 * Math.exp(-0.5 * Math.pow((t + 1) / 0.8, 2)) / (0.8 * Math.sqrt(2 * Math.PI))
                    + (1 - w0) * Math.exp(-0.5 * Math.pow((t - 1.5) / 1.2, 2)) / (1.2 * Math.sqrt(2 * Math.PI));
            double f = -Math.exp(-0.5 * Math.pow((t - y) / sigma, 2)) / (sigma * Math.sqrt(2 * Math.PI)) * Math.log(p);
            sum += (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2) * f;
        }
        double integral = sum * h / 3;
        assertEquals(integral, Losses.gce(sigma).evaluate(two, new Targets.Values(new double[] {y})).value(), 1e-9);
    }

    @Test
    void mixtureAbsoluteDeviationMatchesMonteCarlo() {
        double[] w = {0.2, 0.5, 0.3};
        double[] mu = {-2.0, 0.5, 3.0};
        double[] s = {0.5, 1.0, 2.0};
        double y = 0.8;
        double[] logits = {Math.log(w[0]), Math.log(w[1]), Math.log(w[2])};
        double closed = Losses.ntlWas().evaluate(fixed(logits, mu, s), new Targets.Values(new double[] {y})).value();
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(42L);
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        int n = 200_000;
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < n; i++) {
            double u = rng.nextDouble();
            int m = u < w[0] ? 0 : u < w[0] + w[1] ? 1 : 2;
            double d = Math.abs(mu[m] + s[m] * normal.sample() - y);
            sum += d;
            sumSq += d * d;
        }
        double mean = sum / n;
        double se = Math.sqrt((sumSq / n - mean * mean) / n);
        assertTrue(Math.abs(mean - closed) < 4 * se,
                "closed form " + closed + " vs Monte Carlo " + mean + " +- " + se);
        assertEquals(closed, Losses.ntlWasCdf().evaluate(fixed(logits, mu, s),
                new Targets.Values(new double[] {y})).value(), 0.0, "NTL-WAS-CDF == NTL-WAS on a mixture");
    }

    @Test
    void floatMixtureAgreesWithDouble() {
        GaussianMixture d = mixture(9, 4, 3);
        GaussianMixture f = new GaussianMixture(d.weightLogits().castTo(DataType.FLOAT),
                d.means().castTo(DataType.FLOAT), d.stds().castTo(DataType.FLOAT));
        Targets y = new Targets.Values(new double[] {0.1, 1.0, -2.0, 0.5});
        LossValue ld = Losses.ntlWas().evaluate(d, y);
        LossValue lf = Losses.ntlWas().evaluate(f, y);
        assertEquals(ld.value(), lf.value(), 1e-6);
        INDArray gf = ((GaussianMixture) lf.gradient()).means();
        assertEquals(DataType.FLOAT, gf.dataType());
        assertTrue(((GaussianMixture) ld.gradient()).means().sub(gf.castTo(DataType.DOUBLE)).amaxNumber()
                .doubleValue() < 1e-6);
    }
}
