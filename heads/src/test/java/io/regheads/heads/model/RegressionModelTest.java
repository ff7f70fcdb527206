package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.xval.XValSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
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

    @Test
    void unitPredictionsDifferFromOriginalUnitsByTheJacobian() {
        Dataset train = data(500, 4);
        RegressionModel m = RegressionModel.create(small(new MixtureSpec(3)).withTrainer(TrainerConfig.defaults().withMaxEpochs(3)), 2);
        m.fit(train);
        double[][] x = {{0.1, 0.2}, {-0.5, 0.9}};
        double[] y = {3.1, 2.0};
        double[] y01 = m.yScaler().transform(y);
        double[] lOrig = m.predict(x).logDensity(y);
        double[] lUnit = m.predictUnit(x).logDensity(y01);
        for (int i = 0; i < 2; i++) {
            assertEquals(lUnit[i] - Math.log(m.yScaler().range()), lOrig[i], 1e-9);
        }
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
        for (String key : new String[] {"version=2", "head=pointwise", "head.version=1", "head.sigmoid=false",
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
            {"head=histogram", "head=forest", "head must be one of [pointwise, histogram, mdn, decoder, unnormalized-decoder, xval], got 'forest'"},
            {"trainer.patience=5", "trainer.patience=0", "trainer.patience must be >= 1, got 0"},
            {"version=2", "version=3", "version must be 2 (the newest this library reads), got 3"}}) {
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
        assertThrows(IllegalArgumentException.class, () -> m.fit(Dataset.of(new double[][] {{1, 2, 3}, {1, 2, 4}}, new double[] {1, 2})));
        IllegalArgumentException loss = assertThrows(IllegalArgumentException.class, () -> small(new MixtureSpec(2)).withLoss("ce+0.3*was"));
        assertTrue(loss.getMessage().startsWith("loss term 'was' in 'ce+0.3*was' is unknown"), loss.getMessage());
    }
}
