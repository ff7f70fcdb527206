package io.regheads.core.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TargetCheckTest {

    private static double[] normal(int n, long seed) {
        Random r = new Random(seed);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = 10 * r.nextGaussian();
        }
        return y;
    }

    @Test
    void ordinaryTargetsPass() {
        assertEquals(Optional.empty(), TargetCheck.check("y", normal(5000, 1)));
        double[] logNormal = normal(5000, 2);
        for (int i = 0; i < logNormal.length; i++) {
            logNormal[i] = Math.exp(logNormal[i] / 10);
        }
        assertEquals(Optional.empty(), TargetCheck.check("y", logNormal));
        assertEquals(Optional.empty(), TargetCheck.check("y", new double[] {4.5, 4.5})); // constant: MinMaxScaler's
        assertEquals(Optional.empty(), TargetCheck.check("y", new double[] {1, 1e100})); // two rows: nothing central
    }

    @Test
    void oneHugeTargetAmongOrdinaryOnesIsRefused() {
        // 1, 2, ..., 99 and 1e100: k = 1 value left out at each end, central spread [2, 99]
        double[] y = new double[100];
        for (int i = 0; i < 99; i++) {
            y[i] = i + 1;
        }
        y[99] = 1e100;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TargetCheck.check("y", y));
        assertEquals("y has extreme values: its range [1.00000, 1.00000e+100] is 1.03e+98 times the spread of its "
                + "central 98% [2.00000, 99.0000], so after min-max scaling those targets occupy 9.7e-99 of [0, 1]; "
                + "fit with a target transform (LOG for positive right-skewed targets, ROBUST: bounds 3 IQR beyond "
                + "the quartiles with the extremes clipped, otherwise; ModelConfig.withTargetTransform, or --target-transform on the "
                + "command line), or remove the extreme rows", e.getMessage());
    }

    @Test
    void heavyTailsAndNearlyConstantTargetsAreWarnedAbout() {
        double[] y = normal(1000, 3);
        y[0] = 5000; // central 98% spread about 46: ratio about 110
        Optional<String> w = TargetCheck.check("y", y);
        assertTrue(w.isPresent() && w.get().startsWith("y is heavy-tailed: its range ["), w.toString());
        assertTrue(w.get().endsWith("consider a target transform (LOG for positive right-skewed targets, ROBUST: "
                + "bounds 3 IQR beyond the quartiles with the extremes clipped, otherwise; ModelConfig.withTargetTransform, or "
                + "--target-transform on the command line)"), w.get());
        double[] zeros = new double[200];
        zeros[7] = 3;
        assertEquals(Optional.of("y is nearly constant: at least 98% of the targets equal 0.00000 and the rest reach "
                + "[0.00000, 3.00000]; after min-max scaling they all sit at one point"), TargetCheck.check("y", zeros));
    }

    @Test
    void anOverflowingRangeIsSaidToOverflow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TargetCheck.check("y", new double[] {-1.7e308, 1, 2, 1.7e308}));
        assertEquals("y has a range that overflows: max - min = Infinity (min -1.7E308, max 1.7E308); scale y down "
                + "(e.g. divide by 1e300) before fitting", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TargetCheck.check("y", new double[] {1, Double.NaN}));
        // one 1e300 among zeros: no spread in the central 98%, so only the range itself can refuse it
        double[] zeros = new double[200];
        zeros[7] = 1e300;
        e = assertThrows(IllegalArgumentException.class, () -> TargetCheck.check("y", zeros));
        assertEquals("y has a range too wide for min-max scaling: max - min = 1.0E300 (min 0.0, max 1.0E300) is above "
                + "1.0E150, where variances in y's units overflow; fit with a target transform (LOG for positive "
                + "right-skewed targets, ROBUST: bounds 3 IQR beyond the quartiles with the extremes clipped, otherwise; "
                + "ModelConfig.withTargetTransform, or --target-transform on the command line), or remove the extreme "
                + "rows", e.getMessage());
        zeros[7] = 1e150; // the largest range carried: a nearly-constant warning
        assertTrue(TargetCheck.check("y", zeros).orElseThrow().startsWith("y is nearly constant"));
        assertThrows(IllegalArgumentException.class, () -> TargetCheck.check("y", new double[0]));
    }
}
