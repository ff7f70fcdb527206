package io.regheads.core.train;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Param;
import io.regheads.core.optim.GradientClipping;
import io.regheads.core.optim.Optimizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The epoch logic of a training run, apart from where its batches come from: the loss before training, epochs of
 * steps (clipping, optimizer step), the validation loss after each epoch, early stopping with a copy of the best
 * weights, the divergence rules, the final diagnosis, and the {@link TrainingResult} with its stop reason and
 * message. {@link Trainer} runs it on rows in memory; a trainer that computes its steps elsewhere (over a cluster's
 * partitions) runs the same loop and so stops, restores and reports exactly as {@link Trainer} does.
 *
 * <p>The rules are those of {@link Trainer}'s class description (steps 2 to 7): the loop asks its {@link Passes} for
 * the numbers and decides. Per step it zeroes the gradients ({@link Optimizer#zeroGrad}), lets {@link Passes#step}
 * fill them, checks the loss (and, when clipping, the gradient norm), then takes the optimizer step. An exception
 * from {@link Passes#step} or from a validation after an epoch counts as divergence only when a parameter is then
 * not finite or exploded; otherwise it is rethrown unchanged.
 *
 * <p>Example, as {@link Trainer} uses it: {@code new EpochLoop(config, listener).run(model.params(), new AdamW(...),
 * passes)}.
 *
 * <p>An EpochLoop holds only its configuration and listener; {@link #run} mutates the parameters' values and
 * gradients and the optimizer's state. Not for concurrent use on the same parameters.
 */
public final class EpochLoop {
    /** The logger of {@link Trainer}: the loop's warnings are the trainer's. */
    private static final Logger LOG = LoggerFactory.getLogger(Trainer.class);

    private final TrainerConfig config;
    private final ProgressListener listener;

    /**
     * A loop with {@code config}'s epochs, patience and clipping (its batch size, seed and validation fraction are
     * the {@link Passes}' business), reporting to {@code listener}.
     *
     * @throws IllegalArgumentException if an argument is null
     */
    public EpochLoop(TrainerConfig config, ProgressListener listener) {
        this.config = Checks.notNull("config", config);
        this.listener = Checks.notNull("listener", listener);
    }

    /**
     * The loss of one training step.
     *
     * @param mean the mean loss over the step's rows (checked for divergence, reported to the listener)
     * @param sum  the step's share of the epoch's training loss: the loss summed over its rows ({@code mean * rows}
     *             for one batch); the epoch's training loss is the sum of these over {@link Passes#trainRows()}
     */
    public record StepLoss(double mean, double sum) {}

    /**
     * Where the steps, validation losses and the diagnosis come from. The loop calls, in this order: {@link
     * #validationLoss} once before training (when validating); per epoch {@link #beginEpoch}, {@link #step} for each
     * of {@link #stepsPerEpoch} steps, and {@link #validationLoss} (when validating); {@link #diagnose} once at the
     * end of a run that did not diverge. Every call sees the parameters' current values.
     */
    public interface Passes {
        /** Rows trained on per epoch, >= 1 (the epoch's training loss is the sum of its steps' sums over these). */
        long trainRows();

        /** Steps per epoch, >= 1. */
        int stepsPerEpoch();

        /** Whether there are validation rows (early stopping on them), or none (the run lasts every epoch). */
        boolean validates();

        /**
         * Called before the first step of epoch {@code epoch} (1-based), e.g. to shuffle the training rows.
         *
         * @param epoch 1-based
         */
        void beginEpoch(int epoch);

        /**
         * One step's gradient: sets every parameter's gradient to d(mean loss over the step's rows)/d(param) (the
         * loop zeroed them just before) without changing the values.
         *
         * @param epoch 1-based epoch
         * @param step  1-based step within the epoch
         * @return the step's loss
         */
        StepLoss step(int epoch, int step);

        /** The row-weighted mean loss over the validation rows at the current values (only when validating). */
        double validationLoss();

        /**
         * {@link TrainableModel#diagnose} on up to {@value Trainer#DIAGNOSE_ROWS} validation rows (training rows
         * without validation) at the current values: a description of the problem, or empty.
         */
        Optional<String> diagnose();
    }

    /**
     * Trains {@code params} with {@code optimizer} on what {@code passes} computes, as {@link Trainer} does.
     *
     * @param params    the parameters, in the optimizer's order (values copied for the best-weights snapshot)
     * @param optimizer updates exactly {@code params}
     * @param passes    the steps, validation losses and diagnosis
     * @return the run's epochs, losses, stop reason and message; the parameters hold the weights it names
     * @throws IllegalArgumentException if an argument is null, params is empty, the optimizer does not update
     *                                  exactly params, or passes reports no training rows or steps
     */
    public TrainingResult run(List<Param> params, Optimizer optimizer, Passes passes) {
        Checks.notNull("params", params);
        Checks.notNull("optimizer", optimizer);
        Checks.notNull("passes", passes);
        List<Param> p = List.copyOf(params);
        Checks.require(!p.isEmpty(), "params must not be empty, got 0 parameters");
        Checks.require(optimizer.params().equals(p), "optimizer must update exactly params in order, got %s vs %s",
                optimizer.params(), p);
        Checks.require(passes.trainRows() >= 1, "passes must have at least 1 training row, got %d", passes.trainRows());
        Checks.require(passes.stepsPerEpoch() >= 1, "passes must have at least 1 step per epoch, got %d",
                passes.stepsPerEpoch());
        return new Run(p, optimizer, passes).run();
    }

    /** The state of one run. */
    private final class Run {
        private final List<Param> params;
        private final Optimizer optimizer;
        private final Passes passes;
        private final boolean validating;
        private final INDArray[] snapshot; // copies of the parameter values (separate memory)
        private final long start = System.nanoTime();
        private final List<Double> trainLosses = new ArrayList<>();
        private final List<Double> validationLosses = new ArrayList<>();
        private final double parameterLimit;
        private double initialLoss = Double.NaN; // validation loss before training, else the first batch's loss
        private double bestVal = Double.NaN;
        private int bestEpoch;
        private long steps;

        Run(List<Param> params, Optimizer optimizer, Passes passes) {
            this.params = params;
            this.optimizer = optimizer;
            this.passes = passes;
            this.validating = passes.validates();
            this.snapshot = new INDArray[params.size()];
            double largest = 0;
            for (int i = 0; i < snapshot.length; i++) {
                snapshot[i] = params.get(i).value().dup('c'); // initial weights: restored if nothing better exists
                largest = Math.max(largest, snapshot[i].amaxNumber().doubleValue());
            }
            this.parameterLimit = Trainer.PARAMETER_GROWTH * Math.max(largest, 1);
        }

        TrainingResult run() {
            long n = passes.trainRows();
            int stepsPerEpoch = passes.stepsPerEpoch();
            if (validating) {
                initialLoss = passes.validationLoss(); // an exception here is not divergence: nothing was trained yet
                if (!Double.isFinite(initialLoss)) {
                    return diverged(0, "validation loss " + initialLoss + " before training (check the data and the "
                            + "model's initialisation)", false);
                }
            }
            int bad = 0;
            int farSteps = 0; // consecutive steps with a training loss far above L0
            String suspect = null; // why the last epoch ended unhealthy: the next one must recover, or the run diverged
            int epoch = 0;
            while (epoch < config.maxEpochs()) {
                epoch++;
                passes.beginEpoch(epoch);
                double sum = 0;
                String spike = null; // the epoch's first training loss far above L0, described
                double afterSpike = 0; // summed mean training loss of the steps after the epoch's last spike
                int afterSpikeSteps = 0;
                for (int step = 1; step <= stepsPerEpoch; step++) {
                    optimizer.zeroGrad();
                    StepLoss s;
                    try {
                        s = passes.step(epoch, step);
                    } catch (RuntimeException e) {
                        return numericFailure(e, epoch, "at epoch " + epoch + ", step " + step);
                    }
                    double loss = s.mean();
                    if (!Double.isFinite(loss)) {
                        return diverged(epoch, "loss " + loss + " at epoch " + epoch + ", step " + step, true);
                    }
                    if (Double.isNaN(initialLoss)) {
                        initialLoss = loss; // without validation: the first batch's loss, before any update
                    } else if (!farAbove(loss)) {
                        farSteps = 0;
                        afterSpike += loss;
                        afterSpikeSteps++;
                    } else if (++farSteps >= Trainer.SPIKE_STEPS) {
                        return diverged(epoch, String.format(Locale.ROOT, "training loss %.4g at epoch %d, step %d is far "
                                + "above its value before training (%.4g) for %d steps in a row", loss, epoch, step,
                                initialLoss, farSteps), true);
                    } else {
                        if (spike == null) {
                            spike = String.format(Locale.ROOT, "training loss %.4g at epoch %d, step %d is far above its "
                                    + "value before training (%.4g)", loss, epoch, step, initialLoss);
                        }
                        afterSpike = 0;
                        afterSpikeSteps = 0;
                    }
                    if (config.clipping()) {
                        double norm = GradientClipping.clipByGlobalNorm(params, config.clipNorm());
                        if (!Double.isFinite(norm)) {
                            return diverged(epoch, "gradient norm " + norm + " at epoch " + epoch + ", step " + step, true);
                        }
                    }
                    optimizer.step();
                    steps++;
                    sum += s.sum();
                    double lastVal = validationLosses.isEmpty() ? Double.NaN : validationLosses.get(validationLosses.size() - 1);
                    listener.onStep(new Progress(epoch, config.maxEpochs(), step, stepsPerEpoch, loss, lastVal, bestVal,
                            bestEpoch, elapsed()));
                }
                String badParam = checkParameters();
                if (badParam != null) {
                    return diverged(epoch, badParam + " after epoch " + epoch, true);
                }
                double trainLoss = sum / n;
                trainLosses.add(trainLoss);
                if (!validating) {
                    boolean healthy = spike == null ? trainLoss < initialLoss || suspect == null
                            : afterSpikeSteps > 0 && afterSpike / afterSpikeSteps < initialLoss;
                    if (!healthy && suspect != null) {
                        trainLosses.remove(trainLosses.size() - 1);
                        return diverged(epoch, suspect + String.format(Locale.ROOT, "; epoch %d did not recover (mean "
                                + "training loss %.4g)", epoch, trainLoss), true);
                    }
                    suspect = healthy ? null : spike + (afterSpikeSteps == 0 ? " and no step of the epoch followed it"
                            : String.format(Locale.ROOT, " and the mean training loss of the epoch's steps after it "
                                    + "(%.4g) is not below that", afterSpike / afterSpikeSteps));
                    validationLosses.add(Double.NaN);
                    if (suspect == null) {
                        bestEpoch = epoch;
                        copy(true); // the last healthy epoch is the fallback after a divergence
                    }
                    listener.onEpochEnd(new Progress(epoch, config.maxEpochs(), stepsPerEpoch, stepsPerEpoch, trainLoss,
                            Double.NaN, Double.NaN, 0, elapsed()));
                    continue;
                }
                double val;
                try {
                    val = passes.validationLoss();
                } catch (RuntimeException e) {
                    trainLosses.remove(trainLosses.size() - 1);
                    return numericFailure(e, epoch, "in the validation after epoch " + epoch);
                }
                if (!Double.isFinite(val)) {
                    trainLosses.remove(trainLosses.size() - 1);
                    return diverged(epoch, "validation loss " + val + " at epoch " + epoch, true);
                }
                if (suspect != null && !(val < initialLoss)) {
                    trainLosses.remove(trainLosses.size() - 1);
                    return diverged(epoch, suspect + String.format(Locale.ROOT, "; epoch %d did not recover (validation "
                            + "loss %.4g)", epoch, val), true);
                }
                suspect = farAbove(val) ? String.format(Locale.ROOT, "validation loss %.4g at epoch %d is far above its "
                        + "value before training (%.4g)", val, epoch, initialLoss)
                        : spike != null && !(val < initialLoss) ? spike + String.format(Locale.ROOT, " and the validation "
                                + "loss after the epoch (%.4g) is not below that", val) : null;
                validationLosses.add(val);
                if (suspect == null && (bestEpoch == 0 || val < bestVal)) {
                    bestVal = val;
                    bestEpoch = epoch;
                    bad = 0;
                    copy(true);
                } else {
                    bad++;
                }
                listener.onEpochEnd(new Progress(epoch, config.maxEpochs(), stepsPerEpoch, stepsPerEpoch, trainLoss, val,
                        bestVal, bestEpoch, elapsed()));
                if (bad >= config.patience()) {
                    copy(false);
                    return checked(epoch, TrainingResult.StopReason.EARLY_STOPPED, String.format(Locale.ROOT,
                            "stopped early after epoch %d: best validation loss %.6g at epoch %d", epoch, bestVal,
                            bestEpoch));
                }
            }
            if (suspect != null) {
                return diverged(epoch, suspect + "; the run ended before it could recover", true);
            }
            if (validating) {
                copy(false);
                return checked(epoch, TrainingResult.StopReason.MAX_EPOCHS, String.format(Locale.ROOT,
                        "finished %d epochs: best validation loss %.6g at epoch %d", epoch, bestVal, bestEpoch)
                        + (bestEpoch == epoch ? "; it was still falling at the epoch cap: more epochs (maxEpochs) or a "
                                + "higher learning rate (now " + String.format(Locale.ROOT, "%.3g", optimizer.learningRate())
                                + ") may fit better" : ""));
            }
            return checked(epoch, TrainingResult.StopReason.MAX_EPOCHS, String.format(Locale.ROOT,
                    "finished %d epochs: train loss %.6g", epoch, trainLosses.get(trainLosses.size() - 1)));
        }

        /** A loss more than {@link Trainer#EXPLOSION_FACTOR} times max(|L0|, 1) above the loss L0 before training. */
        private boolean farAbove(double loss) {
            return loss - initialLoss > Trainer.EXPLOSION_FACTOR * Math.max(Math.abs(initialLoss), 1);
        }

        /**
         * The first parameter that is not finite or grew beyond {@link Trainer#PARAMETER_GROWTH} times max(its run's
         * initial largest magnitude, 1), described; null if all are fine. One host copy per parameter.
         */
        private String checkParameters() {
            for (Param p : params) {
                double[] v = Host.doubles(p.value());
                for (int i = 0; i < v.length; i++) {
                    if (!(Math.abs(v[i]) <= parameterLimit)) { // NaN falls in here
                        return Double.isFinite(v[i])
                                ? String.format(Locale.ROOT, "parameter '%s' exploded (%.4g at flat index %d, beyond %.3g)",
                                        p.name(), v[i], i, parameterLimit)
                                : "parameter '" + p.name() + "' is not finite (" + v[i] + " at flat index " + i + ")";
                    }
                }
            }
            return null;
        }

        /**
         * An exception from the model during training: divergence if the parameters show it (a non-finite or
         * exploded value made the model refuse its own output); otherwise a genuine error, rethrown.
         */
        private TrainingResult numericFailure(RuntimeException e, int epoch, String where) {
            String badParam = checkParameters();
            if (badParam == null) {
                throw e;
            }
            return diverged(epoch, badParam + " " + where + " (the model then failed: " + e.getMessage() + ")", true);
        }

        private TrainingResult diverged(int epoch, String what, boolean suggest) {
            copy(false);
            return finish(epoch, TrainingResult.StopReason.DIVERGED,
                    "training diverged: " + what + (suggest ? "; " + suggestion() : ""));
        }

        /** What to try after a failure. */
        private String suggestion() {
            return String.format(Locale.ROOT, "try a lower learning rate (now %.3g)", optimizer.learningRate())
                    + (config.clipping() ? "" : " or gradient clipping (clipNorm)");
        }

        /** Finishes a run that did not diverge, after asking the model whether its predictions are usable. */
        private TrainingResult checked(int epochs, TrainingResult.StopReason reason, String message) {
            Optional<String> problem;
            try {
                problem = passes.diagnose();
            } catch (RuntimeException e) {
                problem = Optional.of("the trained model cannot predict the " + (validating ? "validation" : "training")
                        + " rows: " + e.getMessage());
            }
            if (problem != null && problem.isPresent()) {
                return finish(epochs, TrainingResult.StopReason.FAILED, "training failed: " + problem.get() + " (after "
                        + epochs + " epochs, weights of epoch " + bestEpoch + "); " + suggestion());
            }
            return finish(epochs, reason, message);
        }

        private TrainingResult finish(int epochs, TrainingResult.StopReason reason, String message) {
            TrainingResult r = new TrainingResult(epochs, bestEpoch, bestVal, trainLosses, validationLosses, reason,
                    message, steps, elapsed());
            if (r.failed()) {
                LOG.warn(message);
            } else if (validating && !(bestVal < initialLoss)) {
                String m = String.format(Locale.ROOT, "no epoch improved on the validation loss of the initial weights "
                        + "(%.6g; best %.6g at epoch %d): the model learned nothing it can show on held-out rows; %s",
                        initialLoss, bestVal, bestEpoch, "try another learning rate (now " + String.format(Locale.ROOT,
                                "%.3g", optimizer.learningRate()) + "), loss or head");
                LOG.warn(m);
                listener.onWarning(m);
            }
            listener.onFinish(r);
            return r;
        }

        /** {@code toSnapshot}: parameters -> copies; otherwise copies -> parameters (restore). */
        private void copy(boolean toSnapshot) {
            for (int i = 0; i < snapshot.length; i++) {
                if (toSnapshot) {
                    snapshot[i].assign(params.get(i).value());
                } else {
                    params.get(i).value().assign(snapshot[i]);
                }
            }
        }

        private Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }
}
