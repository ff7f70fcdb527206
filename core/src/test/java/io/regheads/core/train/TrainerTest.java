package io.regheads.core.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

class TrainerTest {

    /** y = x . coef + intercept + N(0, noise^2), x ~ U(-1, 1)^D. */
    static Dataset linearData(int n, double[] coef, double intercept, double noise, long seed) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] x = new double[n][coef.length];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = intercept + noise * gauss.sample();
            for (int j = 0; j < coef.length; j++) {
                x[i][j] = rng.nextDouble() * 2 - 1;
                y[i] += coef[j] * x[i][j];
            }
        }
        return Dataset.of(x, y);
    }

    @Test
    void recoversKnownCoefficients() {
        double[] coef = {1.5, -2.0, 0.5};
        Dataset data = linearData(400, coef, 0.7, 0.01, 1L);
        LinearRegressionModel model = new LinearRegressionModel(3);
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(32).withLearningRate(0.01).withMaxEpochs(150)
                .withPatience(10).withSeed(3);
        TrainingResult r = new Trainer(config).fit(model, data).requireConverged();
        // the least-squares error of the coefficients is about noise / sqrt(N) = 5e-4; Adam's jitter at lr 0.01
        // stays well inside 0.02
        for (int j = 0; j < 3; j++) {
            assertEquals(coef[j], model.w.value().getDouble(j), 0.02, "coefficient " + j);
        }
        assertEquals(0.7, model.b.value().getDouble(0), 0.02);
        // validation MSE near the noise variance 1e-4 (bound: 10x)
        assertTrue(r.bestValidationLoss() < 1e-3, "best validation loss " + r.bestValidationLoss());
        assertEquals(r.epochsRun(), r.trainLosses().size());
        assertTrue(r.trainLosses().get(0) > 10 * r.trainLosses().get(r.trainLosses().size() - 1));
    }

    @Test
    void earlyStoppingRestoresACopyOfTheBestWeights() {
        // train on y = 2x, validate on y = x: from w = 0 the validation loss falls until w passes 1, then rises
        double[][] x = new double[64][1];
        double[] yTrain = new double[64];
        double[] yVal = new double[64];
        for (int i = 0; i < 64; i++) {
            x[i][0] = -1 + 2.0 * i / 63;
            yTrain[i] = 2 * x[i][0];
            yVal[i] = x[i][0];
        }
        Dataset train = Dataset.of(x, yTrain);
        Dataset validation = Dataset.of(x, yVal);
        LinearRegressionModel model = new LinearRegressionModel(1);
        List<Double> wAtEpochEnd = new ArrayList<>();
        ProgressListener recorder = new ProgressListener() {
            @Override
            public void onEpochEnd(Progress p) {
                wAtEpochEnd.add(model.w.value().getDouble(0));
            }
        };
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(16).withLearningRate(0.02).withPatience(3)
                .withMaxEpochs(100);
        TrainingResult r = new Trainer(config, recorder).fit(model, train, validation);

        assertEquals(TrainingResult.StopReason.EARLY_STOPPED, r.stopReason());
        assertEquals(r.bestEpoch() + 3, r.epochsRun());
        double wBest = wAtEpochEnd.get(r.bestEpoch() - 1);
        double wLast = wAtEpochEnd.get(r.epochsRun() - 1);
        assertTrue(wBest > 0.5 && wBest < 1.5, "best w " + wBest);
        assertTrue(wLast > wBest + 0.05, "training moved on: last w " + wLast);
        assertEquals(wBest, model.w.value().getDouble(0), 0.0); // restored, not aliased to the live weights
        double minVal = r.validationLosses().stream().mapToDouble(Double::doubleValue).min().getAsDouble();
        assertEquals(minVal, r.bestValidationLoss(), 0.0);
        assertEquals(r.validationLosses().get(r.bestEpoch() - 1), r.bestValidationLoss(), 0.0);
        // the model now scores the best validation loss again
        INDArray vx = validation.featureMatrix(org.nd4j.linalg.api.buffer.DataType.DOUBLE);
        assertEquals(r.bestValidationLoss(), model.evaluate(vx, validation.y(), Arena.none()), 1e-12);
    }

    @Test
    void hugeLearningRateDivergesWithEpochAndStep() {
        Dataset data = linearData(50, new double[] {1, 1}, 0, 0.1, 2L);
        LinearRegressionModel model = new LinearRegressionModel(2);
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withLearningRate(1e200);
        TrainingResult r = new Trainer(config).fit(model, data);
        // step 1 from w = 0 is finite; Adam's first update moves every weight by about lr = 1e200, so the squared
        // residuals of step 2 overflow to +Infinity
        assertEquals(TrainingResult.StopReason.DIVERGED, r.stopReason());
        assertEquals("training diverged: loss Infinity at epoch 1, step 2; try a lower learning rate (now 1.00e+200)"
                + " or gradient clipping (clipNorm)", r.message());
        TrainingFailedException e = assertThrows(TrainingFailedException.class, r::requireConverged);
        assertEquals(r.message(), e.getMessage());
        assertEquals(TrainingResult.StopReason.DIVERGED, e.reason());
        assertTrue(r.failed());
        assertEquals(0, r.bestEpoch());
        assertEquals(0.0, model.w.value().getDouble(0), 0.0); // initial weights restored
        assertEquals(0.0, model.b.value().getDouble(0), 0.0);
    }

    /** Wraps a model, records batches and returns NaN on a chosen call. */
    private static final class Probe implements TrainableModel {
        final LinearRegressionModel inner;
        final int nanAtCall;
        final List<Integer> batchSizes = new ArrayList<>();
        final List<Double> firstColumn = new ArrayList<>();
        int evaluatedRows;
        int calls;

        Probe(int d, int nanAtCall) {
            inner = new LinearRegressionModel(d);
            this.nanAtCall = nanAtCall;
        }

        @Override
        public List<Param> params() {
            return inner.params();
        }

        @Override
        public double trainStep(INDArray x, double[] y, Arena arena) {
            calls++;
            batchSizes.add(y.length);
            for (int i = 0; i < y.length; i++) {
                firstColumn.add(x.getDouble(i, 0));
            }
            double loss = inner.trainStep(x, y, arena);
            return calls == nanAtCall ? Double.NaN : loss;
        }

        @Override
        public double evaluate(INDArray x, double[] y, Arena arena) {
            evaluatedRows += y.length;
            return inner.evaluate(x, y, arena);
        }
    }

    private static Dataset indexed(int n) {
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = i; // the row index, to see which rows a batch holds
            y[i] = 0.01 * i;
        }
        return Dataset.of(x, y);
    }

    @Test
    void nanLossNamesEpochAndStep() {
        // 100 rows, batch 6: 17 steps per epoch (16 full + one of 4); call 2 * 17 + 17 = 51 is epoch 3, step 17
        Probe probe = new Probe(1, 51);
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(6).withLearningRate(1e-4).withValidationFraction(0)
                .withMaxEpochs(10);
        TrainingResult r = new Trainer(config).fit(probe, indexed(100));
        assertEquals("training diverged: loss NaN at epoch 3, step 17; try a lower learning rate (now 0.000100) or "
                + "gradient clipping (clipNorm)", r.message());
        assertEquals(3, r.epochsRun());
        assertEquals(2, r.trainLosses().size());
        assertEquals(50, r.steps());
        assertEquals(2, r.bestEpoch()); // without validation: the last completed epoch's weights
    }

    @Test
    void miniBatchesKeepTheLastPartialBatchAndVisitEveryRowOncePerEpoch() {
        Probe probe = new Probe(1, -1);
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(8).withLearningRate(1e-4).withMaxEpochs(2)
                .withValidationFraction(0.1);
        TrainingResult r = new Trainer(config).fit(probe, indexed(100));
        // 10 validation rows held out; 90 training rows -> 11 batches of 8 and one of 2 per epoch
        assertEquals(24, probe.batchSizes.size());
        assertEquals(2, probe.batchSizes.get(11));
        assertEquals(8, probe.batchSizes.get(10));
        assertEquals(30, probe.evaluatedRows); // 10 rows: before training and after each of the 2 epochs
        Set<Double> epoch1 = new HashSet<>(probe.firstColumn.subList(0, 90));
        Set<Double> epoch2 = new HashSet<>(probe.firstColumn.subList(90, 180));
        assertEquals(90, epoch1.size());
        assertEquals(epoch1, epoch2); // the same training rows, each once
        assertNotEquals(probe.firstColumn.subList(0, 90), probe.firstColumn.subList(90, 180)); // reshuffled
        assertEquals(TrainingResult.StopReason.MAX_EPOCHS, r.stopReason());
    }

    @Test
    void sameSeedSameRunOtherSeedOtherShuffle() {
        Dataset data = linearData(60, new double[] {1, -1}, 0.2, 0.1, 4L);
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(7).withLearningRate(0.01).withMaxEpochs(5);
        TrainingResult a = new Trainer(config).fit(new LinearRegressionModel(2), data);
        TrainingResult b = new Trainer(config).fit(new LinearRegressionModel(2), data);
        TrainingResult c = new Trainer(config.withSeed(99)).fit(new LinearRegressionModel(2), data);
        assertEquals(a.trainLosses(), b.trainLosses());
        assertEquals(a.validationLosses(), b.validationLosses());
        assertNotEquals(a.trainLosses(), c.trainLosses());
    }

    @Test
    void nonFiniteGradientNormStopsWhenClipping() {
        TrainableModel badGrad = new TrainableModel() {
            final LinearRegressionModel inner = new LinearRegressionModel(1);

            @Override
            public List<Param> params() {
                return inner.params();
            }

            @Override
            public double trainStep(INDArray x, double[] y, Arena arena) {
                double loss = inner.trainStep(x, y, arena);
                inner.w.grad().putScalar(0, Double.POSITIVE_INFINITY);
                return loss;
            }

            @Override
            public double evaluate(INDArray x, double[] y, Arena arena) {
                return inner.evaluate(x, y, arena);
            }
        };
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withClipNorm(1.0);
        TrainingResult r = new Trainer(config).fit(badGrad, indexed(30));
        assertEquals("training diverged: gradient norm Infinity at epoch 1, step 1; try a lower learning rate (now "
                + "0.00100)", r.message());
    }

    @Test
    void clippingBoundsTheStepOfPlainSgdLikeUse() {
        // with clipping on, the gradients the optimizer sees have norm <= clipNorm: check through a recording model
        List<Double> norms = new ArrayList<>();
        LinearRegressionModel inner = new LinearRegressionModel(1);
        TrainableModel model = new TrainableModel() {
            @Override
            public List<Param> params() {
                return inner.params();
            }

            @Override
            public double trainStep(INDArray x, double[] y, Arena arena) {
                if (inner.w.grad().getDouble(0) != 0 || inner.b.grad().getDouble(0) != 0) {
                    throw new AssertionError("gradients were not zeroed before the step");
                }
                return inner.trainStep(x, y, arena);
            }

            @Override
            public double evaluate(INDArray x, double[] y, Arena arena) {
                double gw = inner.w.grad().getDouble(0);
                double gb = inner.b.grad().getDouble(0);
                norms.add(Math.sqrt(gw * gw + gb * gb)); // the last step's clipped gradient
                return inner.evaluate(x, y, arena);
            }
        };
        Dataset big = linearData(40, new double[] {100}, 50, 0, 5L); // large gradients (norm >> 0.5)
        new Trainer(TrainerConfig.defaults().withBatchSize(40).withClipNorm(0.5).withMaxEpochs(3)).fit(model, big);
        assertEquals(4, norms.size()); // before training (no gradient yet: norm 0), then after each epoch
        assertEquals(0.0, norms.get(0), 0.0);
        for (double n : norms.subList(1, 4)) {
            assertTrue(n <= 0.5 + 1e-9 && n > 0.49, "clipped norm " + n);
        }
    }

    @Test
    void configValidationAndPresets() {
        TrainerConfig d = TrainerConfig.defaults();
        assertEquals(new TrainerConfig(0, 128, 300, 1e-3, 0, 0, 0.1, 20), d);
        // the paper's protocol and the short run are fixed: they keep patience 5 whatever the defaults
        assertEquals(new TrainerConfig(0, 128, 300, 1e-4, 0, 0, 0.1, 5), TrainerConfig.paper());
        assertEquals(new TrainerConfig(0, 128, 20, 1e-3, 0, 0, 0.1, 5), TrainerConfig.shortRun());
        assertTrue(d.toString().contains("batchSize=128"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> d.withBatchSize(0));
        assertEquals("batchSize must be >= 1, got 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> d.withLearningRate(Double.NaN));
        assertEquals("learningRate must be > 0 and finite, got NaN", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> d.withValidationFraction(1.0));
        assertEquals("validationFraction must be in [0.0, 0.9], got 1.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> d.withClipNorm(-1));
        assertEquals("clipNorm must be >= 0 and finite, got -1.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> d.withPatience(0));
        assertEquals("patience must be >= 1, got 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Trainer(d).fit(new LinearRegressionModel(1), indexed(1)));
        assertEquals("data must have at least 2 rows for a validation split, got 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Trainer(d).fit(new LinearRegressionModel(1), indexed(5), linearData(5, new double[2], 0, 0, 1)));
        assertEquals("validation must have the 1 features of train, got 2", e.getMessage());
    }
}
