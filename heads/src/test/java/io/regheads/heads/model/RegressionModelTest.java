package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.WithTails;
import io.regheads.core.dist.SpecialValues;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderSampling;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.xval.XValSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

public class RegressionModelTest {
    @TempDir
    Path dir;

    /** y = 3 + 2 sin(2 x0) + x1 + N(0, 0.1^2) on x in [-1, 1]^2: noise variance 0.01 in original units. */
    public static Dataset data(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            x[i][1] = 2 * r.nextDouble() - 1;
            y[i] = 3 + 2 * Math.sin(2 * x[i][0]) + x[i][1] + 0.1 * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    static Stream<HeadSpec> heads() {
        return Stream.of(new PointwiseSpec(false), new HistogramSpec(64, true), new MixtureSpec(5), new XValSpec(64, false));
    }

    private static ModelConfig small(HeadSpec h) {
        return new ModelConfig(2, 64, h, null, TrainerConfig.defaults().withMaxEpochs(40).withPatience(10).withSeed(3));
    }

    @ParameterizedTest
    @MethodSource("heads")
    void learnsASmoothFunctionAndRoundTripsThroughAFile(HeadSpec h) throws Exception {
        Dataset train = data(1200, 1);
        Dataset test = data(500, 2);
        RegressionModel m = RegressionModel.create(small(h), 2);
        TrainingResult r = m.fit(train);
        assertTrue(!r.diverged(), r.message());
        PredictiveDistribution d = m.predict(test.x());
        double[] mean = d.mean();
        double mse = 0;
        for (int i = 0; i < mean.length; i++) {
            mse += Math.pow(mean[i] - test.y(i), 2) / mean.length;
        }
        double nll = -java.util.Arrays.stream(d.logDensity(test.y())).average().orElseThrow();
        System.out.printf("%s: test MSE %.5f, NLL %.4f, epochs %d%n", h, mse, nll, r.epochsRun());
        // noise variance 0.01; y spans about 6, so a 64-bin histogram adds about (6/64)^2/12 = 7e-4; allow the fit error
        assertTrue(mse < 0.03, h + ": test MSE " + mse);
        // densities in original units: the mean log density must beat a N(mean, var(y)) guess by a wide margin
        assertTrue(nll < 0.2, h + ": test NLL " + nll); // the noise alone gives 0.5 log(2 pi e 0.01) = -0.88

        Path f = dir.resolve(h.name() + ".rgh");
        m.save(f);
        RegressionModel back = RegressionModel.load(f);
        PredictiveDistribution d2 = back.predict(test.x());
        assertArrayEquals(mean, d2.mean(), 0.0);
        assertArrayEquals(d.logDensity(test.y()), d2.logDensity(test.y()), 0.0);
        assertArrayEquals(d.inverseCumulativeProbability(0.9), d2.inverseCumulativeProbability(0.9), 0.0);
    }

    /** Point predictions come from the head by the spec's estimate, mapped as predict maps the distribution. */
    @Test
    void pointPredictionsAreTheHeadsSummaryInOriginalUnits() {
        RegressionModel m = RegressionModel.create(small(new MixtureSpec(3)).withTrainer(TrainerConfig.defaults()
                .withMaxEpochs(2)), 2);
        m.fit(data(300, 8));
        double[][] x = data(5, 9).x();
        assertArrayEquals(m.predict(x).mean(), m.predictPoint(x), 0.0);
        assertArrayEquals(m.predict(x).median(), m.predictPoint(x, PointEstimate.MEDIAN), 0.0);
        assertArrayEquals(m.predict(x).mode(), m.predictPoint(x, PointEstimate.GREEDY), 0.0);
    }

    /** Every head, each target scaling: a couple of epochs are enough to test the map, not the fit. */
    static Stream<HeadSpec> everyHead() {
        return Stream.of(new PointwiseSpec(false), new PointwiseSpec(true), new HistogramSpec(16, true),
                new MixtureSpec(3), new XValSpec(16, false), new DecoderSpec(4, 3, 8, 1, 16, 1),
                new UnnormalizedDecoderSpec(10, 1, 3, false, TargetScaling.RAW, null, 8, 1, 16, 1),
                UnnormalizedDecoderSpec.scaled(10, 1, 3, 8, 1, 16, 1, true));
    }

    /**
     * NLL in original units = NLL in head units + log(scale), per head: {@code log p_y(y) = log p_h(h) - log scale}
     * with h and scale written out here for each scaling (MIN_MAX: h = (y - min) / range, scale = range;
     * CENTRED_MIN_MAX: h = (y - min) / range - 0.5, scale = range; RAW: h = y, scale = 1); and y01 densities differ
     * from original ones by log(range) whatever the head's units.
     */
    @ParameterizedTest
    @MethodSource("everyHead")
    void originalUnitsAreHeadUnitsLessTheLogScale(HeadSpec spec) {
        RegressionModel m = RegressionModel.create(small(spec).withTrainer(TrainerConfig.defaults().withMaxEpochs(2)
                .withSeed(3)), 2);
        m.fit(data(200, 4));
        double[][] x = {{0.1, 0.2}, {-0.5, 0.9}, {0.7, -0.3}};
        double[] y = {3.1, 2.0, 4.2};
        double min = m.yScaler().min();
        double range = m.yScaler().range();
        double[] h = new double[3];
        double scale = switch (spec.targetScaling()) {
            case MIN_MAX, CENTRED_MIN_MAX -> range;
            case RAW -> 1.0;
        };
        for (int i = 0; i < 3; i++) {
            h[i] = switch (spec.targetScaling()) {
                case MIN_MAX -> (y[i] - min) / range;
                case CENTRED_MIN_MAX -> (y[i] - min) / range - 0.5;
                case RAW -> y[i];
            };
        }
        // a bounded head (the decoders) gets half-normal tails first: mass TAIL_MASS, scale TAIL_SCALE of the range
        PredictiveDistribution head = m.predictHeadUnits(x);
        PredictiveDistribution tailed = WithTails.bounded(head) ? new WithTails(head, TargetPipeline.TAIL_MASS,
                TargetPipeline.TAIL_SCALE * range / scale) : head;
        double[] lOrig = m.predict(x).logDensity(y);
        double[] lHead = tailed.logDensity(h);
        double[] lUnit = m.predictUnit(x).logDensity(m.yScaler().transform(y));
        for (int i = 0; i < 3; i++) {
            assertTrue(Double.isFinite(lOrig[i]), spec + " row " + i + ": " + lOrig[i]);
            assertEquals(lHead[i] - Math.log(scale), lOrig[i], 1e-9, spec + " row " + i);
            assertEquals(lUnit[i] - Math.log(range), lOrig[i], 1e-9, spec + " row " + i);
        }
        // points map as the distribution does
        double[] mean = m.predict(x).mean();
        double[] headMean = tailed.mean();
        double shift = spec.targetScaling() == TargetScaling.RAW ? 0
                : min + (spec.targetScaling() == TargetScaling.CENTRED_MIN_MAX ? 0.5 * range : 0);
        for (int i = 0; i < 3; i++) {
            assertEquals(scale * headMean[i] + shift, mean[i], 1e-9 * Math.max(1, Math.abs(mean[i])), spec + " mean");
        }
    }

    /**
     * Decoding options reach the head through the model: the sample mean under temperature/top-k/top-p is the
     * decoder distribution's own (mapped to y units), the named estimates are the distribution's; a head without
     * tokens refuses filters and samples its distribution as is otherwise (within 4 sigma / sqrt(n) of its mean).
     */
    @Test
    void decodingOptionsReachTheHead() {
        RegressionModel m = RegressionModel.create(small(new DecoderSpec(4, 3, 8, 1, 16, 1)).withTrainer(
                TrainerConfig.defaults().withMaxEpochs(3)), 2);
        m.fit(data(300, 8));
        double[][] x = data(5, 9).x();
        DecoderDistribution d = (DecoderDistribution) m.predictHeadUnits(x);
        double min = m.yScaler().min();
        double range = m.yScaler().range();
        Decoding cool = Decoding.of(PointEstimate.SAMPLE_MEAN).withSampling(0.5, 2, 0.9).withSamples(64, 3);
        double[] expected = d.sampling().sampleMean(RandomSource.XO_RO_SHI_RO_128_PP.create(3), 64,
                new DecoderSampling.Settings(0.5, 2, 0.9));
        double[] got = m.predictPoint(x, cool);
        for (int i = 0; i < x.length; i++) {
            assertEquals(range * expected[i] + min, got[i], 1e-12 * Math.max(1, Math.abs(got[i])), "row " + i);
        }
        double[] plain = m.predictPoint(x, cool.withSampling(1, 0, 1));
        assertTrue(!Arrays.equals(plain, got), "the filters change the samples");
        double[] hd = d.sampling().sampleMedian(RandomSource.XO_RO_SHI_RO_128_PP.create(3), 64,
                new DecoderSampling.Settings(0.5, 2, 0.9));
        double[] gotMedian = m.predictPoint(x, cool.withPoint(PointEstimate.SAMPLE_MEDIAN));
        for (int i = 0; i < x.length; i++) {
            assertEquals(range * hd[i] + min, gotMedian[i], 1e-12 * Math.max(1, Math.abs(gotMedian[i])), "row " + i);
        }
        assertArrayEquals(m.predict(x).median(), m.predictPoint(x, Decoding.of(PointEstimate.MEDIAN)), 0.0);
        assertArrayEquals(m.predict(x).mode(), m.predictPoint(x, PointEstimate.MODE), 0.0);
        assertArrayEquals(m.predict(x).mean(), m.predictPoint(x, PointEstimate.MEAN), 0.0);
        assertTrue(m.head().generatesTokens());

        RegressionModel g = RegressionModel.create(small(new MixtureSpec(3)).withTrainer(TrainerConfig.defaults()
                .withMaxEpochs(2)), 2);
        g.fit(data(300, 8));
        assertTrue(!g.head().generatesTokens());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.predictPoint(x, cool));
        assertTrue(e.getMessage().startsWith("temperature, top-k and top-p filter generated tokens; MixtureHead "
                + "generates none"), e.getMessage());
        int n = 20_000;
        double[] sm = g.predictPoint(x, Decoding.of(PointEstimate.SAMPLE_MEAN).withSamples(n, 1));
        double[] mean = g.predict(x).mean();
        double[] var = g.predict(x).variance();
        for (int i = 0; i < x.length; i++) {
            assertEquals(mean[i], sm[i], 4 * Math.sqrt(var[i] / n), "sample mean, row " + i);
        }
    }

