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
            double width = 0;
            for (int i = 0; i < r.y().length; i++) {
                width += r.upper()[i] - r.lower()[i];
                ss += (r.point()[i] - r.y()[i]) * (r.point()[i] - r.y()[i]);
                if (r.lower()[i] <= r.y()[i] && r.y()[i] <= r.upper()[i]) {
                    inside++;
                }
                assertTrue(r.lower()[i] <= r.upper()[i], p.name());
            }
            assertEquals(Math.sqrt(ss / r.y().length), r.rmse(), 1e-12, p.name());
            assertEquals(inside / (double) r.y().length, r.coverage90(), 1e-12, p.name());
            assertEquals(width / r.y().length, r.width90(), 1e-12, p.name());
            int[] h = r.pitHistogram();
            int total = 0;
            for (int c : h) {
                total += c;
            }
            assertEquals(8, total);
            assertTrue(Double.isFinite(r.crps()) && r.crps() > 0, p.name());
            // the plain NLL of y (nothing clipped: a head without tails may give +Infinity) on the test and on the
            // validation rows, recomputed from the model's densities
            double[][] x = finiteTestRows(in, 2);
            assertEquals(nll(r.model().predict(x).logDensity(r.y())), r.nll(), 1e-12, p.name());
            io.regheads.core.data.Dataset v = new io.regheads.core.train.Trainer(t).holdout(
                    in.folds().split(in.data(), 2).train()).validation();
            assertEquals(7, v.rows()); // 10% of 72
            assertEquals(nll(r.model().predict(v).logDensity(v.y())), r.validationNll(), 1e-12, p.name());
            assertEquals(p.name().equals("unnormalized-decoder") ? "auto" : "mean", r.pointName(), p.name());
        }
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

    /**
     * Special targets through a run: the metrics describe the finite test rows only, and the NLL of the special rows
     * is the mean of -log P(NaN), -log P(+Inf) or -log P(-Inf) that the model's distribution reports for each of
     * them (recomputed here from probabilityNaN() and the infinities' probabilities).
     */
    @Test
    void specialTargetsAreScoredByTheReportedProbabilities() throws IOException {
        InputData in = InputData.csv(CompareCommandTest.specialCsv(tmp, 60), null, null, 3);
        HeadCatalog.Preset p = HeadCatalog.standard().select("unnormalized-decoder").get(0);
        int fold = 0;
        io.regheads.core.data.Folds.Split split = in.folds().split(in.data(), fold);
        double[] ty = split.test().y();
        java.util.List<Integer> special = new java.util.ArrayList<>();
        for (int i = 0; i < ty.length; i++) {
            if (!Double.isFinite(ty[i])) {
                special.add(i);
            }
        }
        while (special.isEmpty()) { // a fold with special test rows
            split = in.folds().split(in.data(), ++fold);
            ty = split.test().y();
            for (int i = 0; i < ty.length; i++) {
                if (!Double.isFinite(ty[i])) {
                    special.add(i);
                }
            }
        }
        HeadRun.Result r = HeadRun.run(p, null, TrainerConfig.defaults().withMaxEpochs(3), in, fold,
                ProgressListener.none());
        assertTrue(r.model().config().head().representsNonFinite(), "trained with special tokens");
        assertEquals(special.size(), r.nonFinite());
        assertEquals(ty.length - special.size(), r.y().length, "metrics on the finite rows");
        for (double y : r.y()) {
            assertTrue(Double.isFinite(y));
        }
        double[][] x = new double[special.size()][];
        for (int i = 0; i < x.length; i++) {
            x[i] = split.test().row(special.get(i));
        }
        io.regheads.core.dist.SpecialValues d = (io.regheads.core.dist.SpecialValues) r.model().predict(x);
        double[] nan = d.probabilityNaN();
        double[] pos = d.probabilityPositiveInfinity();
        double[] neg = d.probabilityNegativeInfinity();
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            double y = ty[special.get(i)];
            double prob = Double.isNaN(y) ? nan[i] : y > 0 ? pos[i] : neg[i];
            assertTrue(prob > 0 && prob < 1, "P of an outcome in (0, 1): " + prob);
            sum -= Math.log(prob);
        }
        assertEquals(sum / x.length, r.nllNonFinite(), 1e-9);
    }

    /**
     * --point and the sampling options reach the model: a decoder's points are the model's predictPoint under the
     * same Decoding (temperature, top-k, top-p, samples, the run's seed), which the heads module checks against
     * brute force; a head without tokens samples its distribution as is and says so in a note.
     */
    @Test
    void decodingOptionsReachThePoints() throws IOException {
        InputData in = InputData.csv(CliTestSupport.linearCsv(tmp, "lin.csv", 60), null, null, 3);
        TrainerConfig t = TrainerConfig.defaults().withMaxEpochs(2).withSeed(5);
        DecodingOptions o = new DecodingOptions();
        o.point = "sample-mean";
        o.temperature = 0.5;
        o.topK = 2;
        o.samples = 32;
        o.check(false);
        io.regheads.core.head.Decoding expected = io.regheads.core.head.Decoding.of(
                io.regheads.core.head.PointEstimate.SAMPLE_MEAN).withSampling(0.5, 2, 1.0).withSamples(32, 5);
        HeadRun.Result dec = HeadRun.run(HeadCatalog.standard().select("decoder").get(0), null,
                HeadRun.Setup.of(t, io.regheads.core.data.TargetTransform.NONE), in, 0, ProgressListener.none(), o);
        double[][] x = finiteTestRows(in, 0);
        org.junit.jupiter.api.Assertions.assertArrayEquals(dec.model().predictPoint(x, expected), dec.point(), 0.0);
        assertEquals("sample-mean", dec.pointName());
        assertEquals("", dec.pointNote());
        double[] plain = dec.model().predictPoint(x, expected.withSampling(1, 0, 1));
        assertTrue(!java.util.Arrays.equals(plain, dec.point()), "the filters change the decoder's points");

        HeadRun.Result mdn = HeadRun.run(HeadCatalog.standard().select("mdn").get(0), null,
                HeadRun.Setup.of(t, io.regheads.core.data.TargetTransform.NONE), in, 0, ProgressListener.none(), o);
        org.junit.jupiter.api.Assertions.assertArrayEquals(mdn.model().predictPoint(x, expected.withSampling(1, 0, 1)),
                mdn.point(), 0.0);
        assertTrue(mdn.pointNote().contains("mdn generates none"), mdn.pointNote());
    }

    /** Mean of -logDensity, written out. */
    private static double nll(double[] logDensity) {
        double s = 0;
        for (double l : logDensity) {
            s -= l;
        }
        return s / logDensity.length;
    }

    private static double[][] finiteTestRows(InputData in, int fold) {
        io.regheads.core.data.Dataset test = in.folds().split(in.data(), fold).test();
        return test.x();
    }
}
