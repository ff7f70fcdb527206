package io.regheads.core.train;

import io.regheads.core.data.Dataset;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Simd;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.core.optim.Optimizer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

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
 * Without validation the run lasts {@code maxEpochs} epochs and keeps the final weights. Steps 2 to 7 are the
 * {@link EpochLoop}, which this class feeds with batches of rows in memory; a trainer that computes its steps
 * elsewhere (over a cluster's partitions) runs the same loop, so it stops, restores and reports by the same rules.
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
        return new EpochLoop(config, listener).run(params, optimizer, new DatasetPasses(model, train, validation, type));
    }

    /**
     * The rows of one fit call as the {@link EpochLoop} asks for them: seeded shuffles, mini-batches copied into
     * preallocated arrays, the model's steps and validation losses, and its diagnosis.
     */
    private final class DatasetPasses implements EpochLoop.Passes {
        private final TrainableModel model;
        private final Dataset train;
        private final Dataset validation;
        private final DataType type;
        private final Arena arena = Arena.create();
        private final Map<Integer, INDArray> xBuffers = new HashMap<>();
        private final Map<Integer, double[]> yBuffers = new HashMap<>();
        private final UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed());
        private final int[] order;

        DatasetPasses(TrainableModel model, Dataset train, Dataset validation, DataType type) {
            this.model = model;
            this.train = train;
            this.validation = validation;
            this.type = type;
            this.order = PermutationSampler.natural(train.rows());
        }

        @Override
        public long trainRows() {
            return train.rows();
        }

        @Override
        public int stepsPerEpoch() {
            int b = config.batchSize();
            return (train.rows() + b - 1) / b;
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
            int b = config.batchSize();
            int from = (step - 1) * b;
            int count = Math.min(b, train.rows() - from);
            INDArray x = xBuffer(count);
            double[] y = yBuffer(count);
            train.copyRows(order, from, count, x);
            train.copyTargets(order, from, count, y);
            arena.reset();
            double loss = model.trainStep(x, y, arena);
            return new EpochLoop.StepLoss(loss, loss * count);
        }

        @Override
        public double validationLoss() {
            int n = validation.rows();
            int b = config.batchSize();
            int[] natural = PermutationSampler.natural(n);
            double sum = 0;
            for (int from = 0; from < n; from += b) {
                int count = Math.min(b, n - from);
                INDArray x = xBuffer(count);
                double[] y = yBuffer(count);
                validation.copyRows(natural, from, count, x);
                validation.copyTargets(natural, from, count, y);
                arena.reset();
                sum += model.evaluate(x, y, arena) * count;
            }
            return sum / n;
        }

        @Override
        public Optional<String> diagnose() {
            Dataset rows = validation != null ? validation : train;
            int count = Math.min(DIAGNOSE_ROWS, rows.rows());
            INDArray x = xBuffer(count);
            double[] y = yBuffer(count);
            int[] natural = PermutationSampler.natural(rows.rows());
            rows.copyRows(natural, 0, count, x);
            rows.copyTargets(natural, 0, count, y);
            return model.diagnose(x, y);
        }

        private INDArray xBuffer(int count) {
            return xBuffers.computeIfAbsent(count, c -> Nd4j.create(type, c, train.features()));
        }

        private double[] yBuffer(int count) {
            return yBuffers.computeIfAbsent(count, double[]::new);
        }
    }
}
