package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.heads.decoder.DecoderHead;
import io.regheads.heads.histogram.HistogramHead;
import java.util.List;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The trained estimators of {@link RiskExperiment}: with few bins and many samples both heads reach the maximum
 * likelihood fit, the empirical histogram (the cross-entropy's minimum on a constant input), so training on the
 * weighted distinct leaves is the cross-entropy over all samples.
 */
class RiskExperimentTest {

    @Test
    void trainedHeadsReachTheEmpiricalHistogramWithFewBins() {
        double[] y = RiskExperiment.sample(4096, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
        int k = 3;
        double[] hist = RiskExperiment.histogram(y, k);
        HistogramHead riemann = RiskExperiment.trainRiemann(y, k, 400, 2);
        DecoderHead decoder = RiskExperiment.trainDecoder(y, k, 400, 3);
        double[] pr = riemann.distribution(Nd4j.ones(DataType.FLOAT, 1, 1)).probabilities()[0];
        double[] pd = decoder.distribution(Nd4j.ones(DataType.FLOAT, 1, 1)).firstTokens(k).probabilities()[0];
        for (int j = 0; j < hist.length; j++) {
            // measured: within 2e-4 (Riemann) and 1e-3 (decoder) after 400 steps; the bound is 5x that
            assertEquals(hist[j], pr[j], 1e-3, "riemann bin " + j);
            assertEquals(hist[j], pd[j], 5e-3, "decoder bin " + j);
        }
    }

    /** The experiment's table: every estimator at every trained K, the k-of-K curve up to the largest K. */
    @Test
    void runListsEveryEstimator() {
        RiskExperiment.Config c = new RiskExperiment.Config(List.of(512), 3, List.of(1, 3), 2, 50, 0);
        RiskExperiment.Result r = RiskExperiment.run(c, s -> { });
        assertEquals(3 * 2 + 2 * 2 + 3, r.points().size());
        for (RiskExperiment.Point p : r.points()) {
            assertTrue(p.value() > 0 && Double.isFinite(p.value()), p.toString());
        }
        // the decoder read at k = 3 of K = 3 is the decoder of K = 3 itself
        double full = r.points().stream().filter(p -> p.estimator().equals("decoder") && p.k() == 3).findFirst()
                .orElseThrow().value();
        double prefix = r.points().stream().filter(p -> p.estimator().equals("decoder k of 3") && p.k() == 3)
                .findFirst().orElseThrow().value();
        assertEquals(full, prefix, 1e-12);
    }
}
