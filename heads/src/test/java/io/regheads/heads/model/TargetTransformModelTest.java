package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.dist.Expm1Transformed;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.io.Checkpoint;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The target transforms through the model: fit, predict in units of y, save and load; and the input range report. */
class TargetTransformModelTest {
    @TempDir
    Path dir;

    /** y = 5 exp(1.5 x0 + 0.3 N(0, 1)): positive, right-skewed, spanning about two orders of magnitude. */
    static Dataset logNormal(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            x[i][1] = 2 * r.nextDouble() - 1;
            y[i] = 5 * Math.exp(1.5 * x[i][0] + 0.3 * r.nextGaussian());
        }
        return Dataset.of(x, y);
    }

    private static ModelConfig config(TargetTransform t) {
        return new ModelConfig(2, 32, new MixtureSpec(3), null,
                TrainerConfig.defaults().withMaxEpochs(60).withPatience(10).withLearningRate(3e-3).withSeed(3), true, t);
    }

    @Test
    void logTransformPredictsTheConditionalQuantilesOfALogNormalTarget() {
        Dataset train = logNormal(1500, 1);
        RegressionModel m = RegressionModel.create(config(TargetTransform.LOG), 2);
        TrainingResult r = m.fit(train);
        assertTrue(!r.failed(), r.message());
        double[][] x = {{-0.5, 0}, {0, 0}, {0.5, 0.3}};
        PredictiveDistribution d = m.predict(x);
        assertTrue(d instanceof Expm1Transformed, d.getClass().getName());
        double[] median = d.median();
        double[] q95 = d.inverseCumulativeProbability(0.95);
        for (int i = 0; i < x.length; i++) {
            // true conditional median 5 exp(1.5 x0) and 0.95 quantile 5 exp(1.5 x0 + 0.3 * 1.645)
            double trueMedian = 5 * Math.exp(1.5 * x[i][0]);
            assertEquals(trueMedian, median[i], 0.15 * trueMedian, "median at row " + i);
            assertEquals(trueMedian * Math.exp(0.3 * 1.6449), q95[i], 0.2 * trueMedian * Math.exp(0.49), "q95 row " + i);
        }
        // the median point is the quantile mapped exactly; the mean and mode are y's own, not expm1 of the head's
        assertArrayEquals(median, m.predictPoint(x, PointEstimate.MEDIAN), 1e-9);
        assertEquals(PointEstimate.MEDIAN, m.pointEstimate()); // the default point under LOG
        assertArrayEquals(median, m.predictPoint(x), 1e-9);
        assertArrayEquals(d.mean(), m.predictPoint(x, PointEstimate.MEAN), 0);
        double[] mean = d.mean();
        for (int i = 0; i < x.length; i++) {
            // log-normal: mean = median exp(sigma^2 / 2) > median
            assertTrue(mean[i] > median[i], "mean above the median at row " + i);
        }
    }

    @Test
    void transformsArePersistedAndPredictIdenticallyAfterLoading() {
        Dataset train = logNormal(400, 2);
        double[][] x = {{0.1, -0.2}, {0.9, 0.9}};
        for (TargetTransform t : TargetTransform.values()) {
            RegressionModel m = RegressionModel.create(config(t).withTrainer(TrainerConfig.defaults().withMaxEpochs(3)
                    .withSeed(1)), 2);
            m.fit(train);
            Path file = dir.resolve(t + ".rgh");
            m.save(file);
            RegressionModel back = RegressionModel.load(file);
            assertEquals(t, back.config().targetTransform());
            assertEquals(m.targetScaler().toString(), back.targetScaler().toString());
            double[] y = {3, 20};
            assertArrayEquals(m.predict(x).logDensity(y), back.predict(x).logDensity(y), 0, t.name());
            assertArrayEquals(m.predict(x).inverseCumulativeProbability(0.9),
                    back.predict(x).inverseCumulativeProbability(0.9), 0, t.name());
            assertArrayEquals(m.predictPoint(x), back.predictPoint(x), 0, t.name());
            String meta = Checkpoint.read(file).metadata();
            assertTrue(meta.contains("target.transform=" + t + "\n") && meta.contains("target.version=1\n"), meta);
            assertEquals(t == TargetTransform.LOG, meta.contains("target.shift="), meta);
        }
    }

    @Test
    void robustBoundsClipTheTrainingTargets() {
        Dataset train = logNormal(400, 3);
        double[] y = train.y();
        y[5] = 1e6;
        RegressionModel m = RegressionModel.create(config(TargetTransform.ROBUST).withTrainer(
                TrainerConfig.defaults().withMaxEpochs(2).withSeed(1)), 2);
        m.fit(train.withY(y));
        // the bounds by hand: quartiles by interpolation between order statistics, Q3 + 3 IQR below the max
        double[] s = y.clone();
        java.util.Arrays.sort(s);
        double q1 = s[99] + 0.75 * (s[100] - s[99]); // (n - 1) 0.25 = 99.75
        double q3 = s[299] + 0.25 * (s[300] - s[299]); // (n - 1) 0.75 = 299.25
        assertEquals(s[0], m.yScaler().min(), 0); // Q1 - 3 IQR lies below the smallest (positive) target
        assertEquals(q3 + 3 * (q3 - q1), m.yScaler().max(), 1e-12);
        assertTrue(m.yScaler().max() < 1e3, "upper bound " + m.yScaler().max() + " far below 1e6");
        // the extreme target is clipped to the upper bound: y01 = 1
        assertEquals(1.0, m.toHeadUnitsOf(train.withY(y)).y()[5] + 0.5, 1e-12); // the mixture: y01 - 0.5
    }

    @Test
    void configKeysRoundTripAndOldTablesReadAsNone() {
        ModelConfig c = config(TargetTransform.LOG);
        Properties p = c.toProperties();
        assertEquals("LOG", p.getProperty("target.transform"));
        assertEquals("1", p.getProperty("target.version"));
        assertEquals(c, ModelConfig.of(p));
        p.remove("target.transform");
        p.remove("target.version");
        assertEquals(TargetTransform.NONE, ModelConfig.of(p).targetTransform());
        p.setProperty("target.version", "1");
        p.setProperty("target.transform", "SQRT");
        assertEquals("target.transform must be one of [NONE, ROBUST, LOG], got 'SQRT'",
                assertThrows(IllegalArgumentException.class, () -> ModelConfig.of(p)).getMessage());
        p.setProperty("target.transform", "LOG");
        p.setProperty("target.version", "2");
        assertEquals("target.version must be in [1, 1] (the newest this library reads), got 2",
                assertThrows(IllegalArgumentException.class, () -> ModelConfig.of(p)).getMessage());
    }

    @Test
    void outOfRangeNamesRowsAndColumnsBeyondKStandardDeviations() {
        // x0 takes -1, 0, 1 (mean 0, population sd sqrt(2/3) = 0.8165), x1 is constant 5
        double[][] x = new double[30][];
        double[] y = new double[30];
        for (int i = 0; i < 30; i++) {
            x[i] = new double[] {i % 3 - 1, 5};
            y[i] = i % 3 + 0.01 * i;
        }
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 8, new PointwiseSpec(false), null,
                TrainerConfig.defaults().withMaxEpochs(1)), 2);
        m.fit(Dataset.of(x, y));
        OutOfRangeReport r = m.outOfRange(new double[][] {{0.5, 5}, {9, 5}, {-2, 5.5}}, 3);
        assertEquals(2, r.entries().size(), r.toString());
        assertArrayEquals(new int[] {1, 2}, r.flaggedRows());
        OutOfRangeReport.Entry e = r.entries().get(0); // row 1, x0 = 9: 9 / 0.8165 = 11.02 sd
        assertEquals(1, e.row());
        assertEquals(0, e.column());
        assertEquals(9 / Math.sqrt(2.0 / 3), e.deviations(), 1e-12);
        OutOfRangeReport.Entry c = r.entries().get(1); // row 2, x1 = 5.5 where training had only 5
        assertEquals(2, c.row());
        assertEquals(1, c.column());
        assertEquals(Double.POSITIVE_INFINITY, c.deviations());
        assertEquals("2 of 3 rows have inputs more than 3 training standard deviations from the training mean "
                + "(predictions there extrapolate): row 1, size = 9 (11.02 sd from mean 0); row 2, weight = 5.5 "
                + "(Infinity sd from mean 5)", r.message(new String[] {"size", "weight"}, 5));
        assertTrue(m.outOfRange(new double[][] {{-2, 5}}, 3).isEmpty()); // 2.45 sd
        // the statistics travel with the model
        RegressionModel back = RegressionModel.fromBytes(m.toBytes());
        assertEquals(r, back.outOfRange(new double[][] {{0.5, 5}, {9, 5}, {-2, 5.5}}, 3));
        assertEquals("k must be > 0 and finite, got 0.0", assertThrows(IllegalArgumentException.class,
                () -> m.outOfRange(new double[][] {{0, 5}}, 0)).getMessage());
    }

    private static ModelConfig rawDecoder(TargetTransform t, boolean special) {
        return new ModelConfig(2, 16, new UnnormalizedDecoderSpec(10, 1, 3, special, TargetScaling.RAW, null, 8, 1, 16,
                1), null, TrainerConfig.defaults().withMaxEpochs(2).withSeed(5), true, t);
    }

    /**
     * A head on raw y (the unnormalized decoder) under a target transform is trained on t(y) itself: ROBUST, the
     * clipped y (so the model's distribution is the head's); LOG, {@code log1p(y - min)} (the model's quantiles are
     * {@code min + expm1} of the head's and its log density the head's at t less {@code log(1 + y - min)}, the
     * Jacobian), written out here.
     */
    @Test
    void headsOnRawYAreTrainedOnTheTransformedTarget() {
        Dataset train = logNormal(300, 4);
        double[] y = train.y();
        y[5] = 1e6;
        RegressionModel robust = RegressionModel.create(rawDecoder(TargetTransform.ROBUST, false), 2);
        robust.fit(train.withY(y));
        double hi = robust.yScaler().max();
        assertTrue(hi < 1e3, "upper bound " + hi);
        double[] h = robust.toHeadUnitsOf(train.withY(y)).y();
        assertEquals(hi, h[5], 0.0); // clipped, not min-max scaled
        assertEquals(y[0], h[0], 0.0);
        assertEquals(y[7], h[7], 0.0);
        double[][] x = {{-0.5, 0.1}, {0.4, -0.3}};
        double[] at = {2.5, 9.0};
        // the decoder on raw y, with the tails every bounded head gets (so the head's log density less log1p(-eps))
        double[] headLog = robust.predictHeadUnits(x).logDensity(at);
        double[] modelLog = robust.predict(x).logDensity(at);
        for (int i = 0; i < at.length; i++) {
            assertEquals(headLog[i] + Math.log1p(-TargetPipeline.TAIL_MASS), modelLog[i], 0.0);
        }

        Dataset pos = logNormal(300, 6);
        RegressionModel log = RegressionModel.create(rawDecoder(TargetTransform.LOG, false), 2);
        log.fit(pos);
        double s = log.targetScaler().shift();
        double minY = java.util.Arrays.stream(pos.y()).min().getAsDouble();
        assertEquals(minY, s, 0.0);
        double[] t = log.toHeadUnitsOf(pos).y();
        for (int i = 0; i < 5; i++) {
            assertEquals(Math.log1p(pos.y()[i] - s), t[i], 0.0, "row " + i);
        }
        // the decoder with the tails a bounded head gets, in its units: mass TAIL_MASS, scale TAIL_SCALE of the range
        PredictiveDistribution head = new io.regheads.core.dist.WithTails(log.predictHeadUnits(x),
                TargetPipeline.TAIL_MASS, TargetPipeline.TAIL_SCALE * log.yScaler().range());
        PredictiveDistribution d = log.predict(x);
        double[] hq = head.inverseCumulativeProbability(0.7);
        double[] q = d.inverseCumulativeProbability(0.7);
        double[] ht = {Math.log1p(at[0] - s), Math.log1p(at[1] - s)};
        double[] hl = head.logDensity(ht);
        double[] l = d.logDensity(at);
        for (int i = 0; i < x.length; i++) {
            assertEquals(s + Math.expm1(hq[i]), q[i], 1e-12 * Math.abs(q[i]), "quantile row " + i);
            assertEquals(hl[i] - Math.log1p(at[i] - s), l[i], 1e-9, "log density row " + i);
        }
        // the exponent range fitted to log1p(y - min) is a new spec; the transform stays with it (and the file)
        assertEquals(TargetTransform.LOG, log.config().targetTransform());
        assertEquals(TargetTransform.LOG, RegressionModel.fromBytes(log.toBytes()).config().targetTransform());
        assertArrayEquals(d.median(), log.predictPoint(x), 1e-12); // the median under LOG
        assertEquals("decoding must not be SAMPLE_MEAN under the LOG target transform (samples are averaged in "
                + "log1p(y - min)); use MEAN or SAMPLE_MEDIAN, got " + Decoding.of(PointEstimate.SAMPLE_MEAN),
                assertThrows(IllegalArgumentException.class,
                        () -> log.predictPoint(x, PointEstimate.SAMPLE_MEAN)).getMessage());
    }

    /** NaN and infinite targets reach a head with special tokens only without a target transform. */
    @Test
    void specialTargetsNeedNoTargetTransform() {
        Dataset train = logNormal(100, 7);
        double[] y = train.y();
        y[3] = Double.NaN;
        RegressionModel m = RegressionModel.create(rawDecoder(TargetTransform.LOG, true), 2);
        assertEquals("train targets must be finite under target transform LOG (NaN and +-Infinity reach head "
                + "unnormalized-decoder only with NONE), got NaN at row 3", assertThrows(IllegalArgumentException.class,
                        () -> m.fit(train.withY(y))).getMessage());
        RegressionModel none = RegressionModel.create(rawDecoder(TargetTransform.NONE, true), 2);
        none.fit(train.withY(y)); // accepted
        assertTrue(none.isFitted());
    }
}
