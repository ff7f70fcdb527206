package io.regheads.spark;

import io.regheads.core.data.TargetTransform;
import io.regheads.core.internal.Checks;
import io.regheads.core.nn.Param;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.core.optim.GradientClipping;
import io.regheads.core.optim.Optimizer;
import io.regheads.core.train.Progress;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.internal.NoiseLevel;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseHead;
import io.regheads.spark.internal.ColumnMoments;
import io.regheads.spark.internal.ExecutorModels;
import io.regheads.spark.internal.Failures;
import io.regheads.spark.internal.FlatParams;
import io.regheads.spark.internal.ModelPayload;
import io.regheads.spark.internal.ScalerAnchor;
import io.regheads.spark.internal.StepSums;
import io.regheads.spark.internal.TrainingBlock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Trains a {@link RegressionModel} on a {@code Dataset<Row>} spread over a cluster: synchronous data-parallel
 * mini-batch training in which every step's gradient is the mean over the union of the partitions' batches.
 *
 * <pre>{@code
 * DataParallelTrainer.Result r = new DataParallelTrainer(ModelConfig.defaults(new MixtureSpec(10)))
 *         .fit(table, new String[] {"x0", "x1", "x2"}, "y");
 * r.training().requireConverged();
 * RegressionModelScorer.of(r.model()).setInputCols("x0", "x1", "x2").transform(other);
 * }</pre>
 *
 * <p><b>The algorithm.</b> With K partitions and b rows per partition and step ({@link #withPartitionBatchSize};
 * by default {@code ceil(config.trainer().batchSize() / K)}), step t is:
 * <ol>
 *   <li>the driver broadcasts the parameters θ as one flat {@code double[]};</li>
 *   <li>partition k computes, on its next {@code B_k <= b} rows, the gradient {@code g_k} of its mean loss and
 *       returns {@code B_k g_k}, {@code B_k loss_k} and {@code B_k} ({@code treeAggregate});</li>
 *   <li>the driver forms {@code g = sum_k B_k g_k / sum_k B_k}, the gradient of the mean loss over the union
 *       batch, then clips it (if the config says so) and takes the AdamW step, exactly as the single-machine
 *       {@code Trainer} does after its {@code trainStep}.</li>
 * </ol>
 * So K partitions with batch b are the same algorithm as one machine with batch {@code K * b} whose batches are
 * the unions of the partitions' batches; the parameters agree with such a run up to the order of floating-point
 * summation inside the batch (the tests check it). Partition sums are merged with compensated (TwoSum) arithmetic,
 * so the result does not depend on the order in which Spark merges them: a run is reproducible.
 *
 * <p><b>Epochs, validation, early stopping.</b> Each partition holds out its validation rows and shuffles its
 * training rows every epoch as {@code RegressionModel.fit} does on one machine, seeded with {@code seed + k *
 * 0x9E3779B97F4A7C15} for partition k. An epoch lasts until the largest partition has used all its training rows
 * ({@code max_k ceil(n_k / b)} steps; smaller partitions sit out the last steps, so balanced partitions train
 * best). After each epoch the validation loss (row-weighted over all partitions' validation rows) decides early
 * stopping with the config's patience; the best weights are kept; a non-finite loss, gradient norm or validation
 * loss ends the run as diverged. The model's scalers are fitted on all rows (two distributed passes, the same
 * two-pass formulas as {@code StandardScaler.fit}). With one partition the whole run is bit for bit {@code
 * RegressionModel.fit} on the same rows.
 *
 * <p><b>Cost.</b> Each step is one Spark job (tens to hundreds of milliseconds of scheduling) plus one broadcast of
 * the parameters; it pays off when a step's computation per partition outweighs that, i.e. for large partitions'
 * batches or large models. The training rows are cached (memory, then disk) for the run and released after it.
 *
 * <p>Immutable and thread-safe; {@link #fit} runs Spark jobs and blocks until training ends.
 */
public final class DataParallelTrainer {
    private final ModelConfig config;
    private final DataType type;
    private final int partitionBatchSize;
    private final int aggregationDepth;
    private final ProgressListener listener;

    /**
     * A trainer for float32 models of {@code config} (its trainer settings: seed, batch size, epochs, learning
     * rate, weight decay, clipping, validation fraction, patience).
     *
     * @throws IllegalArgumentException if config is null, its target transform is not NONE, or its head adapts to the
     *                                  training targets (the unnormalized decoder without an exponent range: give it
     *                                  one with {@code UnnormalizedDecoderSpec.withRange})
     */
    public DataParallelTrainer(ModelConfig config) {
        this(Checks.notNull("config", config), DataType.FLOAT, 0, 2, ProgressListener.none());
    }

    private DataParallelTrainer(ModelConfig config, DataType type, int partitionBatchSize, int aggregationDepth,
            ProgressListener listener) {
        Checks.require(config.targetTransform() == TargetTransform.NONE,
                "config.targetTransform must be NONE for data-parallel training (its scalers come from distributed "
                        + "min/max passes), got %s", config.targetTransform());
        // a spec that adapts to the training targets (the unnormalized decoder's exponent range) would see only the
        // two rows that anchor the scalers, not the data
        Checks.require(config.head().fittedTo(new double[] {0.0, 1.0}).equals(config.head()),
                "config.head must not adapt to the training targets for data-parallel training (give the unnormalized "
                        + "decoder its exponent range: UnnormalizedDecoderSpec.withRange), got %s", config.head());
        this.config = config;
        this.type = type;
        this.partitionBatchSize = partitionBatchSize;
        this.aggregationDepth = aggregationDepth;
        this.listener = listener;
    }

    /**
     * What a run produced.
     *
     * @param model              the trained model (best-validation weights, scalers from all rows), ready to save
     *                           or score
     * @param training           epochs, losses and why it stopped, as the single-machine trainer reports them
     * @param partitions         partitions trained on (K)
     * @param partitionBatchSize rows per partition and step (b)
     * @param trainRows          training rows over all partitions
     * @param validationRows     validation rows over all partitions
     */
    public record Result(RegressionModel model, TrainingResult training, int partitions, int partitionBatchSize,
            long trainRows, long validationRows) {}

    /**
     * With model weights in {@code type} (FLOAT, the default, or DOUBLE).
     *
     * @throws IllegalArgumentException unless type is FLOAT or DOUBLE
     */
    public DataParallelTrainer withDataType(DataType type) {
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE, "type must be FLOAT or DOUBLE, got %s", type);
        return new DataParallelTrainer(config, type, partitionBatchSize, aggregationDepth, listener);
    }

    /**
     * With b rows per partition and step (0, the default: {@code ceil(config.trainer().batchSize() / K)}).
     *
     * @throws IllegalArgumentException if rows is negative
     */
    public DataParallelTrainer withPartitionBatchSize(int rows) {
        Checks.require(rows >= 0, "partitionBatchSize must be >= 0 (0: from the config's batch size), got %d", rows);
        return new DataParallelTrainer(config, type, rows, aggregationDepth, listener);
    }

    /**
     * With the depth of Spark's {@code treeAggregate} (default 2; deeper trees relieve the driver when there are
     * many partitions).
     *
     * @throws IllegalArgumentException unless depth >= 1
     */
    public DataParallelTrainer withAggregationDepth(int depth) {
        Checks.atLeast("aggregationDepth", depth, 1);
        return new DataParallelTrainer(config, type, partitionBatchSize, depth, listener);
    }

    /** Reporting steps and epochs to {@code listener} (on the driver). */
    public DataParallelTrainer withProgress(ProgressListener listener) {
        return new DataParallelTrainer(config, type, partitionBatchSize, aggregationDepth,
                Checks.notNull("listener", listener));
    }

    /**
     * Trains a fresh model of this trainer's config on the rows of {@code data}.
     *
     * @param data        training rows (any number of partitions; empty ones are fine)
     * @param featureCols numeric feature columns, in the order the model will take them
     * @param labelCol    numeric label column
     * @throws IllegalArgumentException if a column is missing or not numeric, a value is null or not finite, there
     *                                  are fewer than 2 rows, or the label is constant
     */
    public Result fit(Dataset<Row> data, String[] featureCols, String labelCol) {
        Checks.notNull("data", data);
        Checks.notNull("featureCols", featureCols);
        Checks.require(featureCols.length > 0, "featureCols must name at least one column, got none");
        Checks.notNull("labelCol", labelCol);
        String[] names = Arrays.copyOf(featureCols, featureCols.length + 1);
        names[featureCols.length] = labelCol;
        checkColumns(data.schema(), names);
        Column[] cols = Arrays.stream(names).map(n -> functions.col(n).cast("double")).toArray(Column[]::new);
        long seed = config.trainer().seed(); // the closure ships plain values: the config records are not Serializable
        double fraction = config.trainer().validationFraction();
        JavaRDD<TrainingBlock> blocks = data.select(cols).toJavaRDD()
                .mapPartitionsWithIndex((k, rows) -> Collections.singletonList(
                        TrainingBlock.of(k, rows, names, seed, fraction)).iterator(), true)
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            return Failures.unwrap(() -> new Run(blocks, featureCols.length).run());
        } finally {
            blocks.unpersist(false);
        }
    }

    private static void checkColumns(StructType schema, String[] names) {
        List<String> seen = new ArrayList<>();
        for (int j = 0; j < names.length; j++) {
            String param = j < names.length - 1 ? "featureCols" : "labelCol";
            String n = Checks.notNull(param, names[j]);
            Checks.require(!seen.contains(n), "featureCols and labelCol must be distinct, got '%s' twice", n);
            seen.add(n);
            int i;
            try {
                i = schema.fieldIndex(n);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(param + " must name columns of the data, got '" + n
                        + "'; the data has " + Arrays.toString(schema.fieldNames()));
            }
            Checks.require(schema.fields()[i].dataType() instanceof NumericType, "%s column '%s' must be numeric, got %s",
                    param, n, schema.fields()[i].dataType().simpleString());
        }
    }

    /** The state of one fit call (driver side). */
    private final class Run {
        /** The training features' means and population standard deviations over all rows. */
        private double[] featureMean;
        private double[] featureSd;
        private final JavaRDD<TrainingBlock> blocks;
        private final int features;
        private final JavaSparkContext jsc;
        private final TrainerConfig tc = config.trainer();
        private final long start = System.nanoTime();
        private final List<Double> trainLosses = new ArrayList<>();
        private final List<Double> validationLosses = new ArrayList<>();
        private RegressionModel model;
        private List<Param> params;
        private INDArray[] snapshot;
        private Broadcast<ModelPayload> payload;
        private double bestVal = Double.NaN;
        private int bestEpoch;
        private long steps;
        private int partitions;
        private int batch;
        private long trainRows;
        private long validationRows;

        Run(JavaRDD<TrainingBlock> blocks, int features) {
            this.blocks = blocks;
            this.features = features;
            this.jsc = JavaSparkContext.fromSparkContext(blocks.context());
        }

        Result run() {
            anchor();
            List<int[]> sizes = blocks.map(b -> new int[] {b.trainRows(), b.validationRows()}).collect();
            partitions = sizes.size();
            int maxTrain = 0;
            for (int[] s : sizes) {
                trainRows += s[0];
                validationRows += s[1];
                maxTrain = Math.max(maxTrain, s[0]);
            }
            batch = partitionBatchSize > 0 ? partitionBatchSize : (tc.batchSize() + partitions - 1) / partitions;
            int stepsPerEpoch = (maxTrain + batch - 1) / batch;
            Optimizer optimizer = new AdamW(params, new AdamConfig(tc.learningRate(), 0.9, 0.999, 1e-8, tc.weightDecay()));
            try {
                TrainingResult r = epochs(optimizer, stepsPerEpoch);
                setNoiseLevel();
                model.recordTraining(featureMean, featureSd, trainRows, validationRows, r);
                return new Result(model, r, partitions, batch, trainRows, validationRows);
            } finally {
                payload.destroy();
            }
        }

        /** Scalers from all rows, then the initial model every partition starts from. */
        private void anchor() {
            ColumnMoments first = blocks.treeAggregate(ColumnMoments.empty(), (m, b) -> m.merge(b.moments(null)),
                    ColumnMoments::merge, aggregationDepth);
            Checks.require(first.rows() >= 2, "data must have at least 2 rows, got %d", first.rows());
            double[] mean = first.meanOfSums();
            double[] scale = new double[features];
            Arrays.fill(scale, 1.0);
            ColumnMoments second = blocks.treeAggregate(ColumnMoments.empty(), (m, b) -> m.merge(b.moments(mean)),
                    ColumnMoments::merge, aggregationDepth);
            double[] variance = second.meanOfSums();
            double[] maxAbs = first.maxAbs();
            featureMean = mean;
            featureSd = new double[features];
            for (int j = 0; j < features; j++) {
                double sd = Math.sqrt(variance[j]);
                featureSd[j] = sd;
                if (config.standardizeX()) {
                    scale[j] = sd <= 1e-12 * Math.max(1, maxAbs[j]) ? 1.0 : sd; // StandardScaler's constant-column rule
                }
            }
            model = ScalerAnchor.anchor(config, type, mean, scale, first.yMin(), first.yMax());
            params = List.copyOf(model.params());
            snapshot = new INDArray[params.size()];
            for (int i = 0; i < snapshot.length; i++) {
                snapshot[i] = params.get(i).value().dup('c');
            }
            payload = jsc.broadcast(ModelPayload.of(model));
        }

        private TrainingResult epochs(Optimizer optimizer, int stepsPerEpoch) {
            Checks.require(trainRows >= 1, "data must leave at least 1 training row, got 0");
            boolean validating = validationRows > 0;
            int bad = 0;
            int epoch = 0;
            while (epoch < tc.maxEpochs()) {
                epoch++;
                double sum = 0;
                for (int step = 1; step <= stepsPerEpoch; step++) {
                    StepSums s = step(epoch, step - 1);
                    double loss = s.lossSum() / s.rows();
                    if (!Double.isFinite(loss)) {
                        return diverged(epoch, "loss " + loss + " at epoch " + epoch + ", step " + step);
                    }
                    FlatParams.setGradients(s.meanGradient(), params);
                    if (tc.clipping()) {
                        double norm = GradientClipping.clipByGlobalNorm(params, tc.clipNorm());
                        if (!Double.isFinite(norm)) {
                            return diverged(epoch, "gradient norm " + norm + " at epoch " + epoch + ", step " + step);
                        }
                    }
                    optimizer.step();
                    steps++;
                    sum += s.lossSum();
                    double lastVal = validationLosses.isEmpty() ? Double.NaN
                            : validationLosses.get(validationLosses.size() - 1);
                    listener.onStep(new Progress(epoch, tc.maxEpochs(), step, stepsPerEpoch, loss, lastVal, bestVal,
                            bestEpoch, elapsed()));
                }
                double trainLoss = sum / trainRows;
                trainLosses.add(trainLoss);
                if (!validating) {
                    validationLosses.add(Double.NaN);
                    bestEpoch = epoch;
                    copy(true);
                    listener.onEpochEnd(new Progress(epoch, tc.maxEpochs(), stepsPerEpoch, stepsPerEpoch, trainLoss,
                            Double.NaN, Double.NaN, 0, elapsed()));
                    continue;
                }
                double val = validate();
                if (!Double.isFinite(val)) {
                    trainLosses.remove(trainLosses.size() - 1);
                    return diverged(epoch, "validation loss " + val + " at epoch " + epoch);
                }
                validationLosses.add(val);
                if (bestEpoch == 0 || val < bestVal) {
                    bestVal = val;
                    bestEpoch = epoch;
                    bad = 0;
                    copy(true);
                } else {
                    bad++;
                }
                listener.onEpochEnd(new Progress(epoch, tc.maxEpochs(), stepsPerEpoch, stepsPerEpoch, trainLoss, val,
                        bestVal, bestEpoch, elapsed()));
                if (bad >= tc.patience()) {
                    copy(false);
                    return finish(epoch, TrainingResult.StopReason.EARLY_STOPPED, String.format(Locale.ROOT,
                            "stopped early after epoch %d: best validation loss %.6g at epoch %d", epoch, bestVal,
                            bestEpoch));
                }
            }
            if (validating) {
                copy(false);
                return finish(epoch, TrainingResult.StopReason.MAX_EPOCHS, String.format(Locale.ROOT,
                        "finished %d epochs: best validation loss %.6g at epoch %d", epoch, bestVal, bestEpoch));
            }
            return finish(epoch, TrainingResult.StopReason.MAX_EPOCHS, String.format(Locale.ROOT,
                    "finished %d epochs: train loss %.6g", epoch, trainLosses.get(trainLosses.size() - 1)));
        }

        /** One synchronous step: the partitions' sums at the current parameters. */
        private StepSums step(int epoch, int step) {
            Broadcast<double[]> theta = jsc.broadcast(FlatParams.values(params));
            Broadcast<ModelPayload> p = payload;
            int b = batch;
            try {
                Function2<StepSums, TrainingBlock, StepSums> seq = (acc, block) -> {
                    try (ExecutorModels.Lease lease = ExecutorModels.borrow(p::value)) {
                        return acc.merge(block.trainStep(lease, p.value().token(), theta.value(), epoch, step, b));
                    }
                };
                return blocks.treeAggregate(StepSums.empty(), seq, StepSums::merge, aggregationDepth);
            } finally {
                theta.destroy();
            }
        }

        /** The row-weighted validation loss over all partitions at the current parameters. */
        private double validate() {
            int chunk = tc.batchSize();
            StepSums s = perPartition((block, lease, token, theta) -> block.validate(lease, token, theta, chunk));
            return s.lossSum() / s.rows();
        }

        /** For a pointwise head, the noise level from held-out residuals, as {@code RegressionModel.fit} sets it. */
        private void setNoiseLevel() {
            if (!(model.head() instanceof PointwiseHead head)) {
                return;
            }
            boolean useTraining = validationRows == 0;
            StepSums s = perPartition((block, lease, token, theta) -> block.squaredResiduals(lease, token, theta,
                    useTraining));
            double mse = s.lossSum() / s.rows();
            head.setNoiseStd(NoiseLevel.fromMeanSquare(mse));
        }

        private StepSums perPartition(PartitionPass pass) {
            Broadcast<double[]> theta = jsc.broadcast(FlatParams.values(params));
            Broadcast<ModelPayload> p = payload;
            try {
                Function2<StepSums, TrainingBlock, StepSums> seq = (acc, block) -> {
                    try (ExecutorModels.Lease lease = ExecutorModels.borrow(p::value)) {
                        return acc.merge(pass.apply(block, lease, p.value().token(), theta.value()));
                    }
                };
                return blocks.treeAggregate(StepSums.empty(), seq, StepSums::merge, aggregationDepth);
            } finally {
                theta.destroy();
            }
        }

        private TrainingResult diverged(int epoch, String what) {
            copy(false);
            return finish(epoch, TrainingResult.StopReason.DIVERGED, "training diverged: " + what);
        }

        private TrainingResult finish(int epochs, TrainingResult.StopReason reason, String message) {
            TrainingResult r = new TrainingResult(epochs, bestEpoch, bestVal, trainLosses, validationLosses, reason,
                    message, steps, elapsed());
            listener.onFinish(r);
            return r;
        }

        /** {@code toSnapshot}: parameters to copies; otherwise copies to parameters (restore). */
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

    /** A pass over one partition's block with a borrowed model at the given parameters. */
    @FunctionalInterface
    private interface PartitionPass extends java.io.Serializable {
        StepSums apply(TrainingBlock block, ExecutorModels.Lease lease, String token, double[] theta);
    }
}
