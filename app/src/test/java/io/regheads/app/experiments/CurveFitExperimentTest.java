package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.experiments.CurveFitExperiment.Fit;
import io.regheads.app.experiments.CurveFitExperiment.Function;
import java.util.List;
import org.junit.jupiter.api.Test;

class CurveFitExperimentTest {

    /** By hand: errors |1.1 - 1| / 1, |0 - 0.001| / max(0.001, 1e-3 x 100), |90 - 100| / 100 -> 0.1, 1, 0.1. */
    @Test
    void medianRelativeErrorByHand() {
        assertEquals(0.1, CurveFitExperiment.medianRelativeError(new double[] {1.1, 0, 90}, new double[] {1, 0.001, 100}),
                1e-12);
        assertEquals(Math.exp(8), Function.EXP.value(1), 1e-9);
        assertEquals(-5, Function.STEPS.value(-0.9999), 0);
    }

    /**
     * The paper's Fig. 4 claim at small scale: on y = exp(8x) (3.4e-4 to 2981), the unnormalized decoder on raw y
     * tracks every decade (median relative error below 0.25), while the pointwise head on min-max scaled y cannot
     * resolve the small half of the range (median relative error above 0.5). 2000 rows, 6 epochs (about 8 s of CPU).
     */
    @Test
    void unnormalizedDecoderTracksEveryDecadeOfExp() {
        CurveFitExperiment.Config c = new CurveFitExperiment.Config(List.of(Function.EXP),
                List.of("unnormalized-decoder", "pointwise"), 2000, 6, 3e-3, 64, 0);
        CurveFitExperiment.Result r = CurveFitExperiment.run(c, s -> { });
        Fit dec = r.fits().get(0);
        Fit pw = r.fits().get(1);
        System.out.printf("median relative error: decoder %.4f, pointwise %.4f%n", dec.medianRelErr(), pw.medianRelErr());
        assertEquals("unnormalized-decoder", dec.head());
        assertTrue(dec.medianRelErr() < 0.25, "decoder median relative error " + dec.medianRelErr());
        assertTrue(pw.medianRelErr() > 0.5, "pointwise median relative error " + pw.medianRelErr());
    }
}
