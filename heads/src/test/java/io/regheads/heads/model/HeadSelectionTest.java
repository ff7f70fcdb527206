package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HeadSelectionTest {

    /** y = +-2 with equal odds (plus x and a little noise): bimodal, which one Gaussian cannot describe. */
    private static Dataset bimodal(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = r.nextDouble();
            x[i][1] = r.nextDouble();
            y[i] = (r.nextBoolean() ? 2 : -2) + x[i][0] + 0.1 * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    private static ModelConfig base(TrainerConfig t) {
        return new ModelConfig(2, 32, new PointwiseSpec(false), null, t);
    }

    @Test
    void theMixtureWinsOnBimodalTargetsAndTheScoresAreTheHeldOutEvaluations() {
        List<HeadSpec> heads = List.of(new PointwiseSpec(false), new MixtureSpec(3));
        HeadSelection.Result r = HeadSelection.select(base(TrainerConfig.defaults().withMaxEpochs(30).withSeed(4)), heads,
                bimodal(500, 1), ScoringRule.NLL, false, ProgressListener.none());
        assertEquals(100, r.selectionRows()); // 20% of 500
        assertEquals(new MixtureSpec(3), r.chosen());
        HeadSelection.Candidate point = r.candidates().get(0);
        HeadSelection.Candidate mdn = r.candidates().get(1);
        assertEquals(point.held().nll(), point.score(), 0.0);
        assertEquals(mdn.held().nll(), mdn.score(), 0.0);
        // a Gaussian over two modes 4 apart pays about log(2.3) nats more than the two narrow modes: a wide gap
        assertTrue(point.score() > mdn.score() + 0.5, point.score() + " vs " + mdn.score());
        assertFalse(r.refitted());
        assertEquals(400, r.model().provenance().orElseThrow().trainingRows()
                + r.model().provenance().orElseThrow().validationRows());
        assertTrue(r.summary().contains("* MixtureSpec"), r.summary());
        // by CRPS too, and refitted on all 500 rows
        HeadSelection.Result c = HeadSelection.select(base(TrainerConfig.defaults().withMaxEpochs(30).withSeed(4)),
                heads, bimodal(500, 1), ScoringRule.CRPS, true, ProgressListener.none());
        assertEquals(c.candidates().get(1).held().crps(), c.candidates().get(1).score(), 0.0);
        assertTrue(c.refitted());
        assertEquals(500, c.model().provenance().orElseThrow().trainingRows()
                + c.model().provenance().orElseThrow().validationRows());
    }

    @Test
    void everyCandidateFailingIsOneClearError() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> HeadSelection.select(
                base(TrainerConfig.defaults().withMaxEpochs(3).withLearningRate(1e3)), List.of(new MixtureSpec(3)),
                bimodal(100, 2), ScoringRule.NLL, true, ProgressListener.none()));
        assertTrue(e.getMessage().startsWith("every candidate head failed: mdn: training diverged"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HeadSelection.select(base(TrainerConfig.defaults()),
                List.of(), bimodal(100, 2), ScoringRule.NLL, true, ProgressListener.none()));
    }
}
