package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingFailedException;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The failures a new user met, each run on purpose so that none comes back: training that goes wrong must say so,
 * inputs far outside the training range and extreme targets must give valid answers or clear refusals, wrong shapes
 * must be refused, and no call may run unbounded. (The command-line cases, CSV files and out-of-memory, are in the app
 * module's CliFaultInjectionTest.)
 */
class FaultInjectionTest {

    @TempDir
    Path dir;

    /** x ~ U(-1, 1)^4, y = 10 sin(2 x0) + 3 x1 x2 + N(0, 1): y around +-10. */
    static Dataset data(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][4];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 4; j++) {
                x[i][j] = 2 * r.nextDouble() - 1;
            }
            y[i] = 10 * Math.sin(2 * x[i][0]) + 3 * x[i][1] * x[i][2] + r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    static RegressionModel model(HeadSpec head, TrainerConfig trainer) {
        return RegressionModel.create(new ModelConfig(2, 32, head, null, trainer), 4);
    }

    static TrainerConfig quick() {
        return TrainerConfig.defaults().withBatchSize(64).withMaxEpochs(4).withLearningRate(3e-3).withSeed(3);
    }

    /**
     * Learning rate 10: the pointwise head "converged" with a validation loss of 4e8 on y in [0, 1], the histogram
     * collapsed to one value for every row and "converged", the MDN threw "stds must be > 0 and finite, got 0.0".
     */
    @Test
    void learningRateTenIsReportedAsFailedForPointwiseHistogramAndMixture() {
        Dataset train = data(400, 1);
        for (HeadSpec head : List.of(new PointwiseSpec(false), new HistogramSpec(64, false),
                new MixtureSpec(5))) {
            TrainingResult r = model(head, quick().withLearningRate(10)).fit(train);
            assertTrue(r.failed(), head.name() + ": " + r.stopReason() + " " + r.message());
            assertTrue(r.message().startsWith("training diverged: ") && r.message().contains(" at epoch 1, step ")
                    && r.message().contains("try a lower learning rate (now 10.0)"), r.message());
            TrainingFailedException e = assertThrows(TrainingFailedException.class, r::requireConverged);
            assertEquals(r.message(), e.getMessage());
        }
    }

    /**
     * A histogram whose encoder died (every ReLU unit off: the prediction no longer depends on x) trained quietly to
     * its epoch cap and was reported as converged, predicting one value for every row.
     */
    @Test
    void aCollapsedHistogramIsReportedAsFailed() {
        RegressionModel m = model(new HistogramSpec(64, false), quick().withLearningRate(1e-6).withMaxEpochs(1));
        Param first = m.encoder().params().get(0); // first layer weight: 0; its bias -1 keeps every unit off
        first.value().assign(0);
        m.encoder().params().get(1).value().assign(-1);
        TrainingResult r = m.fit(data(400, 2));
        assertEquals(TrainingResult.StopReason.FAILED, r.stopReason(), r.message());
        assertTrue(r.message().startsWith("training failed: every one of the 40 rows gets the same predictive "
                + "distribution"), r.message());
        assertTrue(r.message().contains("the prediction no longer depends on x"), r.message());
    }

    /**
     * An MDN trained on x in [-1, 1] failed the whole batch for one row with x0 = 1000 ("sigmas[0][0] must be > 0
     * and finite, got 0.0": exp of a very negative scale underflowed).
     */
    @Test
    void mixturePredictsRowsFarOutsideTheTrainingRange() {
        RegressionModel m = model(new MixtureSpec(5), quick());
        assertTrue(!m.fit(data(400, 3)).failed());
        double[][] x = {{0.2, 0.1, -0.3, 0.5}, {1000, 0, 0, 0}, {1e5, 0, 0, 0}, {-1e5, 1e5, 0, 0}};
        PredictiveDistribution d = m.predict(x);
        double[] lo = d.inverseCumulativeProbability(0.05);
        double[] hi = d.inverseCumulativeProbability(0.95);
        double[] logDensity = d.logDensity(new double[] {1, 1, 1, 1});
        for (int i = 0; i < x.length; i++) {
            assertTrue(Double.isFinite(lo[i]) && Double.isFinite(hi[i]) && lo[i] <= hi[i], "row " + i);
            assertTrue(logDensity[i] > Double.NEGATIVE_INFINITY && logDensity[i] < Double.POSITIVE_INFINITY,
                    "row " + i + ": log density " + logDensity[i]);
        }
        // the scale the loss sees can no longer be 0 either: a pre-activation scale of -1e4 gives the floor
        MixtureHead head = new MixtureSpec(1).build(1, 1, DataType.FLOAT);
        head.params().get(0).value().assign(-1e4); // weight [1, 3]: all three outputs -1e4 * phi
        head.params().get(1).value().assign(0);
        GaussianMixture out = (GaussianMixture) head.forward(Nd4j.ones(DataType.FLOAT, 2, 1), null, Arena.none())
                .output();
        assertEquals((float) MixtureHead.SIGMA_FLOOR, out.stds().getFloat(0, 0), 0f);
        double nll = Losses.ce().evaluate(out, new Targets.Values(new double[] {-1e4, -1e4})).value();
        assertTrue(Double.isFinite(nll), "NLL " + nll);
    }

    /**
     * A test row whose feature lies 24 530 training standard deviations out crashed MDN prediction, gave the
     * histogram an NLL of +Infinity (its bin's probability underflowed to 0) and the pointwise head a finite guess.
     */
    @Test
    void aRowTensOfThousandsOfStandardDeviationsOutGetsFiniteDensitiesFromEveryLinearHead() {
        Dataset train = data(400, 4);
        double sd = 0;
        for (int i = 0; i < train.rows(); i++) {
            sd += train.x(i, 0) * train.x(i, 0) / train.rows(); // mean about 0
        }
        double far = 24_530 * Math.sqrt(sd);
        double[][] x = {{far, 0.1, 0.2, -0.1}, {0.3, 0.1, 0.2, -0.1}};
        double[] y = {-5, 2};
        for (HeadSpec head : List.of(new PointwiseSpec(false), new HistogramSpec(64, false),
                new MixtureSpec(5))) {
            RegressionModel m = model(head, quick());
            assertTrue(!m.fit(train).failed(), head.name());
            double[] logDensity = m.predict(x).logDensity(y);
            for (int i = 0; i < 2; i++) {
                assertTrue(logDensity[i] > Double.NEGATIVE_INFINITY && logDensity[i] < Double.POSITIVE_INFINITY,
                        head.name() + " row " + i + ": log density " + logDensity[i]);
            }
            // and the model says which row and input lie out (nothing before)
            io.regheads.heads.model.OutOfRangeReport report = m.outOfRange(x, 10);
            assertEquals(1, report.entries().size(), report.message(null, 5));
            io.regheads.heads.model.OutOfRangeReport.Entry e = report.entries().get(0);
            assertEquals(0, e.row());
            assertEquals(0, e.column());
            assertEquals(24_530, e.deviations(), 24_530 * 0.01, "about 24 530 sd (the sd here is about the mean)");
            assertTrue(report.message(new String[] {"a", "b", "c", "d"}, 5).startsWith("1 of 2 rows have inputs more "
                    + "than 10 training standard deviations from the training mean (predictions there extrapolate): "
                    + "row 0, a = "), report.message(null, 5));
        }
    }

    /**
     * One y of 1e300 among ordinary values: fit succeeded, min-max scaling squashed every other target to 0, nothing
     * warned. A range that overflows (+-1.7e308) was reported as "must not be constant".
     */
    @Test
    void extremeAndOverflowingTargetsAreRefusedAtFitTime() {
        Dataset train = data(200, 5);
        double[] y = train.y();
        y[17] = 1e300;
        RegressionModel m = model(new MixtureSpec(5), quick());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.fit(train.withY(y)));
        assertTrue(e.getMessage().startsWith("y has a range too wide for min-max scaling: max - min = 1.0E300")
                && e.getMessage().endsWith("or remove the extreme rows"), e.getMessage());
        y[17] = 1e100; // within the range min-max scaling carries, but it squashes every other target
        e = assertThrows(IllegalArgumentException.class, () -> m.fit(train.withY(y)));
        assertTrue(e.getMessage().startsWith("y has extreme values: its range [") && e.getMessage().endsWith(
                "fit with a target transform (LOG for positive right-skewed targets, ROBUST: bounds 3 IQR beyond "
                        + "the quartiles with the extremes clipped, otherwise; ModelConfig.withTargetTransform, or --target-transform "
                        + "on the command line), or remove the extreme rows"), e.getMessage());
        y[17] = 1.7e308;
        y[18] = -1.7e308;
        e = assertThrows(IllegalArgumentException.class, () -> m.fit(train.withY(y)));
        assertEquals("y has a range that overflows: max - min = Infinity (min -1.7E308, max 1.7E308); scale y down "
                + "(e.g. divide by 1e300) before fitting", e.getMessage());
    }

    /**
     * The transforms the refusal above names accept the same data: ROBUST clips the one extreme target to the upper
     * fence, Q3 + 3 IQR (and says so), and predicts the ordinary rows nearly as well as a model that never saw the
     * extreme value (measured: RMSE 2.04 vs 1.46, noise sd 1, y sd 7.3), where min-max scaling put them all at 0; LOG
     * fits log1p(y - min) and warns of the heavy tail that remains (for targets symmetric around 0 like these it is
     * the wrong choice: the ordinary values share 0.5% of the log range).
     */
    @Test
    void extremeTargetsAreCarriedByTheRobustAndLogTransforms() {
        Dataset train = data(200, 5);
        Dataset test = data(100, 55);
        double[] y = train.y();
        y[17] = 1e300;
        TrainerConfig t = quick().withMaxEpochs(100).withPatience(20);
        RegressionModel clean = model(new MixtureSpec(5), t);
        clean.fit(train.withY(withoutRow17(train.y(), y)));
        double cleanRmse = rmse(clean.predictPoint(test.x()), test.y());
        for (io.regheads.core.data.TargetTransform tt : List.of(io.regheads.core.data.TargetTransform.ROBUST,
                io.regheads.core.data.TargetTransform.LOG)) {
            RegressionModel m = RegressionModel.create(new ModelConfig(2, 32, new MixtureSpec(5), null, t, true, tt), 4);
            List<String> warnings = new java.util.ArrayList<>();
            TrainingResult r = m.fit(train.withY(y), new io.regheads.core.train.ProgressListener() {
                @Override
                public void onWarning(String message) {
                    warnings.add(message);
                }
            });
            assertTrue(!r.failed(), tt + ": " + r.message());
            if (tt == io.regheads.core.data.TargetTransform.ROBUST) {
                assertTrue(warnings.get(0).startsWith("y: 1 of 200 targets lie outside the ROBUST bounds ["),
                        warnings.toString());
            } else {
                assertTrue(warnings.get(0).startsWith("log1p(y - min) is heavy-tailed: "), warnings.toString());
            }
            if (tt == io.regheads.core.data.TargetTransform.ROBUST) {
                double rm = rmse(m.predictPoint(test.x()), test.y());
                // y has sd 7.3 and noise 1: a useless model has RMSE about 7.3
                assertTrue(rm < 1.5 * cleanRmse + 0.5 && rm < 3, "RMSE " + rm + " vs " + cleanRmse + " without 1e300");
            }
        }
    }

    /** The same row 17 with an ordinary value (the mean of the others) in place of 1e300. */
    private static double[] withoutRow17(double[] original, double[] changed) {
        double[] y = original.clone();
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += i == 17 ? 0 : changed[i];
        }
        y[17] = s / (y.length - 1);
        return y;
    }

    private static double rmse(double[] p, double[] y) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += (p[i] - y[i]) * (p[i] - y[i]);
        }
        return Math.sqrt(s / y.length);
    }

    /** MixtureHead.distribution took a rank-3 phi [2, 4, 8] and answered from the first rows of the flattened array. */
    @Test
    void aRankThreePhiIsRefusedNamingTheExpectedShape() {
        MixtureHead head = new MixtureSpec(3).build(8, 1, DataType.FLOAT);
        INDArray phi = Nd4j.rand(DataType.FLOAT, 2, 4, 8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> head.distribution(phi));
        assertEquals("phi must have shape [B, D] = [B, 8] with B >= 1, got [2, 4, 8]", e.getMessage());
    }

    /**
     * The unnormalized decoder's mean() took 86 s for one row and returned -4.0e7 for y in [-1.2, 1.6]: now a bounded
     * tree expansion over prefix value ranges (at most maxLeaves prefixes per row and level) that reports its error
     * bound; the head's point prediction (AUTO) is that mean where it is certified, else the median.
     */
    @Test
    void theUnnormalizedDecoderMeanIsBoundedAndReportsItsBound() {
        DecoderHead head = DecoderHead.small(UnnormalizedTokenizer.of(10, 1, 3), 8, 2, DataType.FLOAT);
        DecoderDistribution d = head.distribution(Nd4j.rand(DataType.FLOAT, 1, 8), new DecoderDistribution.Options(8, 1e-6, 512));
        DecoderDistribution.MeanEstimate m = d.exactMean(1e-6);
        assertTrue(Double.isFinite(m.mean()[0]) && Double.isFinite(m.errorBound()[0]), m.mean()[0] + " +- " + m.errorBound()[0]);
        assertTrue(Double.isFinite(d.median()[0]));
        assertEquals(PointEstimate.AUTO, UnnormalizedDecoderSpec.small(10, 1, 3).pointEstimate());
        double auto = d.point(io.regheads.core.head.Decoding.of(PointEstimate.AUTO))[0];
        assertTrue(auto == d.mean()[0] || auto == d.median()[0], "auto " + auto);
    }

    /** RegressionModel.load(directory) threw UncheckedIOException instead of the documented IllegalArgumentException. */
    @Test
    void loadingADirectoryIsAnArgumentError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegressionModel.load(dir));
        assertTrue(e.getMessage().endsWith(" is a directory; give the path of a file written by save"), e.getMessage());
    }

    /** Saved model bytes differed between identical fits: the metadata began with a date comment. */
    @Test
    void identicalFitsSaveIdenticalFiles() throws java.io.IOException {
        Dataset train = data(200, 7);
        Path a = dir.resolve("a.rgh");
        Path b = dir.resolve("b.rgh");
        RegressionModel first = model(new PointwiseSpec(false), quick().withMaxEpochs(2));
        first.fit(train);
        first.save(a);
        RegressionModel second = model(new PointwiseSpec(false), quick().withMaxEpochs(2));
        second.fit(train);
        second.save(b);
        assertTrue(java.util.Arrays.equals(java.nio.file.Files.readAllBytes(a), java.nio.file.Files.readAllBytes(b)),
                "identical fits, identical files");
        String metadata = io.regheads.core.io.Checkpoint.read(a).metadata();
        assertTrue(metadata.lines().noneMatch(l -> l.startsWith("#")), "no date comment in:\n" + metadata);
        // provenance instead of a date: what trained it, on how many rows, how it stopped, the final losses
        io.regheads.heads.model.ModelProvenance p = RegressionModel.load(a).provenance().orElseThrow();
        assertEquals(first.provenance().orElseThrow(), p);
        assertEquals(180L, p.trainingRows());
        assertEquals(20L, p.validationRows());
        assertEquals(2, p.epochs());
        assertEquals("MAX_EPOCHS", p.stopReason());
        assertEquals("0.1.0-SNAPSHOT", p.library());
        assertEquals(new PointwiseSpec(false).toString(), p.head());
        assertTrue(Double.isFinite(p.trainLoss()) && Double.isFinite(p.validationLoss()), p.toString());
    }

    /**
     * The guide's own-encoder example stopped at its epoch cap with a 90% interval far too wide and nothing said so:
     * a run cut off while the validation loss still falls now says that more epochs may help.
     */
    @Test
    void aRunCutOffWhileStillImprovingSaysSo() {
        Dataset train = data(400, 6);
        TrainableModel trainable = model(new MixtureSpec(5), quick()).asTrainable();
        Dataset scaled = train.withY(java.util.Arrays.stream(train.y()).map(v -> v / 40).toArray());
        TrainingResult r = new Trainer(quick().withLearningRate(1e-4).withMaxEpochs(2)).fit(trainable, scaled);
        assertTrue(r.stillImproving(), r.message());
        assertTrue(r.message().contains("it was still falling at the epoch cap: more epochs (maxEpochs)"), r.message());
    }
}
