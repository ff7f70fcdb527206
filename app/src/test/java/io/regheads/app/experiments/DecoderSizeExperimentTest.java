package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.DecoderSizeExperiment.Point;
import io.regheads.app.experiments.DecoderSizeExperiment.Size;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecoderSizeExperimentTest {

    /**
     * Parameters of the decoder head, counted by hand from its layers: input projection D x d + d, token and position
     * embeddings V d + T d, per block two layer norms (4 d), attention qkv 3 d^2 + 3 d and output d^2 + d, MLP d ff + ff
     * + ff d + d; final layer norm 2 d; output d V + V. Attention heads split d and add nothing.
     */
    static long headParams(int inputWidth, Size s) {
        long d = s.units();
        long ff = 4 * d;
        long v = 10;
        long t = 4;
        long block = 4 * d + 3 * d * d + 3 * d + d * d + d + d * ff + ff + ff * d + d;
        return inputWidth * d + d + v * d + t * d + s.layers() * block + 2 * d + d * v + v;
    }

    /**
     * Marginal NLL of the test y01 under a 20-bin histogram of the training y01 (add-one smoothing): what a model that
     * ignores x can reach, roughly.
     */
    static double marginalNll(Dataset train, Dataset test) {
        double lo = java.util.Arrays.stream(train.y()).min().orElseThrow();
        double hi = java.util.Arrays.stream(train.y()).max().orElseThrow();
        int bins = 20;
        double[] count = new double[bins];
        for (double y : train.y()) {
            count[Math.min(bins - 1, (int) ((y - lo) / (hi - lo) * bins))]++;
        }
        double nll = 0;
        for (double y : test.y()) {
            double u = Math.min(Math.max((y - lo) / (hi - lo), 0), 1 - 1e-7);
            double p = (count[(int) (u * bins)] + 1) / (train.rows() + bins);
            nll -= Math.log(p * bins) / test.rows();
        }
        return nll;
    }

    /**
     * Three small sizes around (1, 1, 32) on airfoil fold 0: each trains the size it names (head parameters equal the
     * hand count) and beats the marginal NLL by at least 0.2 nats (a head ignoring x does not).
     */
    @Test
    void everySizeTrainsItsOwnShapeAndUsesX() {
        InputData airfoil = InputData.embedded();
        DecoderSizeExperiment.Config c = new DecoderSizeExperiment.Config(List.of(airfoil), new int[] {0},
                new Size(1, 1, 32), List.of(2), List.of(2), List.of(64), 8, 64, 1, 0);
        assertEquals(List.of(new Size(1, 1, 32), new Size(2, 1, 32), new Size(1, 2, 32), new Size(1, 1, 64)), c.sizes());
        DecoderSizeExperiment.Result r = DecoderSizeExperiment.run(c, s -> { });
        Folds.Split split = airfoil.folds().split(airfoil.data(), 0);
        double marginal = marginalNll(split.train(), split.test());
        for (Point p : r.points()) {
            System.out.printf("%s: %d parameters, NLL %.4f (marginal %.4f)%n", p.size(), p.headParams(), p.nll(), marginal);
            assertEquals(headParams(64, p.size()), p.headParams(), p.size().toString());
            assertTrue(p.nll() < marginal - 0.2, p.size() + " NLL " + p.nll() + " vs marginal " + marginal);
        }
    }

    /**
     * Two runs of one size: two seeds give two different trainings; the point's figure is their mean and its sd the
     * sample standard deviation of the two (|a - b| / sqrt 2).
     */
    @Test
    void runsAreSeedsAndThePointIsTheirMean() {
        InputData airfoil = InputData.embedded();
        Size one = new Size(1, 1, 32);
        DecoderSizeExperiment.Config c = new DecoderSizeExperiment.Config(List.of(airfoil), new int[] {0}, one,
                List.of(1), List.of(1), List.of(32), 3, 32, 2, 7);
        assertEquals(List.of(one), c.sizes());
        Point p = DecoderSizeExperiment.run(c, s -> { }).points().get(0);
        assertEquals(2, p.perRun().length);
        double a = p.perRun()[0];
        double b = p.perRun()[1];
        assertTrue(a != b, "seeds 7 and 8 trained the same model: " + a);
        assertEquals((a + b) / 2, p.nll(), 1e-12);
        assertEquals(Math.abs(a - b) / Math.sqrt(2), p.sd(), 1e-12);
    }
}
