package io.regheads.spark;

import io.regheads.core.data.TargetTransform;
import io.regheads.core.check.Checks;
import io.regheads.core.nn.Param;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.core.optim.Optimizer;
import io.regheads.core.train.EpochLoop;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.spark.internal.ColumnMoments;
import io.regheads.spark.internal.ExecutorModels;
import io.regheads.spark.internal.Failures;
import io.regheads.core.nn.FlatParams;
import io.regheads.spark.internal.ModelPayload;
import io.regheads.spark.internal.ScalerAnchor;
import io.regheads.spark.internal.StepSums;
import io.regheads.spark.internal.TrainingBlock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
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
import org.nd4j.linalg.factory.Nd4j;

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
 * best). The epochs are the single-machine trainer's own loop ({@link EpochLoop}, which {@code Trainer} runs): the
 * validation loss (row-weighted over all partitions' validation rows) before training and after each epoch, early
 * stopping with the config's patience, the best weights kept, the same divergence rules (a non-finite or exploding
 * loss, gradient norm, validation loss or parameter), the same diagnosis of the trained model and the same result,
 * stop reason and message. The model's scalers are fitted on all rows (two distributed passes, the same two-pass
 * formulas as {@code StandardScaler.fit}). With one partition the whole run is bit for bit {@code
 * RegressionModel.fit} on the same rows.
 *
 * <p><b>After training.</b> The head runs its own after-fit step ({@code RegressionHead.afterFit}, e.g. the noise
 * level of a pointwise or xVal head) on the held-out rows, as {@code RegressionModel.fit} does: all partitions'
 * validation rows (their training rows when none are held out), collected on the driver ({@code D + 1} doubles a
 * row) and encoded there in one pass. The model records the data's column names ({@code featureCols} and {@code
 * labelCol}: {@link RegressionModel#featureNames()}, {@link RegressionModel#targetName()}), so it predicts from
 * them by name, on a cluster or from a CSV file with the same header.
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

    /**
     * This trainer as a Spark ML {@code Estimator} ({@link DataParallelEstimator}): its {@code fit} returns the
     * {@link RegressionModelScorer} of the trained model, for {@code Pipeline}s and tuning.
     */
    public DataParallelEstimator asEstimator() {
        return new DataParallelEstimator(this);
    }

    /** The trainer settings of the config (the estimator's param defaults). */
    TrainerConfig trainerConfig() {
        return config.trainer();
    }

    /** With the config's trainer settings replaced (the estimator's params). */
    DataParallelTrainer withTrainerConfig(TrainerConfig trainer) {
        return new DataParallelTrainer(config.withTrainer(Checks.notNull("trainer", trainer)), type, partitionBatchSize,
                aggregationDepth, listener);
    }

    @Override
    public String toString() {
        return "DataParallelTrainer[" + config + ", " + type + ", partitionBatchSize=" + partitionBatchSize
                + ", aggregationDepth=" + aggregationDepth + "]";
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
            return Failures.unwrap(() -> new Run(blocks, new ScalerAnchor.Columns(List.of(featureCols), labelCol)).run());
        } finally {
            blocks.unpersist(false);
        }
    }

    /**
     * Checks that the feature and label columns exist in {@code schema}, are numeric and distinct.
     *
     * @throws IllegalArgumentException naming the first column that is not
     */
    static void checkColumns(StructType schema, String[] featureCols, String labelCol) {
        String[] names = Arrays.copyOf(featureCols, featureCols.length + 1);
        names[featureCols.length] = labelCol;
        checkColumns(schema, names);
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
        private final ScalerAnchor.Columns columns;
        private final int features;
        private final JavaSparkContext jsc;
        private final TrainerConfig tc = config.trainer();
        private RegressionModel model;
        private List<Param> params;
        private Broadcast<ModelPayload> payload;
        private int partitions;
        private int batch;
        private int stepsPerEpoch;
        private long trainRows;
        private long validationRows;
        /** The held-out rows in head units, all partitions' in partition order: null until first needed. */
        private io.regheads.core.data.Dataset heldOut;

        Run(JavaRDD<TrainingBlock> blocks, ScalerAnchor.Columns columns) {
            this.blocks = blocks;
            this.columns = columns;
            this.features = columns.features().size();
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
            Checks.require(trainRows >= 1, "data must leave at least 1 training row, got 0");
            batch = partitionBatchSize > 0 ? partitionBatchSize : (tc.batchSize() + partitions - 1) / partitions;
            stepsPerEpoch = (maxTrain + batch - 1) / batch;
            Optimizer optimizer = new AdamW(params, new AdamConfig(tc.learningRate(), 0.9, 0.999, 1e-8, tc.weightDecay()));
            try {
                TrainingResult r = new EpochLoop(tc, listener).run(params, optimizer, new ClusterPasses());
                model.recordTraining(featureMean, featureSd, trainRows, validationRows, r);
                afterFit();
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
            model = ScalerAnchor.anchor(config, type, mean, scale, first.yMin(), first.yMax(), columns);
            params = List.copyOf(model.params());
            payload = jsc.broadcast(ModelPayload.of(model));
        }

        /**
         * The head's after-fit step on the held-out rows, as {@code RegressionModel.fit} takes it: the validation
         * rows, or the training rows when none are held out, in head units, encoded in one pass on the driver.
         */
        private void afterFit() {
            io.regheads.core.data.Dataset rows = heldOut();
            INDArray in = Nd4j.create(type, rows.rows(), features);
            rows.copyRows(natural(rows.rows()), 0, rows.rows(), in);
            model.head().afterFit(model.encoder().infer(in), rows.y());
        }

        /** All partitions' held-out rows in head units (collected once; the scalers do not change in training). */
        private io.regheads.core.data.Dataset heldOut() {
            if (heldOut == null) {
                boolean useTraining = validationRows == 0;
                List<double[][]> parts = Failures.unchecked(() -> blocks.map(b -> b.heldOut(useTraining)).collect());
                int n = 0;
                for (double[][] p : parts) {
                    n += p[1].length;
                }
                double[][] x = new double[n][];
                double[] y = new double[n];
                int at = 0;
                for (double[][] p : parts) {
                    for (int i = 0; i < p[1].length; i++, at++) {
                        x[at] = Arrays.copyOfRange(p[0], i * features, (i + 1) * features);
                        y[at] = p[1][i];
                    }
                }
                heldOut = model.toHeadUnitsOf(io.regheads.core.data.Dataset.of(x, y, columns.features(), columns.label()));
            }
            return heldOut;
        }

        /** The steps, validation losses and diagnosis of the epoch loop, computed over the partitions. */
        private final class ClusterPasses implements EpochLoop.Passes {
            @Override
            public long trainRows() {
                return trainRows;
            }

            @Override
            public int stepsPerEpoch() {
                return stepsPerEpoch;
            }

            @Override
            public boolean validates() {
                return validationRows > 0;
            }

            @Override
            public void beginEpoch(int epoch) {
                // each partition shuffles its own training rows for the epoch (TrainingBlock)
            }

            @Override
            public EpochLoop.StepLoss step(int epoch, int step) {
                StepSums s = Failures.unchecked(() -> sums(epoch, step - 1));
                FlatParams.setGradients(s.meanGradient(), params);
                return new EpochLoop.StepLoss(s.lossSum() / s.rows(), s.lossSum());
            }

            @Override
            public double validationLoss() {
                int chunk = tc.batchSize();
                StepSums s = Failures.unchecked(() -> perPartition((block, lease, token, theta) -> block.validate(lease,
                        token, theta, chunk)));
                return s.lossSum() / s.rows();
            }

            @Override
            public Optional<String> diagnose() {
                io.regheads.core.data.Dataset rows = heldOut();
                int count = Math.min(Trainer.DIAGNOSE_ROWS, rows.rows());
                INDArray x = Nd4j.create(type, count, features);
                double[] y = new double[count];
                int[] order = natural(rows.rows());
                rows.copyRows(order, 0, count, x);
                rows.copyTargets(order, 0, count, y);
                return model.asTrainable().diagnose(x, y);
            }
        }

        /** One synchronous step: the partitions' sums at the current parameters. */
        private StepSums sums(int epoch, int step) {
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
    }

    private static int[] natural(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    /** A pass over one partition's block with a borrowed model at the given parameters. */
    @FunctionalInterface
    private interface PartitionPass extends java.io.Serializable {
        StepSums apply(TrainingBlock block, ExecutorModels.Lease lease, String token, double[] theta);
    }
}
