package io.regheads.heads.mixture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.testing.GradientCheck;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** The scale map of the mixture head: sigma = ELU(s) + 1 + floor, its derivative, and gradients near the floor. */
class MixtureHeadTest {

    @Test
    void scalesHaveTheStatedFloorAndValues() {
        assertEquals(1e-4, MixtureHead.SIGMA_FLOOR, 0.0);
        assertEquals(MixtureHead.SIGMA_FLOOR, MixtureHead.sigma(-800), 0.0); // exp(-800) underflows to 0
        assertEquals(MixtureHead.SIGMA_FLOOR, MixtureHead.sigma(-1e300), 0.0);
        assertEquals(1 + 1e-4, MixtureHead.sigma(0), 0.0); // ELU(0) + 1 = 1
        assertEquals(Math.exp(-2) + 1e-4, MixtureHead.sigma(-2), 1e-16);
        assertEquals(3 + 1e-4, MixtureHead.sigma(2), 1e-15);
        for (double s = -1000; s <= 1000; s += 0.37) {
            assertTrue(MixtureHead.sigma(s) >= MixtureHead.SIGMA_FLOOR, "sigma(" + s + ")");
        }
    }

    @Test
    void scaleDerivativeMatchesCentralDifferences() {
        // relative error with an absolute floor of 1e-12, as the shared checker measures it
        for (double s : new double[] {-800, -60, -5, -0.3, -1e-3, 1e-3, 0.7, 5, 1e3}) {
            double h = 1e-6 * Math.max(1, Math.abs(s));
            double num = (MixtureHead.sigma(s + h) - MixtureHead.sigma(s - h)) / (2 * h);
            double ana = MixtureHead.dSigma(s);
            double rel = Math.abs(num - ana) / Math.max(Math.abs(num) + Math.abs(ana), 1e-12);
            assertTrue(rel < 1e-6, "d sigma / ds at " + s + ": analytic " + ana + ", numeric " + num);
        }
    }

    @Test
    void headGradientsMatchFiniteDifferencesWhereScalesSitOnTheFloor() {
        // phi of scale 60: pre-activation scales s of several tens, the negative ones with exp(s) far below the floor;
        // objective <output, R> with a fixed random R (a loss at sigma = 1e-4 would be too steep for differences)
        int d = 5;
        int b = 4;
        MixtureHead head = new MixtureSpec(3).build(d, 9, DataType.DOUBLE);
        INDArray phi = GradientCheck.random(12, 60.0, b, d);
        GaussianMixture out = (GaussianMixture) head.forward(phi, null, Arena.none()).output();
        double min = Double.POSITIVE_INFINITY;
        for (double s : Host.doubles(out.stds())) {
            min = Math.min(min, s);
        }
        assertTrue(min < 1.001 * MixtureHead.SIGMA_FLOOR, "some sigma sits on the floor, smallest " + min);
        GaussianMixture r = new GaussianMixture(GradientCheck.randomLike(out.weightLogits(), 1),
                GradientCheck.randomLike(out.means(), 2), GradientCheck.randomLike(out.stds(), 3));
        INDArray[] dPhi = new INDArray[1];
        Runnable backward = () -> {
            head.params().forEach(Param::zeroGrad);
            RegressionHead.Forward f = head.forward(phi, null, Arena.none());
            dPhi[0] = head.backward(f, r, Arena.none());
        };
        List<GradientCheck.Variable> vars = new ArrayList<>();
        vars.add(new GradientCheck.Variable("phi", phi, () -> dPhi[0]));
        for (Param p : head.params()) {
            vars.add(new GradientCheck.Variable(p.name(), p.value(), p::grad));
        }
        double worst = GradientCheck.check(() -> {
            GaussianMixture o = (GaussianMixture) head.forward(phi, null, Arena.none()).output();
            return o.weightLogits().mul(r.weightLogits()).sumNumber().doubleValue()
                    + o.means().mul(r.means()).sumNumber().doubleValue() + o.stds().mul(r.stds()).sumNumber().doubleValue();
        }, backward, vars, GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-5, "worst relative error " + worst);
    }
}
