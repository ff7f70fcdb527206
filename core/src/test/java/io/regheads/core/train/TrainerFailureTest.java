package io.regheads.core.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/** How the trainer reports runs that go wrong: exploding losses and parameters, model exceptions, useless models. */
class TrainerFailureTest {

    private static Dataset data(int n) {
        return TrainerTest.linearData(n, new double[] {1, -1}, 0.3, 0.05, 8L);
    }

    /** A linear model with hooks: a step callback (call number, inner loss) -> loss, and an optional diagnosis. */
    private static class Hooked implements TrainableModel {
        final LinearRegressionModel inner = new LinearRegressionModel(2);
        final BiFunction<Integer, Double, Double> onStep;
        int calls;

        Hooked(BiFunction<Integer, Double, Double> onStep) {
            this.onStep = onStep;
        }

        @Override
        public List<Param> params() {
            return inner.params();
        }

        @Override
        public double trainStep(INDArray x, double[] y, Arena arena) {
            return onStep.apply(++calls, inner.trainStep(x, y, arena));
        }

        @Override
        public double evaluate(INDArray x, double[] y, Arena arena) {
            return inner.evaluate(x, y, arena);
        }
    }

    @Test
    void aLearningRateThatOvershootsIsCaughtLongBeforeOverflow() {
        // Adam moves every weight by about lr per step: at lr 1000 the MSE of the second batch on is near 1e6, far
        // above the loss before training (about 1.1); the third such step in a row (step 4) ends the run
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withLearningRate(1000).withSeed(1);
        TrainingResult r = new Trainer(config).fit(new LinearRegressionModel(2), data(100));
        assertEquals(TrainingResult.StopReason.DIVERGED, r.stopReason());
        assertTrue(r.message().matches("training diverged: training loss \\S+ at epoch 1, step 4 is far above its value "
                + "before training \\(\\S+\\) for 3 steps in a row; try a lower learning rate \\(now 1\\.00e\\+03\\) "
                + "or gradient clipping \\(clipNorm\\)"), r.message());
        assertEquals(0, r.bestEpoch());
    }

    @Test
    void oneOrTwoSpikingBatchesAreNotDivergence() {
        // a mixture density head's batch loss can jump far above L0 for one step when a row meets weights that fit it
        // very badly; the run recovers, so only SPIKE_STEPS such steps in a row end it. Batch 10 of 90 training rows:
        // 9 steps per epoch; the spikes are reported losses only, the weights train normally.
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withLearningRate(1e-2).withMaxEpochs(3);
        Hooked twoApart = new Hooked((call, loss) -> call == 3 || call == 5 || call == 6 ? 1e6 : loss);
        TrainingResult r = new Trainer(config).fit(twoApart, data(100));
        assertEquals(TrainingResult.StopReason.MAX_EPOCHS, r.stopReason(), r.message());
        assertEquals(3 * 9, twoApart.calls);

        Hooked threeInARow = new Hooked((call, loss) -> call >= 3 && call <= 5 ? 1e6 : loss);
        TrainingResult d = new Trainer(config).fit(threeInARow, data(100));
        assertEquals(TrainingResult.StopReason.DIVERGED, d.stopReason());
        assertTrue(d.message().startsWith("training diverged: training loss 1.000e+06 at epoch 1, step 5 is far above "
                + "its value before training ("), d.message());
        assertTrue(d.message().contains(") for 3 steps in a row; try a lower learning rate"), d.message());
        assertEquals(Trainer.SPIKE_STEPS, 3, "the test's spike pattern assumes 3");
    }

    @Test
    void aSpikeTheRunDoesNotRecoverFromDiverges() {
        // one spiking step, after which the weights stay spoilt (b held at 5: validation MSE near 22, above L0 but
        // not 100 times above it): the validation loss after the epoch is not below L0
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withLearningRate(1e-2).withMaxEpochs(3);
        Hooked spoilt = new Hooked((call, loss) -> call == 3 ? 1e6 : loss) {
            @Override
            public double trainStep(INDArray x, double[] y, Arena arena) {
                double loss = super.trainStep(x, y, arena);
                if (calls >= 3) {
                    inner.b.value().putScalar(0, 5.0);
                }
                return loss;
            }
        };
        TrainingResult r = new Trainer(config).fit(spoilt, data(100));
        assertEquals(TrainingResult.StopReason.DIVERGED, r.stopReason());
        assertTrue(r.message().matches("training diverged: training loss 1\\.000e\\+06 at epoch 1, step 3 is far above its "
                + "value before training \\(\\S+\\) and the validation loss after the epoch \\(\\S+\\) is not below that; "
                + "epoch 2 did not recover \\(validation loss \\S+\\); try a lower learning rate.*"), r.message());
        assertEquals(0, r.bestEpoch(), "an unhealthy epoch's weights are never the best");
    }

