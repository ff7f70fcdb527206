package io.regheads.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** TargetScaler's three transforms on hand-computed values. */
class TargetScalerTest {

    /** 1, 2, ..., 99 and 1e300 (the class description's example). */
    private static double[] extreme() {
        double[] y = new double[100];
        for (int i = 0; i < 99; i++) {
            y[i] = i + 1;
        }
        y[99] = 1e300;
        return y;
    }

    @Test
    void noneIsMinMaxScaling() {
        TargetScaler s = TargetScaler.fit(TargetTransform.NONE, new double[] {2, 4, 10});
        assertArrayEquals(new double[] {0, 0.25, 1}, s.toUnit(new double[] {2, 4, 10}), 0);
        assertEquals(6, s.inverse(0.5), 0);
        assertEquals(-6, s.inverse(-1), 0); // no clipping outside the training range
    }

    @Test
    void robustBoundsAreTukeysOuterFencesInsideTheRange() {
        TargetScaler s = TargetScaler.fit(TargetTransform.ROBUST, extreme());
        // quartiles at (n - 1) p = 24.75 and 74.25: 25.75 and 75.25, IQR 49.5
        assertEquals(1, s.unit().min(), 0); // max(1, 25.75 - 148.5)
        assertEquals(223.75, s.unit().max(), 0); // min(1e300, 75.25 + 148.5)
        assertEquals(223.75, s.transformed(1e300), 0);
        assertArrayEquals(new double[] {0, 1, 1}, s.toUnit(new double[] {1, 223.75, 1e300}), 0);
        assertEquals((50.5 - 1) / 222.75, s.toUnit(new double[] {50.5})[0], 1e-15);
        // without values beyond the fences it is min-max scaling
        TargetScaler plain = TargetScaler.fit(TargetTransform.ROBUST, new double[] {2, 4, 10});
        assertEquals(2, plain.unit().min(), 0);
        assertEquals(10, plain.unit().max(), 0);
    }

    @Test
    void logScalesLog1pOfYMinusTheMinimum() {
        TargetScaler s = TargetScaler.fit(TargetTransform.LOG, extreme());
        assertEquals(1, s.shift(), 0);
        assertEquals(0, s.unit().min(), 0);
        assertEquals(690.7755278982137, s.unit().max(), 1e-12); // log(1e300 - 1 + 1) = 300 log 10
        assertEquals(Math.log(10) / 690.7755278982137, s.toUnit(new double[] {10})[0], 1e-15); // log1p(9)
        assertEquals(10, s.inverse(Math.log(10) / 690.7755278982137), 1e-12);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.toUnit(new double[] {5, -0.5}));
        assertEquals("y[1] must be > 0.0 (the training minimum 1.0 minus 1) for the LOG transform, got -0.5",
                e.getMessage());
    }

    @Test
    void refusals() {
        assertEquals("y has an inter-quartile range of 0 (at least half the targets equal 3.0) while its range is "
                + "[1.0, 9.0]: ROBUST scaling needs a spread; use NONE or LOG", assertThrows(
                        IllegalArgumentException.class, () -> TargetScaler.fit(TargetTransform.ROBUST,
                                new double[] {1, 3, 3, 3, 3, 3, 9})).getMessage());
        assertThrows(IllegalArgumentException.class, () -> TargetScaler.fit(TargetTransform.LOG,
                new double[] {-1.7e308, 1.7e308}));
        assertEquals("shift must be 0 without the LOG transform, got 2.0 with ROBUST", assertThrows(
                IllegalArgumentException.class, () -> TargetScaler.of(TargetTransform.ROBUST, 2,
                        MinMaxScaler.of(0, 1))).getMessage());
    }
}
