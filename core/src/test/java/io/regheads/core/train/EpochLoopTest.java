package io.regheads.core.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import java.util.List;
import java.util.Optional;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class EpochLoopTest {

    /**
     * Steps computed elsewhere: each batch of the Trainer's shuffle split in two halves whose gradients are computed
     * apart and combined row-weighted into the gradient of the mean loss, as a data-parallel trainer does. The loop
     * then runs the Trainer's epochs: the same batches, validation, early stopping and stop reason; the weights and
     * losses agree within the rounding of the split sums (double precision: 1e-12 relative to the weights' scale,
     * about 2^-53 per step amplified by the 40 steps).
     */
    static class SplitBatches implements EpochLoop.Passes {
        final LinearRegressionModel model;
        final Dataset train;
        final Dataset validation;
        final int batch;
        final UniformRandomProvider rng;
        final int[] order;
        int diagnosed;

        SplitBatches(LinearRegressionModel model, Trainer.Holdout h, TrainerConfig config) {
            this.model = model;
            this.train = h.train();
            this.validation = h.validation();
            this.batch = config.batchSize();
            this.rng = RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed());
            this.order = PermutationSampler.natural(train.rows());
        }

        @Override
        public long trainRows() {
            return train.rows();
        }

        @Override
        public int stepsPerEpoch() {
            return (train.rows() + batch - 1) / batch;
        }

        @Override
        public boolean validates() {
            return validation != null;
        }

        @Override
        public void beginEpoch(int epoch) {
            PermutationSampler.shuffle(rng, order);
        }

        @Override
        public EpochLoop.StepLoss step(int epoch, int step) {
            int from = (step - 1) * batch;
            int count = Math.min(batch, train.rows() - from);
            int first = (count + 1) / 2;
            double[] gradSum = new double[3];
            double lossSum = 0;
            for (int[] part : new int[][] {{from, first}, {from + first, count - first}}) {
                if (part[1] == 0) {
                    continue;
                }
                model.params().forEach(Param::zeroGrad);
                INDArray x = Nd4j.create(DataType.DOUBLE, part[1], 2);
                double[] y = new double[part[1]];
                train.copyRows(order, part[0], part[1], x);
                train.copyTargets(order, part[0], part[1], y);
                lossSum += model.trainStep(x, y, Arena.create()) * part[1];
                double[] w = Host.doubles(model.w.grad());
                gradSum[0] += w[0] * part[1];
                gradSum[1] += w[1] * part[1];
                gradSum[2] += model.b.grad().getDouble(0) * part[1];
            }
            model.w.grad().putScalar(0, gradSum[0] / count);
            model.w.grad().putScalar(1, gradSum[1] / count);
            model.b.grad().putScalar(0, gradSum[2] / count);
            return new EpochLoop.StepLoss(lossSum / count, lossSum);
        }

        @Override
        public double validationLoss() {
            INDArray x = Nd4j.create(DataType.DOUBLE, validation.rows(), 2);
            double[] y = new double[validation.rows()];
            int[] natural = PermutationSampler.natural(validation.rows());
            validation.copyRows(natural, 0, validation.rows(), x);
            validation.copyTargets(natural, 0, validation.rows(), y);
            return model.evaluate(x, y, Arena.create());
        }

        @Override
        public Optional<String> diagnose() {
            diagnosed++;
            return Optional.empty();
        }
    }

    @Test
    void outsideGradientsRunTheTrainersEpochs() {
        Dataset data = TrainerTest.linearData(100, new double[] {1.5, -2.0}, 0.3, 0.3, 6L);
        // batch 17 (odd halves), 20 rows held out: 5 steps per epoch; patience 1 at this learning rate stops early
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(17).withLearningRate(0.3).withMaxEpochs(40)
                .withPatience(1).withValidationFraction(0.2).withClipNorm(5.0).withSeed(2);
        LinearRegressionModel reference = new LinearRegressionModel(2);
        TrainingResult expected = new Trainer(config).fit(reference, data);

        Trainer.Holdout h = new Trainer(config).holdout(data);
        LinearRegressionModel model = new LinearRegressionModel(2);
        SplitBatches passes = new SplitBatches(model, h, config);
        AdamW adam = new AdamW(model.params(), new AdamConfig(config.learningRate(), 0.9, 0.999, 1e-8, 0));
        TrainingResult actual = new EpochLoop(config, ProgressListener.none()).run(model.params(), adam, passes);

        assertEquals(TrainingResult.StopReason.EARLY_STOPPED, expected.stopReason(), expected.message());
        assertEquals(expected.stopReason(), actual.stopReason());
        assertEquals(expected.epochsRun(), actual.epochsRun());
        assertEquals(expected.bestEpoch(), actual.bestEpoch());
        assertEquals(expected.steps(), actual.steps());
        assertEquals(1, passes.diagnosed);
        double[] e = {reference.w.value().getDouble(0), reference.w.value().getDouble(1), reference.b.value().getDouble(0)};
        double[] a = {model.w.value().getDouble(0), model.w.value().getDouble(1), model.b.value().getDouble(0)};
        assertArrayEquals(e, a, 1e-12);
        for (int i = 0; i < expected.trainLosses().size(); i++) {
            assertEquals(expected.trainLosses().get(i), actual.trainLosses().get(i), 1e-12 * expected.trainLosses().get(0));
            assertEquals(expected.validationLosses().get(i), actual.validationLosses().get(i),
                    1e-12 * expected.validationLosses().get(0));
        }
    }

    @Test
    void aStepThatThrowsWithHealthyParametersIsRethrownAndAProblemFailsTheRun() {
        Dataset data = TrainerTest.linearData(40, new double[] {1, 1}, 0, 0.1, 1L);
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withMaxEpochs(2).withValidationFraction(0);
        LinearRegressionModel model = new LinearRegressionModel(2);
        AdamW adam = new AdamW(model.params(), new AdamConfig(1e-3, 0.9, 0.999, 1e-8, 0));
        IllegalStateException boom = new IllegalStateException("a partition failed");
        SplitBatches throwing = new SplitBatches(model, new Trainer.Holdout(data, null), config) {
            @Override
            public EpochLoop.StepLoss step(int epoch, int step) {
                throw boom;
            }
        };
        EpochLoop loop = new EpochLoop(config, ProgressListener.none());
        assertSame(boom, assertThrows(IllegalStateException.class, () -> loop.run(model.params(), adam, throwing)));

        SplitBatches unusable = new SplitBatches(model, new Trainer.Holdout(data, null), config) {
            @Override
            public Optional<String> diagnose() {
                return Optional.of("every row gets the same prediction");
            }
        };
        TrainingResult r = loop.run(model.params(), adam, unusable);
        assertEquals(TrainingResult.StopReason.FAILED, r.stopReason());
        assertTrue(r.message().startsWith("training failed: every row gets the same prediction (after 2 epochs, "
                + "weights of epoch 2)"), r.message());

        LinearRegressionModel other = new LinearRegressionModel(2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> loop.run(other.params(), adam,
                unusable));
        assertTrue(e.getMessage().startsWith("optimizer must update exactly params in order"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> loop.run(List.of(), adam, unusable));
        assertThrows(IllegalArgumentException.class, () -> new EpochLoop(config, null));
    }
}