    @Test
    void oneEpochFarAboveItsStartIsForgivenWhenTheNextRecovers() {
        // the validation loss after epoch 1 is reported far above L0 (a mixture head's NLL can do that for one epoch);
        // epoch 2 is below L0 again: the run goes on, and epoch 1 never counts as the best
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(200).withLearningRate(1e-2).withMaxEpochs(3);
        int[] evaluations = {0};
        Hooked m = new Hooked((call, loss) -> loss) {
            @Override
            public double evaluate(INDArray x, double[] y, Arena arena) {
                double v = super.evaluate(x, y, arena);
                return ++evaluations[0] == 2 ? 1e6 : v; // the first is L0, the second follows epoch 1
            }
        };
        TrainingResult r = new Trainer(config).fit(m, data(100));
        assertEquals(TrainingResult.StopReason.MAX_EPOCHS, r.stopReason(), r.message());
        assertEquals(1e6, r.validationLosses().get(0), 0.0);
        assertTrue(r.bestEpoch() >= 2, "best epoch " + r.bestEpoch());
    }

    @Test
    void withoutValidationTheStepsAfterASpikeMustRecover() {
        // 90 rows, batch 10, no validation: 9 steps per epoch; L0 is the first batch's loss
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withLearningRate(1e-2).withMaxEpochs(2)
                .withValidationFraction(0);
        Hooked recovers = new Hooked((call, loss) -> call == 3 ? 1e6 : loss);
        assertEquals(TrainingResult.StopReason.MAX_EPOCHS, new Trainer(config).fit(recovers, data(90)).stopReason());
        // a spike at the last step of the last epoch: nothing shows a recovery
        Hooked lastStep = new Hooked((call, loss) -> call == 9 ? 1e6 : loss);
        TrainingResult r = new Trainer(config.withMaxEpochs(1)).fit(lastStep, data(90));
        assertEquals(TrainingResult.StopReason.DIVERGED, r.stopReason());
        assertTrue(r.message().matches("training diverged: training loss 1\\.000e\\+06 at epoch 1, step 9 is far above its "
                + "value before training \\(\\S+\\) and no step of the epoch followed it; the run ended before it could "
                + "recover; .*"), r.message());
    }

    @Test
    void aValidationLossFarAboveItsStartDiverges() {
        // the weights are spoilt after the last step of epoch 2, which only the validation loss sees (the reported
        // training loss stays normal)
        Hooked m = new Hooked((call, loss) -> loss);
        Hooked spoilt = new Hooked((call, loss) -> call > 2 * 9 ? 0.5 : loss) {
            @Override
            public double trainStep(INDArray x, double[] y, Arena arena) {
                double loss = super.trainStep(x, y, arena);
                if (calls == 2 * 9) {
                    inner.b.value().putScalar(0, 1000.0); // the optimizer step keeps b near 1000
                }
                return loss;
            }
        };
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withLearningRate(1e-3).withMaxEpochs(5);
        TrainingResult healthy = new Trainer(config).fit(m, data(100));
        assertEquals(TrainingResult.StopReason.MAX_EPOCHS, healthy.stopReason(), healthy.message());
        TrainingResult r = new Trainer(config).fit(spoilt, data(100));
        assertEquals(TrainingResult.StopReason.DIVERGED, r.stopReason());
        // epoch 2 is unhealthy; epoch 3 does not recover
        assertTrue(r.message().matches("training diverged: validation loss \\S+ at epoch 2 is far above its value before "
                + "training \\(\\S+\\); epoch 3 did not recover \\(validation loss \\S+\\); try a lower learning "
                + "rate.*"), r.message());
        assertEquals(1, r.bestEpoch());
        assertEquals(2, r.validationLosses().size());
        assertTrue(Math.abs(spoilt.inner.b.value().getDouble(0)) < 1, "epoch 1 weights restored");
    }

    @Test
    void aNonFiniteParameterAtAnEpochsEndDiverges() {
        // one step per epoch (batch >= rows): the NaN gradient of the first step reaches the weights, and the check at
        // the epoch's end names the parameter before any loss is computed from it
        Hooked m = new Hooked((call, loss) -> loss) {
            @Override
            public double trainStep(INDArray x, double[] y, Arena arena) {
                double loss = super.trainStep(x, y, arena);
                inner.w.grad().putScalar(1, Double.NaN);
                return loss;
            }
        };
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(200).withValidationFraction(0);
        TrainingResult r = new Trainer(config).fit(m, data(50));
        assertEquals("training diverged: parameter 'w' is not finite (NaN at flat index 1) after epoch 1; try a lower "
                + "learning rate (now 0.00100) or gradient clipping (clipNorm)", r.message());
        assertEquals(0.0, m.inner.w.value().getDouble(1), 0.0); // initial weights restored
    }

