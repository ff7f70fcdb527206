package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * {@link DecoderDistribution#firstTokens}: the k-level histograms of the decoding paper's Fig. 3 against brute force,
 * every one of the V^K full sequences scored by the full teacher-forced forward ({@link
 * DecoderDistributionTest#leafProbabilities}) and their probabilities summed per k-token prefix.
 */
class DecoderPrefixMarginalTest {

    /** Sum of the leaf probabilities of row r per prefix of length k (leaf i's prefix is i / V^(K-k)). */
    static double[] bruteForce(double[] leaves, int v, int kTotal, int k) {
        int bins = (int) Math.pow(v, k);
        int per = (int) Math.pow(v, kTotal - k);
        double[] out = new double[bins];
        for (int i = 0; i < leaves.length; i++) {
            out[i / per] += leaves[i];
        }
        return out;
    }

    void check(int v, int kTotal, long seed) {
        NormalizedTokenizer tok = NormalizedTokenizer.of(v, kTotal);
        DecoderHead h = DecoderDistributionTest.head(tok, seed);
        INDArray phi = GradientCheck.random(seed, 2.0, 3, DecoderDistributionTest.D);
        int count = (int) Math.pow(v, kTotal);
        double[][] leaves = DecoderDistributionTest.leafProbabilities(h, tok, phi, count);
        DecoderDistribution d = h.distribution(phi);
        for (int k = 1; k <= kTotal; k++) {
            HistogramDistribution hk = d.firstTokens(k);
            int bins = (int) Math.pow(v, k);
            assertEquals(bins, hk.bins());
            assertEquals(0.0, hk.borders()[0]);
            assertEquals(1.0, hk.borders()[bins]);
            double[][] p = hk.probabilities();
            for (int r = 0; r < 3; r++) {
                double[] expected = bruteForce(leaves[r], v, kTotal, k);
                for (int i = 0; i < bins; i++) {
                    // double precision throughout: the cached path and the full forward agree to rounding
                    assertEquals(expected[i], p[r][i], 1e-12, "V=" + v + " K=" + kTotal + " k=" + k + " row " + r
                            + " bin " + i);
                }
            }
        }
        // k = K: the full distribution; its density at each leaf centre is the decoder's own
        HistogramDistribution full = d.firstTokens(kTotal);
        for (int i = 0; i < count; i += Math.max(1, count / 7)) {
            double[] y = new double[3];
            java.util.Arrays.fill(y, (i + 0.5) / count);
            double[] a = full.logDensity(y);
            double[] b = d.logDensity(y);
            for (int r = 0; r < 3; r++) {
                assertEquals(b[r], a[r], 1e-9, "leaf " + i + " row " + r);
            }
        }
    }

    @Test
    void binaryPrefixesSumTheirCompletions() {
        check(2, 6, 5);
    }

    @Test
    void base4PrefixesSumTheirCompletions() {
        check(4, 3, 9);
    }

    @Test
    void refusesWhatItCannotAnswer() {
        DecoderHead h = DecoderDistributionTest.head(NormalizedTokenizer.of(2, 4), 1);
        DecoderDistribution d = h.distribution(GradientCheck.random(1, 2.0, 2, DecoderDistributionTest.D));
        assertThrows(IllegalArgumentException.class, () -> d.firstTokens(0));
        assertThrows(IllegalArgumentException.class, () -> d.firstTokens(5));
        DecoderHead u = DecoderDistributionTest.head(UnnormalizedTokenizer.of(10, 1, 2), 1);
        DecoderDistribution du = u.distribution(GradientCheck.random(1, 2.0, 2, DecoderDistributionTest.D));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> du.firstTokens(1));
        assertEquals(true, e.getMessage().contains("fixed-point"), e.getMessage());
    }
}
