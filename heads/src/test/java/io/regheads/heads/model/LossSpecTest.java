package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.head.Targets;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

/** The loss grammar, including the NTL word options place, number and all. */
class LossSpecTest {
    @Test
    void parsesTermsWeightsNumbersAndWordOptions() {
        assertEquals("ce", LossSpec.parse("ce").name());
        assertEquals("ce+0.3*ntl-was:place", LossSpec.parse("CE + 0.3*ntl-was:place").name());
        assertEquals("ce+0.1*ntl-mse:number", LossSpec.parse("ce+0.1*ntl-mse:number").name());
        assertEquals("ce+0.3*ntl-was:all", LossSpec.parse("ce+0.3*ntl-was:all").name());
        assertTrue(LossSpec.parse("ce+0.3*ntl-huber:0.5,number").name().contains("ntl-huber(delta=0.5):number"),
                LossSpec.parse("ce+0.3*ntl-huber:0.5,number").name());
        assertTrue(LossSpec.parse("huber:number,0.5").name().contains(":number"));
        assertEquals("ce+0.5*crps", LossSpec.parse("ce + 0.5*CRPS").name());
        assertEquals("pinball+0.5*crps", LossSpec.parse("pinball+0.5*crps").name());
    }

    @Test
    void rejectsWhatItCannotRead() {
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ce:place")); // not an NTL term
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:number")); // no number level
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:place,all"));
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:0.5")); // takes no number
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was:plce"));
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("gce:0.5,0.7"));
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was-cdf:0")); // sigma must be > 0
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("ntl-was-cdf:0.5,0.7"));
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("crps:0.5")); // takes no number
        assertThrows(IllegalArgumentException.class, () -> LossSpec.parse("crps:place")); // not an NTL term
    }

    /**
     * {@code ntl-was-cdf:sigma} compares with the Gaussian-smoothed target of {@code gce:sigma}, not the point mass.
     * By hand: one position, token values {0, 1, 2}, equal logits (q = 1/3 each), label token 1. NTL-WAS-CDF is
     * {@code sum_i |Q_i - R_i| (v_{i+1} - v_i)} over the first two cumulative sums. Point mass: R = (0, 1), so
     * {@code |1/3 - 0| + |2/3 - 1| = 2/3}. Gaussian, sigma = 1: {@code r ~ (a, 1, a)} with {@code a = exp(-1/2)}, so
     * R = (a / (1 + 2a), (1 + a) / (1 + 2a)) and the loss is {@code |1/3 - R_0| + |2/3 - R_1| = 2 (1/3 - a / (1 + 2a))}
     * = 0.0766 (R_0 = 0.2483 < 1/3 and R_1 = 0.7517 > 2/3).
     */
    @Test
    void smoothedWasCdfUsesTheGaussianTargetOfGce() {
        TokenLogits out = new TokenLogits(Nd4j.createFromArray(new double[] {0, 0, 0}).reshape(1, 1, 3),
                new double[] {0, 1, 2}, null);
        Targets.Tokens label = new Targets.Tokens(new int[] {1}, null, 1);
        double a = Math.exp(-0.5);
        double smooth = 2 * (1.0 / 3 - a / (1 + 2 * a));
        assertEquals(2.0 / 3, LossSpec.parse("ntl-was-cdf").evaluate(out, label).value(), 1e-12);
        assertEquals(smooth, LossSpec.parse("ntl-was-cdf:1").evaluate(out, label).value(), 1e-12);
        assertTrue(Math.abs(smooth - 2.0 / 3) > 0.5, "differs from the point-mass form");
        assertEquals("ntl-was-cdf(gaussian(sigma=0.5))", LossSpec.parse("ntl-was-cdf:0.5").name());
        // the NTL paper's pairing: GCE and NTL-WAS-CDF on one smoothed target
        assertEquals("gce(sigma=0.5)+0.3*ntl-was-cdf(gaussian(sigma=0.5))",
                LossSpec.parse("gce:0.5+0.3*ntl-was-cdf:0.5").name());
    }
}