    /** Heads without special tokens refuse NaN and infinite targets, naming the head and the row. */
    @Test
    void nonFiniteTargetsAreRefusedByHeadsThatCannotLearnThem() {
        Dataset d = data(50, 3);
        double[] y = d.y();
        y[7] = Double.NaN;
        RegressionModel m = RegressionModel.create(small(new MixtureSpec(2)), 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.fit(d.withY(y)));
        assertEquals("train targets must be finite for head mdn (only a decoder with special tokens learns NaN and "
                + "+-Infinity), got NaN at row 7", e.getMessage());
        y[7] = Double.NEGATIVE_INFINITY;
        RegressionModel u = RegressionModel.create(small(UnnormalizedDecoderSpec.small(10, 1, 3)), 2);
        e = assertThrows(IllegalArgumentException.class, () -> u.fit(d.withY(y)));
        assertTrue(e.getMessage().endsWith("got -Infinity at row 7"), e.getMessage());
    }

    /**
     * Special tokens end to end through the model: labels with NaN (x0 > 0.5) and +Inf (x0 < -0.6) train an
     * unnormalized decoder with special tokens; the model's distribution reports P(NaN) and P(+Inf) per row (high
     * where the labels were special, low elsewhere), unchanged by the map to original units (raw y: the head's own
     * distribution; y01 units: an affine map that passes them through), and logLikelihood scores mixed labels.
     */
    @ParameterizedTest
    @MethodSource("specialScalings")
    void specialTokensTrainAndReportThroughTheModel(TargetScaling scaling) {
        Dataset train = data(800, 11);
        double[] y = train.y();
        double[][] tx = train.x();
        for (int i = 0; i < y.length; i++) {
            y[i] = tx[i][0] > 0.5 ? Double.NaN : tx[i][0] < -0.6 ? Double.POSITIVE_INFINITY : y[i];
        }
        UnnormalizedDecoderSpec spec = new UnnormalizedDecoderSpec(10, 1, 3, true, scaling, null, 16, 1, 32, 1);
        assertTrue(spec.representsNonFinite());
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 32, spec, null, TrainerConfig.defaults()
                .withMaxEpochs(30).withSeed(2)), 2);
        TrainingResult fit = m.fit(train.withY(y));
        assertTrue(!fit.failed(), fit.message()); // the after-training check looks at the finite rows
        double[][] x = {{0.8, 0.0}, {-0.9, 0.0}, {0.0, 0.0}};
        PredictiveDistribution d = m.predict(x);
        assertTrue(d instanceof SpecialValues, d.getClass().getName());
        SpecialValues sv = (SpecialValues) d;
        double[] nan = sv.probabilityNaN();
        double[] inf = sv.probabilityPositiveInfinity();
        System.out.printf("%s: P(NaN) %s, P(+Inf) %s%n", scaling, Arrays.toString(nan), Arrays.toString(inf));
        assertTrue(nan[0] > 0.7 && nan[1] < 0.15 && nan[2] < 0.15, "P(NaN) " + Arrays.toString(nan));
        assertTrue(inf[1] > 0.7 && inf[0] < 0.15 && inf[2] < 0.15, "P(+Inf) " + Arrays.toString(inf));
        SpecialValues head = (SpecialValues) m.predictHeadUnits(x);
        assertArrayEquals(head.probabilityNaN(), nan, 0.0);
        assertArrayEquals(head.probabilityPositiveInfinity(), inf, 0.0);
        double[] ll = m.logLikelihood(x, new double[] {Double.NaN, Double.POSITIVE_INFINITY, 3.0});
        assertEquals(Math.log(nan[0]), ll[0], 1e-12);
        assertEquals(Math.log(inf[1]), ll[1], 1e-12);
        assertEquals(Math.log(sv.probabilityFinite()[2]) + d.logDensity(new double[] {3.0, 3.0, 3.0})[2], ll[2], 1e-9);
        // the finite part: the distribution of y given y finite, in original units
        double[] median = d.median();
        assertTrue(Math.abs(median[2] - 3.0) < 1.0, "median of the finite part at x = 0: " + median[2]);
    }

    static Stream<TargetScaling> specialScalings() {
        return Stream.of(TargetScaling.RAW, TargetScaling.MIN_MAX);
    }

    /** The class promises concurrent predictions after fitting: 4 threads agree bit for bit with one thread. */
    @Test
    void concurrentPredictionsEqualSequentialOnes() throws Exception {
        RegressionModel m = RegressionModel.create(small(new MixtureSpec(3)).withTrainer(TrainerConfig.defaults()
                .withMaxEpochs(2)), 2);
        m.fit(data(400, 6));
        double[][] x = data(300, 7).x();
        double[] y = data(300, 7).y();
        double[] mean = m.predict(x).mean();
        double[] logp = m.predict(x).logDensity(y);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<double[][]>> results = new java.util.ArrayList<>();
            for (int task = 0; task < 16; task++) {
                results.add(pool.submit(() -> {
                    PredictiveDistribution d = m.predict(x);
                    return new double[][] {d.mean(), d.logDensity(y)};
                }));
            }
            for (java.util.concurrent.Future<double[][]> f : results) {
                double[][] r = f.get();
                assertArrayEquals(mean, r[0], 0.0);
                assertArrayEquals(logp, r[1], 0.0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A batch larger than one chunk (4096 rows) goes through the reused buffers in pieces: its rows agree with the
     * same rows predicted in small batches, and calls of alternating sizes on the same buffers repeat bit for bit.
     */
    @ParameterizedTest
    @MethodSource("heads")
    void batchesLargerThanAChunkAgreeWithSmallBatchesAndRepeatExactly(HeadSpec h) {
        RegressionModel m = RegressionModel.create(small(h).withTrainer(TrainerConfig.defaults().withMaxEpochs(1)), 2);
        m.fit(data(300, 8));
        double[][] x = data(4100, 9).x();
        double[] y = data(4100, 9).y();
        PredictiveDistribution all = m.predict(x);
        double[] mean = all.mean();
        double[] logp = all.logDensity(y);
        for (int from : new int[] {0, 4090}) {
            double[][] part = java.util.Arrays.copyOfRange(x, from, from + 10);
            double[] partY = java.util.Arrays.copyOfRange(y, from, from + 10);
            PredictiveDistribution d = m.predict(part);
            double[] pm = d.mean();
            double[] pl = d.logDensity(partY);
            for (int i = 0; i < 10; i++) {
                assertEquals(pm[i], mean[from + i], 1e-6 * Math.max(1, Math.abs(pm[i])), "mean of row " + (from + i));
                assertEquals(pl[i], logp[from + i], 1e-5, "log density of row " + (from + i));
            }
        }
        PredictiveDistribution again = m.predict(x); // after a 10-row call on the same buffers
        assertArrayEquals(mean, again.mean(), 0.0);
        assertArrayEquals(logp, again.logDensity(y), 0.0);
    }

    /**
     * The decoders have no columnar builder: the chunked path collects the chunks' features and builds the head's own
     * distribution once, so a raw-y decoder with special tokens predicts more than a chunk of rows as it predicts
     * them in small batches (log densities, quantiles, P(NaN), P(+Inf)), still as a {@link SpecialValues}.
     */
    @Test
    void decodersPredictMoreThanAChunkThroughTheDefaultBuilder() {
        Dataset train = data(300, 8);
        double[] y = train.y();
        for (int i = 0; i < y.length; i += 10) {
            y[i] = i % 20 == 0 ? Double.NaN : Double.POSITIVE_INFINITY;
        }
        RegressionModel m = RegressionModel.create(small(new UnnormalizedDecoderSpec(10, 1, 3, true, TargetScaling.RAW,
                null, 8, 1, 16, 1)).withTrainer(TrainerConfig.defaults().withMaxEpochs(1)), 2);
        m.fit(train.withY(y));
        double[][] x = data(4100, 9).x();
        double[] yt = data(4100, 9).y();
        PredictiveDistribution all = m.predict(x);
        assertTrue(all instanceof SpecialValues, all.getClass().getName());
        double[] logp = all.logDensity(yt);
        double[] q = all.inverseCumulativeProbability(0.3);
        double[] nan = ((SpecialValues) all).probabilityNaN();
        double[] inf = ((SpecialValues) all).probabilityPositiveInfinity();
        for (int from : new int[] {0, 4090}) {
            double[][] part = java.util.Arrays.copyOfRange(x, from, from + 10);
            PredictiveDistribution d = m.predict(part);
            double[] pl = d.logDensity(java.util.Arrays.copyOfRange(yt, from, from + 10));
            double[] pq = d.inverseCumulativeProbability(0.3);
            double[] pn = ((SpecialValues) d).probabilityNaN();
            double[] pi = ((SpecialValues) d).probabilityPositiveInfinity();
            for (int i = 0; i < 10; i++) {
                int r = from + i;
                assertEquals(pl[i], logp[r], 1e-5, "log density of row " + r);
                assertEquals(pq[i], q[r], 1e-5 * Math.max(1, Math.abs(pq[i])), "quantile of row " + r);
                assertEquals(pn[i], nan[r], 1e-6, "P(NaN) of row " + r);
                assertEquals(pi[i], inf[r], 1e-6, "P(+Inf) of row " + r);
            }
        }
    }

    /** Bytes and streams carry the file's bytes; a model read from them predicts bit for bit the same. */
    @Test
    void modelsTravelAsBytesAndStreams() throws Exception {
        RegressionModel m = RegressionModel.create(small(new PointwiseSpec(false)).withTrainer(TrainerConfig.defaults()
                .withMaxEpochs(2)), 2);
        m.fit(data(300, 10));
        Path f = dir.resolve("p.rgh");
        m.save(f);
        byte[] bytes = m.toBytes();
        assertArrayEquals(Files.readAllBytes(f), bytes);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        m.save(out);
        assertArrayEquals(bytes, out.toByteArray());
        double[][] x = data(7, 11).x();
        double[] y = data(7, 11).y();
        for (RegressionModel back : new RegressionModel[] {RegressionModel.fromBytes(bytes),
                RegressionModel.load(new java.io.ByteArrayInputStream(bytes)), RegressionModel.load(f)}) {
            assertArrayEquals(m.predictPoint(x), back.predictPoint(x), 0.0);
            assertArrayEquals(m.predict(x).logDensity(y), back.predict(x).logDensity(y), 0.0); // the noise level too
            assertEquals(m.config(), back.config());
        }
        String meta = io.regheads.core.io.Checkpoint.fromBytes(bytes).metadata();
        assertTrue(!meta.startsWith("#"), "no date comment: the same model gives the same bytes");
        for (String key : new String[] {"version=1", "head=pointwise", "head.version=1", "head.sigmoid=false",
            "state.noiseStd=", "trainer.maxEpochs=2", "trainer.batchSize=128", "encoder.width=64"}) {
            assertTrue(meta.contains(key), key + " in " + meta);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegressionModel.fromBytes(java.util.Arrays.copyOf(bytes, 40)));
        assertTrue(e.getMessage().startsWith("model bytes is truncated"), e.getMessage());
    }

    /** A model whose metadata was written with a bad value names the key (the checksum is recomputed). */
    @Test
    void invalidMetadataNamesTheKey() throws Exception {
        RegressionModel m = RegressionModel.create(small(new HistogramSpec(16, false)).withTrainer(TrainerConfig.defaults()
                .withMaxEpochs(1)), 2);
        m.fit(data(200, 12));
        io.regheads.core.io.Checkpoint c = io.regheads.core.io.Checkpoint.fromBytes(m.toBytes());
        for (String[] edit : new String[][] {{"head.bins=16", "head.bins=sixteen", "head.bins must be an integer, got 'sixteen'"},
            {"head=histogram", "head=forest", "head must be one of [pointwise, histogram, mdn, decoder, unnormalized-decoder, xval, repeat-decoder, hamming-decoder, quantile], got 'forest'"},
            {"trainer.patience=20", "trainer.patience=0", "trainer.patience must be >= 1, got 0"},
            {"version=1", "version=2", "version must be 1 (the only model format this library reads), got 2"}}) {
            assertTrue(c.metadata().contains(edit[0]), edit[0]);
            byte[] bad = new io.regheads.core.io.Checkpoint(c.metadata().replace(edit[0], edit[1]), c.tensors()).toBytes();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegressionModel.fromBytes(bad));
            assertEquals("model bytes has invalid metadata: " + edit[2], e.getMessage());
        }
    }

    @Test
    void corruptAndTruncatedModelFilesAreRefusedClearly() throws Exception {
        RegressionModel m = RegressionModel.create(small(new HistogramSpec(16, false)).withTrainer(TrainerConfig.defaults().withMaxEpochs(1)), 2);
        m.fit(data(300, 5));
        Path f = dir.resolve("m.rgh");
        m.save(f);
        byte[] all = Files.readAllBytes(f);
        Path cut = dir.resolve("cut.rgh");
        Files.write(cut, java.util.Arrays.copyOf(all, all.length / 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RegressionModel.load(cut));
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        byte[] bad = all.clone();
        bad[all.length / 3] ^= 1;
        Path flipped = dir.resolve("flipped.rgh");
        Files.write(flipped, bad);
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class, () -> RegressionModel.load(flipped));
        assertTrue(e2.getMessage().contains("corrupt"), e2.getMessage());
    }

    @Test
    void badArgumentsAreNamed() {
        RegressionModel m = RegressionModel.create(small(new MixtureSpec(2)), 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.predict(new double[][] {{0, 1}}));
        assertEquals("model must be fitted (or loaded) before predicting", e.getMessage());
        IllegalArgumentException order = assertThrows(IllegalArgumentException.class,
                () -> m.columnOrder(List.of("a", "b")));
        assertEquals("model must be fitted (or loaded) before predicting", order.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.fit(Dataset.of(new double[][] {{1, 2, 3}, {1, 2, 4}}, new double[] {1, 2})));
        IllegalArgumentException loss = assertThrows(IllegalArgumentException.class, () -> small(new MixtureSpec(2)).withLoss("ce+0.3*was"));
        assertTrue(loss.getMessage().startsWith("loss term 'was' in 'ce+0.3*was' is unknown"), loss.getMessage());
    }
}