    @Test
    void anExplodedParameterDiverges() {
        Hooked m = new Hooked((call, loss) -> loss) {
            @Override
            public double trainStep(INDArray x, double[] y, Arena arena) {
                double loss = super.trainStep(x, y, arena);
                inner.b.value().putScalar(0, 3e6); // initial weights are 0: the limit is 1e6
                return loss;
            }
        };
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(200).withValidationFraction(0);
        TrainingResult r = new Trainer(config).fit(m, data(50));
        assertTrue(r.message().startsWith("training diverged: parameter 'b' exploded (3.000e+06 at flat index 0, beyond "
                + "1.00e+06) after epoch 1"), r.message());
    }

    @Test
    void aModelExceptionIsDivergenceOnlyWhenTheParametersShowIt() {
        // the model refuses its own output once a weight is NaN (as the losses refuse non-finite head outputs)
        Hooked refusing = new Hooked((call, loss) -> loss) {
            @Override
            public double trainStep(INDArray x, double[] y, Arena arena) {
                if (Double.isNaN(inner.w.value().getDouble(0))) {
                    throw new IllegalArgumentException("values must be finite everywhere, got NaN at index 0");
                }
                double loss = super.trainStep(x, y, arena);
                if (calls == 3) {
                    inner.w.grad().putScalar(0, Double.NaN);
                }
                return loss;
            }
        };
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withValidationFraction(0);
        TrainingResult r = new Trainer(config).fit(refusing, data(100));
        assertEquals("training diverged: parameter 'w' is not finite (NaN at flat index 0) at epoch 1, step 4 (the "
                + "model then failed: values must be finite everywhere, got NaN at index 0); try a lower learning rate "
                + "(now 0.00100) or gradient clipping (clipNorm)", r.message());

        // with healthy parameters the same exception is an error, not a training outcome
        IllegalArgumentException bug = new IllegalArgumentException("targets must have length 10");
        Hooked broken = new Hooked((call, loss) -> {
            if (call == 5) {
                throw bug;
            }
            return loss;
        });
        assertSame(bug, assertThrows(IllegalArgumentException.class, () -> new Trainer(config).fit(broken, data(100))));
    }

    @Test
    void aModelThatReportsDegeneratePredictionsFails() {
        List<Integer> seenRows = new ArrayList<>();
        Hooked collapsed = new Hooked((call, loss) -> loss) {
            @Override
            public Optional<String> diagnose(INDArray x, double[] y) {
                seenRows.add(y.length);
                return Optional.of("every row gets the same prediction");
            }
        };
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withMaxEpochs(3);
        TrainingResult r = new Trainer(config).fit(collapsed, data(3000));
        assertEquals(TrainingResult.StopReason.FAILED, r.stopReason());
        assertEquals(List.of(Trainer.DIAGNOSE_ROWS), seenRows); // 300 validation rows, capped
        assertEquals("training failed: every row gets the same prediction (after 3 epochs, weights of epoch 3); try a "
                + "lower learning rate (now 0.00100) or gradient clipping (clipNorm)", r.message());
        assertTrue(r.failed() && !r.diverged());
        TrainingFailedException e = assertThrows(TrainingFailedException.class, r::requireConverged);
        assertEquals(TrainingResult.StopReason.FAILED, e.reason());
        assertSame(r, e.result());

        Hooked unpredictable = new Hooked((call, loss) -> loss) {
            @Override
            public Optional<String> diagnose(INDArray x, double[] y) {
                throw new IllegalArgumentException("sigmas[3][0] must be > 0 and finite, got 0.0");
            }
        };
        TrainingResult u = new Trainer(config.withValidationFraction(0)).fit(unpredictable, data(40));
        assertEquals(TrainingResult.StopReason.FAILED, u.stopReason());
        assertTrue(u.message().startsWith("training failed: the trained model cannot predict the training rows: "
                + "sigmas[3][0] must be > 0 and finite, got 0.0 (after 3 epochs"), u.message());
    }

    @Test
    void aNonFiniteValidationLossBeforeTrainingIsReportedWithoutAdvice() {
        Hooked m = new Hooked((call, loss) -> loss) {
            @Override
            public double evaluate(INDArray x, double[] y, Arena arena) {
                return Double.NaN;
            }
        };
        TrainingResult r = new Trainer(TrainerConfig.defaults()).fit(m, data(40));
        assertEquals("training diverged: validation loss NaN before training (check the data and the model's "
                + "initialisation)", r.message());
        assertEquals(0, r.steps());
    }

    @Test
    void aRunStoppedByTheEpochCapWhileStillImprovingSaysSo() {
        // lr 1e-4 on a linear model: every epoch improves, so the cap of 3 ends the run early
        TrainerConfig config = TrainerConfig.defaults().withBatchSize(10).withLearningRate(1e-4).withMaxEpochs(3);
        TrainingResult r = new Trainer(config).fit(new LinearRegressionModel(2), data(100));
        assertEquals(TrainingResult.StopReason.MAX_EPOCHS, r.stopReason());
        assertTrue(r.stillImproving() && !r.failed());
        assertTrue(r.message().endsWith("at epoch 3; it was still falling at the epoch cap: more epochs (maxEpochs) or a "
                + "higher learning rate (now 0.000100) may fit better"), r.message());
    }
}
