package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.RepeatMeanExperiment.Curve;
import java.util.List;
import org.junit.jupiter.api.Test;

class RepeatMeanExperimentTest {

    /**
     * By hand, y = (0, 2), draws per row {1, 10}, {3, 2}: means of 1 draw (1, 10), of 2 draws (2, 6); errors (1, 8) and
     * (2, 4): MSE 32.5 and 10; var(y) = 1, so relative MSE 32.5 and 10.
     */
    @Test
    void meanCurveByHand() {
        double[][] draws = {{1, 10}, {3, 2}};
        assertArrayEquals(new double[] {32.5, 10}, RepeatMeanExperiment.meanCurve(draws, new int[] {1, 2},
                new double[] {0, 2}), 1e-12);
        assertEquals(0.25, RepeatMeanExperiment.outlierShare(draws, 0, 5), 1e-15);
    }

    /**
     * The mechanism of the paper's Fig. 10 at small scale (airfoil, 600 training rows, 15 epochs, raw y): an
     * undertrained unnormalized decoder draws far-off values (a wrong sign or exponent token) that voting over 3
     * repeated blocks removes: far-off share with r = 3 below half of that with r = 1, and the mean of 16 samples then
     * has a smaller relative MSE.
     */
    @Test
    void votingOverRepeatsRemovesFarOffSamples() {
        RepeatMeanExperiment.Config c = new RepeatMeanExperiment.Config(List.of(InputData.embedded()), List.of(1, 3), 10,
                1, 3, 600, 200, 16, 15, 5, 64, 1, 0);
        RepeatMeanExperiment.Result r = RepeatMeanExperiment.run(c, s -> { });
        Curve one = r.curves().get(0);
        Curve three = r.curves().get(1);
        System.out.printf("far-off share r=1 %.4f r=3 %.4f; relative MSE (16 samples) %.4g vs %.4g%n",
                one.outlierShare(), three.outlierShare(), one.relativeMse()[4], three.relativeMse()[4]);
        assertEquals(1, one.repeats());
        assertTrue(three.outlierShare() < 0.5 * one.outlierShare(), one.outlierShare() + " -> " + three.outlierShare());
        assertTrue(three.relativeMse()[4] < one.relativeMse()[4], one.relativeMse()[4] + " -> " + three.relativeMse()[4]);
    }
}
