package io.regheads.core.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.nn.Param;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

class GradientClippingTest {

    private static List<Param> threeFour() {
        Param a = new Param("a", Nd4j.zeros(DataType.FLOAT, 1, 1));
        Param b = new Param("b", Nd4j.zeros(DataType.DOUBLE, 1, 2));
        a.grad().assign(3);
        b.grad().putScalar(0, 4);
        return List.of(a, b);
    }

    @Test
    void clipsAboveMaxNormAndReturnsTheNormBefore() {
        List<Param> ps = threeFour();
        // by hand: norm sqrt(9 + 16 + 0) = 5; coef = 1 / (5 + 1e-6) (torch's guard)
        assertEquals(5.0, GradientClipping.clipByGlobalNorm(ps, 1.0), 1e-12);
        double coef = 1 / (5 + 1e-6);
        assertEquals(3 * coef, ps.get(0).grad().getDouble(0), 1e-7);
        assertEquals(4 * coef, ps.get(1).grad().getDouble(0), 1e-15);
        assertEquals(0.0, ps.get(1).grad().getDouble(1), 0.0);
        assertEquals(1.0, GradientClipping.globalNorm(ps), 1e-6);
    }

    @Test
    void leavesGradientsAloneAtOrBelowMaxNorm() {
        List<Param> ps = threeFour();
        assertEquals(5.0, GradientClipping.clipByGlobalNorm(ps, 5.0), 1e-12);
        assertEquals(3.0, ps.get(0).grad().getDouble(0), 0.0);
        assertEquals(4.0, ps.get(1).grad().getDouble(0), 0.0);
    }

    @Test
    void nonFiniteNormIsReturnedAndGradientsUntouched() {
        List<Param> ps = threeFour();
        ps.get(1).grad().putScalar(1, Double.NaN);
        assertEquals(Double.NaN, GradientClipping.clipByGlobalNorm(ps, 1.0));
        assertEquals(3.0, ps.get(0).grad().getDouble(0), 0.0);
    }

    @Test
    void rejectsBadMaxNorm() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GradientClipping.clipByGlobalNorm(threeFour(), 0));
        assertEquals("maxNorm must be > 0 and finite, got 0.0", e.getMessage());
    }
}
