package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.HammingExperiment.Curve;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class HammingExperimentTest {

    /**
     * Binary and Hamming decoders (K = 6 bits) reproduce their brute-force sample-mean error: at every n the measured
     * MSE of the n-sample mean lies within 4 standard errors of {@code mean (mu_i - y_i)^2 + mean s2_i / n}, with mu
     * and s2 enumerated over the 64 bins by the teacher-forced density (which sums to 1 per row); and both have
     * learned something (the 32-sample MSE is below 0.8 of the test variance of y01). Sampling that did not follow the
     * model's distribution (a wrong code table, a wrong temperature) would leave the expectation.
     */
    @Test
    void sampleMeansMatchTheBruteForceExpectation() {
        InputData airfoil = InputData.embedded();
        HammingExperiment.Config c = new HammingExperiment.Config(List.of(airfoil), 6, 400, 150, 32, 8, 25, 5, 64, 1, 0);
        HammingExperiment.Result r = HammingExperiment.run(c, s -> { });
        assertEquals(2, r.curves().size());
        for (Curve cv : r.curves()) {
            assertTrue(Arrays.equals(cv.measured(), cv.perRun()[0]), "one run: its curve is the mean");
            assertEquals(0, Arrays.stream(cv.runSd()).max().orElseThrow());
            assertTrue(cv.massError() < 1e-4, cv.tokens() + " probabilities sum to 1 +- " + cv.massError());
            for (int j = 0; j < cv.samples().length; j++) {
                System.out.printf("%s n=%d measured %.5f expected %.5f se %.5f%n", cv.tokens(), cv.samples()[j],
                        cv.measured()[j], cv.expected()[j], cv.standardError()[j]);
                assertEquals(cv.expected()[j], cv.measured()[j], 4 * cv.standardError()[j], cv.tokens() + " n="
                        + cv.samples()[j]);
            }
            assertTrue(cv.expected()[0] > cv.expected()[5] * 1.2, "the variance term must shrink with n");
        }
        assertEquals(List.of("binary", "hamming"), r.curves().stream().map(Curve::tokens).toList());
        assertTrue(Arrays.equals(new int[] {1, 2, 4, 8, 16, 32}, r.curves().get(0).samples()));
        for (Curve cv : r.curves()) {
            assertTrue(cv.measured()[5] < 0.8 * cv.variance(), cv.tokens() + " MSE " + cv.measured()[5] + " vs variance "
                    + cv.variance());
        }
    }
}
