package io.regheads.core.train;

import io.regheads.core.data.Dataset;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.internal.Simd;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.core.optim.GradientClipping;
import io.regheads.core.optim.Optimizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mini-batch training with early stopping, for any {@link TrainableModel}.
 *
 * <p>One run ({@link #fit}):
 * <ol>
 *   <li>Validation split: {@link #fit(TrainableModel, Dataset)} holds out {@code round(validationFraction * N)}
 *       rows (at least 1, at most N - 1) chosen by a seeded permutation; {@link #fit(TrainableModel, Dataset,
 *       Dataset)} takes an explicit validation set (or {@code null} for none).</li>
 *   <li>Each epoch shuffles the training rows (commons-rng {@code XO_RO_SHI_RO_128_PP} seeded with {@code
 *       config.seed()}, so a run is reproducible) and walks them in mini-batches of {@code batchSize}; the last,
 *       partial batch is kept. Per step: zero gradients, {@code model.trainStep}, optional global-norm clipping,
 *       optimizer step.</li>
 *   <li>After each epoch the validation loss is the row-weighted mean of {@code model.evaluate} over chunks of
 *       {@code batchSize}. A strictly lower loss copies the parameter values into separate, preallocated arrays
 *       (never aliases); {@code patience} epochs without improvement stop the run. At the end the best copy is
 *       written back, so the model holds the best-validation weights.</li>
 *   <li>Before the first step the validation loss L0 of the initial weights is computed (without validation,
 *       L0 is the first batch's training loss).</li>
 *   <li>Divergence ends the run with {@link TrainingResult.StopReason#DIVERGED}: a non-finite training loss,
 *       gradient norm (checked when clipping) or validation loss; a training loss far above L0 ({@code L - L0 >
 *       }{@value #EXPLOSION_FACTOR}{@code  * max(|L0|, 1)}) in {@value #SPIKE_STEPS} consecutive steps; an
 *       unhealthy epoch followed by another epoch (or the run's end) without recovery. An epoch is unhealthy when its
 *       validation loss is that far above L0, or when it had a spike (fewer such training losses in a row) and its
 *       validation loss (without validation: the mean training loss of the steps after its last spike) is not below
 *       L0; the next epoch recovers when its validation loss (without validation: its mean training loss, and the
 *       steps after any spike) is below L0. An unhealthy epoch's weights are never kept as the best. (A mixture
 *       density head's loss can jump a millionfold for a step or an epoch when a row with unusual inputs meets the
 *       weights of the moment, on the larger UCI sets in the first epochs, and the run then goes on to learn.) A
 *       parameter, checked at each epoch's end, that is not finite or larger in magnitude than {@value
 *       #PARAMETER_GROWTH} times max(its run's largest initial magnitude, 1) (a non-finite gradient shows up here, or
 *       as a non-finite loss at the next step); or an exception from the model while such a parameter is present
 *       (the model refused its own non-finite output; with healthy parameters the exception is rethrown as the
 *       error it is). The message says what, where and what to try, e.g. {@code "training diverged: validation loss
 *       2.229e+11 at epoch 1 is far above its value before training (0.04130); epoch 2 did not recover (validation
 *       loss 3.100e+12); try a lower learning rate (now 10.0) or gradient clipping (clipNorm)"} (1-based epoch and
 *       step within the epoch). The model gets back the best weights so far (or, without validation, those at the
 *       end of the last healthy epoch; the initial ones if none).</li>
 *   <li>A run that did not diverge ends with {@link TrainableModel#diagnose} on up to {@value #DIAGNOSE_ROWS}
 *       validation rows (training rows without validation) and the weights the model keeps; a reported problem
 *       makes it {@link TrainingResult.StopReason#FAILED}, e.g. {@code "training failed: every one of the 100 rows
 *       gets the same predictive distribution ..."}.</li>
 *   <li>{@link TrainingResult#requireConverged()} turns either failure into a {@link TrainingFailedException}.</li>
 *   <li>Logged through SLF4J at WARN (logger {@code io.regheads.core.train.Trainer}): a failed run's message, and a
 *       run with validation in which no epoch's weights had a validation loss below L0 (also given to the
 *       listener's {@link ProgressListener#onWarning}): the model kept learned nothing that held-out rows show.</li>
 * </ol>
 * Without validation the run lasts {@code maxEpochs} epochs and keeps the final weights.
 *
 * <p>Batches are copied into preallocated arrays (one per distinct batch size) and the model gets one {@link
 * Arena} reused across steps, so the loop itself allocates nothing per step beyond what the model does.
 *
 * <p>Example:
 * <pre>{@code
 * TrainingResult r = new Trainer(TrainerConfig.defaults().withSeed(7), new ConsoleProgress(System.err))
 *         .fit(model, trainSet).requireConverged();
 * }</pre>
 *
 * <p>A Trainer holds only its configuration and listener; {@code fit} mutates the model's parameters. Not for
 * concurrent use on the same model.
 */
public final class Trainer {
    private static final Logger LOG = LoggerFactory.getLogger(Trainer.class);
    /**
     * A training or validation loss L counts as diverged when {@code L - L0 > EXPLOSION_FACTOR * max(|L0|, 1)}, L0
     * the loss before training.
     */
    public static final double EXPLOSION_FACTOR = 100;
    /**
     * Consecutive steps whose training loss is far above L0 (see {@link #EXPLOSION_FACTOR}) that count as divergence;
     * fewer are a spike the run goes on through.
     */
    public static final int SPIKE_STEPS = 3;
    /** A parameter counts as exploded beyond {@code PARAMETER_GROWTH * max(largest initial |parameter|, 1)}. */
    public static final double PARAMETER_GROWTH = 1e6;
    /** Rows passed to {@link TrainableModel#diagnose} after training. */
    public static final int DIAGNOSE_ROWS = 256;

    private final TrainerConfig config;
    private final ProgressListener listener;

    /** A trainer without progress output. */
    public Trainer(TrainerConfig config) {
        this(config, ProgressListener.none());
    }

    /** A trainer reporting to {@code listener}. */
    public Trainer(TrainerConfig config, ProgressListener listener) {
        this.config = Checks.notNull("config", config);
        this.listener = Checks.notNull("listener", listener);
    }

    /** {@return the settings} */
    public TrainerConfig config() {
        return config;
    }

    /**
     * Trains on {@code data} minus a validation split of {@code config.validationFraction()} (none if 0).
     *
     * @throws IllegalArgumentException if an argument is null, or a validation split is asked for with fewer
     *                                  than 2 rows
     */
    public TrainingResult fit(TrainableModel model, Dataset data) {
        Checks.notNull("model", model);
        Holdout h = holdout(data);
        return fit(model, h.train(), h.validation());
    }

    /**
     * The rows this trainer trains on and the rows it validates on, as {@link #fit(TrainableModel, Dataset)}
     * splits them: {@code round(validationFraction * n)} rows (at least 1, at most n - 1) drawn by a seeded
     * permutation; no validation set when the fraction is 0.
     *
     * @param train      training rows
     * @param validation validation rows, or null
     */
    public record Holdout(Dataset train, Dataset validation) {}

    /** Splits {@code data} into training and validation rows (see {@link Holdout}). */
    public Holdout holdout(Dataset data) {
        Checks.notNull("data", data);
        if (config.validationFraction() == 0) {
            return new Holdout(data, null);
        }
        int n = data.rows();
        Checks.require(n >= 2, "data must have at least 2 rows for a validation split, got %d", n);
        int nVal = (int) Math.max(1, Math.min(n - 1, Math.round(config.validationFraction() * n)));
        int[] order = PermutationSampler.natural(n);
        // a seed stream separate from the epoch shuffles: the split does not depend on later draws
        PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed() ^ 0x5DEECE66DL), order);
        return new Holdout(data.subset(order, nVal, n - nVal), data.subset(order, 0, nVal));
    }

    /**
     * Trains on {@code train} with early stopping on {@code validation} ({@code null}: no early stopping), with
     * AdamW (lr {@code config.learningRate()}, decoupled weight decay {@code config.weightDecay()}, PyTorch betas
     * and eps).
     */
    public TrainingResult fit(TrainableModel model, Dataset train, Dataset validation) {
        Checks.notNull("model", model);
        List<Param> params = Checks.notNull("model.params()", model.params());
        AdamConfig adam = new AdamConfig(config.learningRate(), 0.9, 0.999, 1e-8, config.weightDecay());
        return fit(model, train, validation, new AdamW(params, adam));
    }

    /**
     * As {@link #fit(TrainableModel, Dataset, Dataset)} with a caller-supplied optimizer (its learning rate is
     * used as is; {@code config.learningRate()} and {@code weightDecay()} are ignored).
     *
     * @throws IllegalArgumentException if an argument is null, the optimizer does not update exactly the model's
     *                                  parameters, or train and validation differ in width
     */
    public TrainingResult fit(TrainableModel model, Dataset train, Dataset validation, Optimizer optimizer) {
        Checks.notNull("model", model);
        Checks.notNull("train", train);
        Checks.notNull("optimizer", optimizer);
        List<Param> params = List.copyOf(model.params());
        Checks.require(!params.isEmpty(), "model.params() must not be empty, got 0 parameters");
        Checks.require(optimizer.params().equals(params),
                "optimizer must update exactly model.params() in order, got %s vs %s", optimizer.params(), params);
        if (validation != null) {
            Checks.require(validation.features() == train.features(),
                    "validation must have the %d features of train, got %d", train.features(), validation.features());
        }
        DataType type = model.dataType();
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE,
                "model.dataType() must be FLOAT or DOUBLE, got %s", type);
        Simd.warmUpNow(); // the SIMD kernels compiled while training runs, not over the first predictions after it
        return new Run(model, params, optimizer, train, validation, type).run();
    }

    /** The state of one fit call. */
    private final class Run {
        private final TrainableModel model;
        private final List<Param> params;
        private final Optimizer optimizer;
        private final Dataset train;
        private final Dataset validation;
        private final DataType type;
        private final Arena arena = Arena.create();
        private final Map<Integer, INDArray> xBuffers = new HashMap<>();
        private final Map<Integer, double[]> yBuffers = new HashMap<>();
        private final INDArray[] snapshot; // copies of the parameter values (separate memory)
        private final long start = System.nanoTime();
        private final List<Double> trainLosses = new ArrayList<>();
        private final List<Double> validationLosses = new ArrayList<>();
        private final double parameterLimit;
        private double initialLoss = Double.NaN; // validation loss before training, else the first batch's loss
        private double bestVal = Double.NaN;
        private int bestEpoch;
        private long steps;

        Run(TrainableModel model, List<Param> params, Optimizer optimizer, Dataset train, Dataset validation,
                DataType type) {
            this.model = model;
            this.params = params;
            this.optimizer = optimizer;
            this.train = train;
            this.validation = validation;
            this.type = type;
            this.snapshot = new INDArray[params.size()];
            double largest = 0;
            for (int i = 0; i < snapshot.length; i++) {
                snapshot[i] = params.get(i).value().dup('c'); // initial weights: restored if nothing better exists
                largest = Math.max(largest, snapshot[i].amaxNumber().doubleValue());
            }
            this.parameterLimit = PARAMETER_GROWTH * Math.max(largest, 1);
        }

        TrainingResult run() {
            UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed());
            int n = train.rows();
            int b = config.batchSize();
            int stepsPerEpoch = (n + b - 1) / b;
            int[] order = PermutationSampler.natural(n);
            if (validation != null) {
                initialLoss = evaluate(); // an exception here is not divergence: nothing was trained yet
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
                PermutationSampler.shuffle(rng, order);
                double sum = 0;
                String spike = null; // the epoch's first training loss far above L0, described
                double afterSpike = 0; // row-weighted training loss of the steps after the epoch's last spike
                int afterSpikeRows = 0;
                for (int step = 1; step <= stepsPerEpoch; step++) {
                    int from = (step - 1) * b;
                    int count = Math.min(b, n - from);
                    INDArray x = xBuffer(count);
                    double[] y = yBuffer(count);
                    train.copyRows(order, from, count, x);
                    train.copyTargets(order, from, count, y);
                    optimizer.zeroGrad();
                    arena.reset();
                    double loss;
                    try {
                        loss = model.trainStep(x, y, arena);
                    } catch (RuntimeException e) {
                        return numericFailure(e, epoch, "at epoch " + epoch + ", step " + step);
                    }
                    if (!Double.isFinite(loss)) {
                        return diverged(epoch, "loss " + loss + " at epoch " + epoch + ", step " + step, true);
                    }
                    if (Double.isNaN(initialLoss)) {
                        initialLoss = loss; // without validation: the first batch's loss, before any update
                    } else if (!farAbove(loss)) {
                        farSteps = 0;
                        afterSpike += loss * count;
                        afterSpikeRows += count;
                    } else if (++farSteps >= SPIKE_STEPS) {
                        return diverged(epoch, String.format(Locale.ROOT, "training loss %.4g at epoch %d, step %d is far "
                                + "above its value before training (%.4g) for %d steps in a row", loss, epoch, step,
                                initialLoss, farSteps), true);
                    } else {
                        if (spike == null) {
                            spike = String.format(Locale.ROOT, "training loss %.4g at epoch %d, step %d is far above its "
                                    + "value before training (%.4g)", loss, epoch, step, initialLoss);
                        }
                        afterSpike = 0;
                        afterSpikeRows = 0;
                    }
                    if (config.clipping()) {
                        double norm = GradientClipping.clipByGlobalNorm(params, config.clipNorm());
                        if (!Double.isFinite(norm)) {
                            return diverged(epoch, "gradient norm " + norm + " at epoch " + epoch + ", step " + step, true);
                        }
                    }
                    optimizer.step();
                    steps++;
                    sum += loss * count;
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
                if (validation == null) {
                    boolean healthy = spike == null ? trainLoss < initialLoss || suspect == null
                            : afterSpikeRows > 0 && afterSpike / afterSpikeRows < initialLoss;
                    if (!healthy && suspect != null) {
                        trainLosses.remove(trainLosses.size() - 1);
                        return diverged(epoch, suspect + String.format(Locale.ROOT, "; epoch %d did not recover (mean "
                                + "training loss %.4g)", epoch, trainLoss), true);
                    }
                    suspect = healthy ? null : spike + (afterSpikeRows == 0 ? " and no step of the epoch followed it"
                            : String.format(Locale.ROOT, " and the mean training loss of the epoch's steps after it "
                                    + "(%.4g) is not below that", afterSpike / afterSpikeRows));
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
                    val = evaluate();
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
            if (validation != null) {
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

        /** A loss more than {@link #EXPLOSION_FACTOR} times max(|L0|, 1) above the loss L0 before training. */
        private boolean farAbove(double loss) {
            return loss - initialLoss > EXPLOSION_FACTOR * Math.max(Math.abs(initialLoss), 1);
        }

        /**
         * The first parameter that is not finite or grew beyond {@link #PARAMETER_GROWTH} times max(its run's initial
         * largest magnitude, 1), described; null if all are fine. One host copy per parameter.
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
            Dataset rows = validation != null ? validation : train;
            int count = Math.min(DIAGNOSE_ROWS, rows.rows());
            INDArray x = xBuffer(count);
            double[] y = yBuffer(count);
            int[] order = PermutationSampler.natural(rows.rows());
            rows.copyRows(order, 0, count, x);
            rows.copyTargets(order, 0, count, y);
            Optional<String> problem;
            try {
                problem = model.diagnose(x, y);
            } catch (RuntimeException e) {
                problem = Optional.of("the trained model cannot predict the " + (validation != null ? "validation" : "training")
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
            } else if (validation != null && !(bestVal < initialLoss)) {
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

        private double evaluate() {
            int n = validation.rows();
            int b = config.batchSize();
            int[] order = PermutationSampler.natural(n);
            double sum = 0;
            for (int from = 0; from < n; from += b) {
                int count = Math.min(b, n - from);
                INDArray x = xBuffer(count);
                double[] y = yBuffer(count);
                validation.copyRows(order, from, count, x);
                validation.copyTargets(order, from, count, y);
                arena.reset();
                sum += model.evaluate(x, y, arena) * count;
            }
            return sum / n;
        }

        private INDArray xBuffer(int count) {
            return xBuffers.computeIfAbsent(count, c -> Nd4j.create(type, c, train.features()));
        }

        private double[] yBuffer(int count) {
            return yBuffers.computeIfAbsent(count, double[]::new);
        }

        private Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }
}
