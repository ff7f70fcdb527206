package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.GaussianMixture;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingFailedException;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.decoder.DecoderConfig;
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
        MixtureHead head = new MixtureHead(new MixtureHead.Config(1, 1, 1), DataType.FLOAT);
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
        assertTrue(e.getMessage().startsWith("y has extreme values: its range [") && e.getMessage().contains(
                "transform y (e.g. log) or remove the extreme rows before fitting"), e.getMessage());
        y[17] = 1.7e308;
        y[18] = -1.7e308;
        e = assertThrows(IllegalArgumentException.class, () -> m.fit(train.withY(y)));
        assertEquals("y has a range that overflows: max - min = Infinity (min -1.7E308, max 1.7E308); scale y down "
                + "(e.g. divide by 1e300) before fitting", e.getMessage());
    }

    /** MixtureHead.distribution took a rank-3 phi [2, 4, 8] and answered from the first rows of the flattened array. */
    @Test
    void aRankThreePhiIsRefusedNamingTheExpectedShape() {
        MixtureHead head = new MixtureHead(new MixtureHead.Config(8, 3, 1), DataType.FLOAT);
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
        DecoderHead head = new DecoderHead(DecoderConfig.small(UnnormalizedTokenizer.of(10, 1, 3), 8, 2), DataType.FLOAT);
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
