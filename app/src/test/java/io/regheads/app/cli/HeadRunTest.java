package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HeadRunTest {
    @TempDir
    Path tmp;

    /** Recomputes RMSE, coverage and the PIT histogram from the returned per-row values with naive loops. */
    @Test
    void metricsAgreeWithNaiveRecomputation() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "lin.csv", 80);
        InputData in = InputData.csv(csv, null, null, 3);
        TrainerConfig t = TrainerConfig.defaults().withMaxEpochs(3);
        for (HeadCatalog.Preset p : HeadCatalog.standard().select(null)) {
            HeadRun.Result r = HeadRun.run(p, null, t, in, 2, ProgressListener.none());
            assertEquals(8, r.testRows());
            assertEquals(72, r.trainRows());
            double ss = 0;
            int inside = 0;
            for (int i = 0; i < r.y().length; i++) {
                ss += (r.point()[i] - r.y()[i]) * (r.point()[i] - r.y()[i]);
                if (r.lower()[i] <= r.y()[i] && r.y()[i] <= r.upper()[i]) {
                    inside++;
                }
                assertTrue(r.lower()[i] <= r.upper()[i], p.name());
            }
            assertEquals(Math.sqrt(ss / r.y().length), r.rmse(), 1e-12, p.name());
            assertEquals(inside / (double) r.y().length, r.coverage90(), 1e-12, p.name());
            int[] h = r.pitHistogram();
            int total = 0;
            for (int c : h) {
                total += c;
            }
            assertEquals(8, total);
            assertTrue(Double.isFinite(r.nll01()) && Double.isFinite(r.crps()) && r.crps() > 0, p.name());
            assertEquals(p.name().equals("unnormalized-decoder") ? "median" : "mean", r.pointName(), p.name());
        }
    }

    /**
     * Expected values by Python's statistics.NormalDist with the same midpoint rule (K = 100): N(0, 1) at 0 gives
     * 0.23376265073242286, N(1, 2^2) at 0.3 gives 0.564229659939641; the closed forms are 0.233695 and 0.564145.
     */
    @Test
    void quantileGridCrpsOfGaussians() {
        io.regheads.heads.mixture.MixtureDistribution d = io.regheads.heads.mixture.MixtureDistribution.gaussian(
                new double[] {0, 1}, new double[] {1, 2});
        double both = HeadRun.crpsQuantileGrid(d, new double[] {0, 0.3}, 100);
        assertEquals((0.23376265073242286 + 0.564229659939641) / 2, both, 1e-7);
        assertEquals((0.233695 + 0.564145) / 2, both, 1e-4); // close to the exact CRPS
        assertThrows(IllegalArgumentException.class, () -> HeadRun.crpsQuantileGrid(d, new double[] {0}, 100));
        assertThrows(IllegalArgumentException.class, () -> HeadRun.crpsQuantileGrid(d, new double[] {0, 0}, 0));
    }

    /** The test rows of fold k are the rows the fold assignment gives k, whatever the head. */
    @Test
    void testRowsAreTheFoldsRows() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "lin.csv", 30);
        InputData in = InputData.csv(csv, null, null, 11);
        HeadRun.Result r = HeadRun.run(HeadCatalog.standard().select("pointwise").get(0), null,
                TrainerConfig.defaults().withMaxEpochs(1), in, 4, ProgressListener.none());
        int[] rows = in.folds().testRows(4);
        double[] allY = CsvLoader.load(csv).y();
        assertEquals(rows.length, r.y().length);
        for (int i = 0; i < rows.length; i++) {
            assertEquals(allY[rows[i]], r.y()[i], 0.0);
        }
    }

    @Test
    void everyCurrentHeadTakesTheRequestedLoss() {
        // CrossEntropy javadoc: on a Scalar output CE is the squared error; NTL-WAS is |yHat - y| (NumberTokenLoss)
        for (String loss : new String[] {"ce", "ce+0.3*ntl-was", "ntl-was-cdf", "gce:0.5"}) {
            for (HeadSpec spec : new HeadSpec[] {new PointwiseSpec(false), new HistogramSpec(20, false),
                    new MixtureSpec(3)}) {
                HeadRun.LossChoice c = HeadRun.chooseLoss(spec, loss, 3);
                assertEquals(loss, c.loss(), spec.name());
                assertEquals("", c.note(), spec.name());
            }
        }
        assertEquals("ce", HeadRun.chooseLoss(new MixtureSpec(3), null, 3).loss());
        assertEquals("mse", HeadRun.chooseLoss(new PointwiseSpec(false), " ", 3).loss());
    }

    @Test
    void badLossExpressionIsAnErrorNotAFallback() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HeadRun.chooseLoss(new MixtureSpec(3), "ce+0.3*ntl-wass", 3));
        assertTrue(e.getMessage().startsWith("--loss: loss term 'ntl-wass' in 'ce+0.3*ntl-wass' is unknown"), e.getMessage());
    }
}
