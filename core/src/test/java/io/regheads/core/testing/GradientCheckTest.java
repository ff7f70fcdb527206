package io.regheads.core.testing;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The checker itself: accepts a right gradient and rejects a wrong one, naming the place. */
class GradientCheckTest {

    @Test
    void acceptsTheGradientOfSumOfCubes() {
        INDArray x = Nd4j.createFromArray(0.5, -1.25, 2.0);
        INDArray g = x.dup();
        double worst = GradientCheck.check(
                () -> x.mul(x).mul(x).sumNumber().doubleValue(),
                () -> g.assign(x.mul(x).mul(3)),
                List.of(new GradientCheck.Variable("x", x, () -> g)),
                GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-8, "worst relative error " + worst);
    }

    @Test
    void rejectsAWrongGradientAndNamesIt() {
        INDArray x = Nd4j.createFromArray(0.5, -1.25, 2.0);
        INDArray g = x.dup();
        AssertionError e = assertThrows(AssertionError.class, () -> GradientCheck.check(
                () -> x.mul(x).mul(x).sumNumber().doubleValue(),
                () -> g.assign(x.mul(x).mul(3)).putScalar(1, 0.0),
                List.of(new GradientCheck.Variable("x", x, () -> g)),
                GradientCheck.Tolerance.standard()));
        assertTrue(e.getMessage().startsWith("gradient of x at flat index 1"), e.getMessage());
    }
}
