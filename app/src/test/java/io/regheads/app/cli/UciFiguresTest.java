package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.head.Targets;
import io.regheads.heads.mixture.MixtureDistribution;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Each figure of {@code uci} on a case small enough to compute by hand. The numbers were computed with Python's
 * math module and scipy.stats.norm (values quoted in each test).
 */
class UciFiguresTest {

    private static TokenLogits logits(double[][][] l, double[][][] mask) {
        return new TokenLogits(Nd4j.createFromArray(l), new double[l[0][0].length],
                mask == null ? null : Nd4j.createFromArray(mask));
    }

    /** softmax([0, ln 3]) = [1/4, 3/4] and softmax([0, 0]) = [1/2, 1/2]: (-ln(3/4) + ln 2) / 2 = 0.4904146265. */
    @Test
    void perTokenCrossEntropyIsTheMeanOverPositions() {
        TokenLogits out = logits(new double[][][] {{{0, Math.log(3)}, {0, 0}}}, null);
        double[] x = UciFigures.tokenCrossEntropy(out, new Targets.Tokens(new int[] {1, 0}, null, 1), false);
        assertArrayEquals(new double[] {0.4904146265058631}, x, 1e-12);
        // no mask: the masked figure is the same
        assertArrayEquals(x, UciFigures.tokenCrossEntropy(out, new Targets.Tokens(new int[] {1, 0}, null, 1), true), 0);
    }

    /**
     * A histogram is a one-token decoder: x = -ln P(bin). Logits [ln 1, ln 2, ln 5] (P = 0.125, 0.25, 0.625), rows in
     * bins 0 and 2: -ln 0.125 = 2.0794415417, -ln 0.625 = 0.4700036292.
     */
    @Test
    void histogramFigureIsMinusLogBinProbability() {
        double[] l = {0, Math.log(2), Math.log(5)};
        TokenLogits out = logits(new double[][][] {{l}, {l}}, null);
        double[] x = UciFigures.tokenCrossEntropy(out, new Targets.Tokens(new int[] {0, 2}, null, 2), false);
        assertArrayEquals(new double[] {2.0794415416798357, 0.4700036292457356}, x, 1e-12);
    }

    /**
     * Logits [0, ln 3, 5] with the third token masked, target token 1: masked -ln(3/4) = 0.2876820725; unmasked
     * -ln(3 / (4 + e^5)) = 3.9279826967. A position labelled IGNORE does not count.
     */
    @Test
    void maskedAndUnmaskedSoftmax() {
        TokenLogits out = logits(new double[][][] {{{0, Math.log(3), 5}, {9, 9, 9}}},
                new double[][][] {{{1, 1, 0}, {1, 1, 1}}});
        Targets.Tokens t = new Targets.Tokens(new int[] {1, Targets.IGNORE}, null, 1);
        assertEquals(0.2876820724517809, UciFigures.tokenCrossEntropy(out, t, true)[0], 1e-12);
        assertEquals(3.9279826966742823, UciFigures.tokenCrossEntropy(out, t, false)[0], 1e-12);
        // a masked target token is an error under the masked softmax
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UciFigures.tokenCrossEntropy(
                out, new Targets.Tokens(new int[] {2, 0}, null, 1), true));
        assertEquals("target token 2 at row 0 position 0 is masked", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UciFigures.tokenCrossEntropy(out,
                new Targets.Tokens(new int[] {1, 0, 1, 0}, null, 2), false));
    }

    /**
     * The continuous heads' figure is the density NLL with the 2 pi constant: N(0, 0.1^2) at 0 has density 1 / (0.1
     * sqrt(2 pi)), NLL = ln 0.1 + ln(2 pi) / 2 = -1.3836465598; at 0.1 add 1/2.
     */
    @Test
    void densityFigureKeepsTheTwoPiConstant() {
        MixtureDistribution d = MixtureDistribution.gaussian(new double[] {0, 0}, new double[] {0.1, 0.1});
        double nll = UciFigures.meanNll(d.logDensity(new double[] {0, 0.1}));
        assertEquals((-1.3836465597893728 + (-1.3836465597893728 + 0.5)) / 2, nll, 1e-12);
        assertThrows(IllegalArgumentException.class, () -> UciFigures.meanNll(new double[0]));
    }

    /**
     * Grid {0, 10, 20}: cells (-inf, 5), [5, 15), [15, inf). N(10, 5^2): y = 10 -> -ln(Phi(1) - Phi(-1)) = 0.3817151463;
     * y = 3 -> -ln Phi(-1) = 1.8410216451; y = 23 -> -ln(1 - Phi(1)), the same; y = 5 (a midpoint) belongs to [5, 15).
     */
    @Test
    void resolutionNllOnAHandGrid() {
        MixtureDistribution d = MixtureDistribution.gaussian(new double[] {10, 10, 10, 10}, new double[] {5, 5, 5, 5});
        double[] r = UciFigures.resolutionNll(d, new double[] {10, 3, 23, 5}, new double[] {0, 10, 20});
        assertArrayEquals(new double[] {0.38171514630212616, 1.8410216450092634, 1.8410216450092634,
            0.38171514630212616}, r, 1e-7);
        // a point mass cannot go below 0: a very narrow Gaussian on the right value scores ~0
        MixtureDistribution spike = MixtureDistribution.gaussian(new double[] {10}, new double[] {1e-9});
        assertEquals(0, UciFigures.resolutionNll(spike, new double[] {10}, new double[] {0, 10, 20})[0], 1e-12);
        assertThrows(IllegalArgumentException.class, () -> UciFigures.resolutionNll(spike, new double[] {10},
                new double[] {0, 0}));
    }

    @Test
    void gridHelpers() {
        assertArrayEquals(new double[] {-1, 2, 3}, UciFigures.distinctSorted(new double[] {3, 2, 3, -1, 2}), 0);
        assertEquals(0, UciFigures.nearest(new double[] {0, 10, 20}, -7));
        assertEquals(1, UciFigures.nearest(new double[] {0, 10, 20}, 14.9));
        assertEquals(2, UciFigures.nearest(new double[] {0, 10, 20}, 15));
        assertEquals(2, UciFigures.nearest(new double[] {0, 10, 20}, 99));
        // pol: 11 values in 15 000 rows; wine 65 in 1599; airfoil 1456 in 1503
        assertTrue(UciFigures.fewDistinct(11, 15000));
        assertTrue(UciFigures.fewDistinct(65, 1599));
        assertFalse(UciFigures.fewDistinct(1456, 1503));
    }
}
