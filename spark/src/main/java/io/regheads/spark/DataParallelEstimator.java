package io.regheads.spark;

import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingFailedException;
import java.util.Arrays;
import java.util.UUID;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * {@link DataParallelTrainer} as a Spark ML {@link Estimator}: {@link #fit} trains a model on a {@code Dataset<Row>}
 * and returns the {@link RegressionModelScorer} that applies it, so it is a {@code Pipeline} stage and its trainer
 * settings can be tuned with {@code ParamGridBuilder} and {@code CrossValidator}.
 *
 * <pre>{@code
 * DataParallelEstimator est = new DataParallelTrainer(ModelConfig.defaults(new MixtureSpec(10))).asEstimator()
 *         .setInputCols("x0", "x1", "x2").setLabelCol("y").setMaxEpochs(50);
 * RegressionModelScorer scorer = est.fit(train);                  // inputCols set, other outputs at their defaults
 * Dataset<Row> scored = scorer.setQuantiles(0.05, 0.95).transform(test);
 * scorer.model().provenance();                                    // epochs, stop reason and losses of the run
 * }</pre>
 *
 * <p><b>Params.</b> {@code inputCols} (feature columns, in the order the model takes them) and {@code labelCol}
 * (required); the trainer settings {@code maxEpochs}, {@code learningRate}, {@code batchSize}, {@code seed},
 * {@code validationFraction}, {@code patience} (defaults: the trainer's config, {@link TrainerConfig} documents each)
 * and {@code partitionBatchSize} (rows per partition and step; 0, the default, for {@code ceil(batchSize / K)}). The
 * head, encoder, loss, precision and the other settings are the wrapped trainer's.
 *
 * <p><b>The fitted scorer</b> has the model (trained as {@link DataParallelTrainer#fit} trains it: best-validation
 * weights, the head's after-fit step, the column names recorded) and {@code inputCols} set; its other params are at
 * their defaults (mean and median columns; no log density, so it scores rows without a label). A run that diverged or
 * left an unusable model ({@link io.regheads.core.train.TrainingResult#requireConverged()}) fails {@code fit} with
 * a {@link TrainingFailedException} naming the reason, as Spark's own estimators fail rather than return a useless
 * model.
 *
 * <p>Thread safety: set params on one thread; {@code fit} runs Spark jobs and blocks until training ends.
 */
public final class DataParallelEstimator extends Estimator<RegressionModelScorer> {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final transient DataParallelTrainer trainer;

    private final StringArrayParam inputCols;
    private final Param<String> labelCol;
    private final IntParam maxEpochs;
    private final DoubleParam learningRate;
    private final IntParam batchSize;
    private final LongParam seed;
    private final DoubleParam validationFraction;
    private final IntParam patience;
    private final IntParam partitionBatchSize;

    /**
     * An estimator that trains with {@code trainer} (its config, precision, aggregation depth and progress
     * listener; the params above override its trainer settings).
     *
     * @throws IllegalArgumentException if trainer is null
     */
    public DataParallelEstimator(DataParallelTrainer trainer) {
        this("regheadsEstimator_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12), trainer);
    }

    private DataParallelEstimator(String uid, DataParallelTrainer trainer) {
        this.uid = uid;
        this.trainer = Checks.notNull("trainer", trainer);
        TrainerConfig t = trainer.trainerConfig();
        inputCols = new StringArrayParam(this, "inputCols", "feature columns, in the order the model takes them");
        labelCol = new Param<>(this, "labelCol", "label column");
        maxEpochs = new IntParam(this, "maxEpochs", "maximum epochs, >= 1");
        learningRate = new DoubleParam(this, "learningRate", "AdamW learning rate, > 0");
        batchSize = new IntParam(this, "batchSize", "rows per step over all partitions, >= 1");
        seed = new LongParam(this, "seed", "seed of initialisation, holdout and shuffles");
        validationFraction = new DoubleParam(this, "validationFraction",
                "share of each partition's rows held out for early stopping, in [0, 1)");
        patience = new IntParam(this, "patience", "epochs without a better validation loss before stopping, >= 1");
        partitionBatchSize = new IntParam(this, "partitionBatchSize",
                "rows per partition and step (0: ceil(batchSize / partitions))");
        setDefault(inputCols, new String[0]);
        setDefault(labelCol, "");
        setDefault(maxEpochs, t.maxEpochs());
        setDefault(learningRate, t.learningRate());
        setDefault(batchSize, t.batchSize());
        setDefault(seed, t.seed());
        setDefault(validationFraction, t.validationFraction());
        setDefault(patience, t.patience());
        setDefault(partitionBatchSize, 0);
    }

    @Override
    public String uid() {
        return uid;
    }

    // ------------------------------------------------------------------ params (Spark ML reads them reflectively)

    /** Feature columns, in the order the model takes them (required). */
    public StringArrayParam inputCols() {
        return inputCols;
    }

    /** Label column (required). */
    public Param<String> labelCol() {
        return labelCol;
    }

    /** Maximum epochs. */
    public IntParam maxEpochs() {
        return maxEpochs;
    }

    /** AdamW learning rate. */
    public DoubleParam learningRate() {
        return learningRate;
    }

    /** Rows per step over all partitions. */
    public IntParam batchSize() {
        return batchSize;
    }

    /** Seed of initialisation, holdout and shuffles. */
    public LongParam seed() {
        return seed;
    }

    /** Share of each partition's rows held out for early stopping. */
    public DoubleParam validationFraction() {
        return validationFraction;
    }

    /** Epochs without a better validation loss before stopping. */
    public IntParam patience() {
        return patience;
    }

    /** Rows per partition and step (0: {@code ceil(batchSize / K)}). */
    public IntParam partitionBatchSize() {
        return partitionBatchSize;
    }

    // ------------------------------------------------------------------ setters

    /**
     * Sets the feature columns.
     *
     * @throws IllegalArgumentException unless the names are non-blank and distinct, at least one
     */
    public DataParallelEstimator setInputCols(String... names) {
        checkInputCols(names);
        set(inputCols, names.clone());
        return this;
    }

    /** Sets the label column. */
    public DataParallelEstimator setLabelCol(String name) {
        set(labelCol, Checks.notNull("labelCol", name));
        return this;
    }

    /** Sets the maximum epochs (checked by {@link TrainerConfig} at {@link #fit}). */
    public DataParallelEstimator setMaxEpochs(int epochs) {
        set(maxEpochs, epochs);
        return this;
    }

    /** Sets the learning rate (checked at {@link #fit}). */
    public DataParallelEstimator setLearningRate(double rate) {
        set(learningRate, rate);
        return this;
    }

    /** Sets the rows per step over all partitions (checked at {@link #fit}). */
    public DataParallelEstimator setBatchSize(int rows) {
        set(batchSize, rows);
        return this;
    }

    /** Sets the seed. */
    public DataParallelEstimator setSeed(long value) {
        set(seed, value);
        return this;
    }

    /** Sets the validation share (checked at {@link #fit}). */
    public DataParallelEstimator setValidationFraction(double fraction) {
        set(validationFraction, fraction);
        return this;
    }

    /** Sets the patience (checked at {@link #fit}). */
    public DataParallelEstimator setPatience(int epochs) {
        set(patience, epochs);
        return this;
    }

    /** Sets the rows per partition and step (0: from the batch size; checked at {@link #fit}). */
    public DataParallelEstimator setPartitionBatchSize(int rows) {
        set(partitionBatchSize, rows);
        return this;
    }

    // ------------------------------------------------------------------ Estimator

    /**
     * Trains a model on {@code dataset} as {@link DataParallelTrainer#fit} does, with this estimator's columns and
     * settings.
     *
     * @return a scorer for the trained model with {@code inputCols} set, its parent this estimator
     * @throws IllegalArgumentException   as {@link DataParallelTrainer#fit}, or for a setting out of range
     * @throws TrainingFailedException    if training diverged or left an unusable model
     */
    @Override
    public RegressionModelScorer fit(Dataset<?> dataset) {
        Checks.notNull("dataset", dataset);
        transformSchema(dataset.schema());
        TrainerConfig t = trainer.trainerConfig().withMaxEpochs((Integer) getOrDefault(maxEpochs))
                .withLearningRate((Double) getOrDefault(learningRate)).withBatchSize((Integer) getOrDefault(batchSize))
                .withSeed((Long) getOrDefault(seed)).withValidationFraction((Double) getOrDefault(validationFraction))
                .withPatience((Integer) getOrDefault(patience));
        String[] cols = getOrDefault(inputCols);
        DataParallelTrainer.Result r = trainer.withTrainerConfig(t)
                .withPartitionBatchSize((Integer) getOrDefault(partitionBatchSize))
                .fit(dataset.toDF(), cols, getOrDefault(labelCol));
        r.training().requireConverged();
        return RegressionModelScorer.of(r.model()).setInputCols(cols).setParent(this);
    }

    /**
     * The schema the fitted scorer gives at its defaults: the input schema followed by {@code mean} and {@code
     * median}.
     *
     * @throws IllegalArgumentException if inputCols or labelCol is unset, or a column is missing or not numeric
     */
    @Override
    public StructType transformSchema(StructType schema) {
        Checks.notNull("schema", schema);
        String[] cols = getOrDefault(inputCols);
        checkInputCols(cols);
        String label = getOrDefault(labelCol);
        Checks.require(!label.isBlank(), "labelCol must name the label column, got none");
        DataParallelTrainer.checkColumns(schema, cols, label);
        return schema.add("mean", DataTypes.DoubleType, true).add("median", DataTypes.DoubleType, true);
    }

    @Override
    public DataParallelEstimator copy(ParamMap extra) {
        DataParallelEstimator c = new DataParallelEstimator(uid, trainer);
        return copyValues(c, extra);
    }

    @Override
    public String toString() {
        return "DataParallelEstimator[" + uid + ", " + trainer + "]";
    }

    private static void checkInputCols(String[] names) {
        Checks.notNull("inputCols", names);
        Checks.require(names.length > 0, "inputCols must name at least one feature column, got none");
        for (String n : names) {
            Checks.require(n != null && !n.isBlank(), "inputCols must be non-blank names, got %s", Arrays.toString(names));
        }
    }
}
