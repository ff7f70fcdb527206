package io.regheads.spark;

import io.regheads.core.check.Checks;
import io.regheads.heads.model.RegressionModel;
import io.regheads.spark.internal.ModelBytes;
import io.regheads.spark.internal.ModelPayload;
import io.regheads.spark.internal.ScorePartition;
import io.regheads.spark.internal.ScoringPlan;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.SparkContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Scores a {@code Dataset<Row>} with a saved {@link RegressionModel}: a Spark ML {@code Transformer} (a {@link
 * Model}, what {@link DataParallelEstimator#fit} returns) that appends the predictive mean, median, chosen quantiles,
 * a central interval and the log density of a label column.
 *
 * <pre>{@code
 * RegressionModelScorer scorer = RegressionModelScorer.load(Path.of("model.rgh"))
 *         .setInputCols("x0", "x1", "x2")       // by name (default: the model's training columns)
 *         .setQuantiles(0.1, 0.9)                // -> array<double> column "quantiles"
 *         .setIntervalCoverage(0.9)              // -> "lower", "upper": the 5% and 95% quantiles
 *         .setLabelCol("y");                     // -> "log_density" of y (natural log, y's units)
 * Dataset<Row> scored = scorer.transform(table);   // the input columns, then mean, median, quantiles, lower, upper, log_density
 * }</pre>
 *
 * <p><b>How it runs.</b> {@link #transform} broadcasts the model's saved bytes once per Spark context (later calls
 * reuse the broadcast); each executor JVM loads the model once, on the first partition it scores, and shares it
 * between its concurrent tasks (a fitted model predicts from several threads). A partition is scored lazily in
 * batches of {@link #batchSize()} rows with one {@link RegressionModel#predict} call per batch, so the values
 * equal single-JVM predictions over the same batches bit for bit. Float32 results can depend on which rows share a
 * batch (matrix-product blocking), by about 1e-7 relative.
 *
 * <p><b>Columns.</b> A model that records the names of its training columns ({@link RegressionModel#featureNames()},
 * as every model trained by {@code fit} or {@link DataParallelTrainer} does) finds its features by name: {@link
 * #inputCols()} defaults to those names and, when set, must name each of them once, in any order. A model without
 * names takes {@link #inputCols()} in its input order. Features may be of any numeric type (read as double). Outputs are doubles in the label's
 * original units; {@code quantiles} is an {@code array<double>} aligned with {@link #quantiles()}. Set an output
 * column's name to the empty string to leave it out. The log density is {@code null} where the label is null or
 * not finite. A row with a null or non-finite feature fails the job ({@code handleInvalid = "error"}, the default)
 * or gets null outputs ({@code "keep"}).
 *
 * <p>Thread safety: configure it on one thread; {@code transform} may then be called from several.
 */
public final class RegressionModelScorer extends Model<RegressionModelScorer> {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final byte[] modelBytes;
    private final int inputWidth;
    /** The model's training column names, in its input order; empty when it records none. */
    private final String[] featureNames;
    private transient Broadcast<ModelPayload> broadcast;
    private transient SparkContext broadcastContext;

    private final StringArrayParam inputCols;
    private final Param<String> labelCol;
    private final Param<String> meanCol;
    private final Param<String> medianCol;
    private final DoubleArrayParam quantiles;
    private final Param<String> quantilesCol;
    private final DoubleParam intervalCoverage;
    private final Param<String> lowerCol;
    private final Param<String> upperCol;
    private final Param<String> logDensityCol;
    private final IntParam batchSize;
    private final Param<String> handleInvalid;

    private RegressionModelScorer(String uid, byte[] modelBytes, int inputWidth, String[] featureNames) {
        this.uid = uid;
        this.modelBytes = modelBytes;
        this.inputWidth = inputWidth;
        this.featureNames = featureNames;
        // the params need the uid (their parent's name): created here, after it is set
        inputCols = new StringArrayParam(this, "inputCols",
                "feature columns: by name for a model that records its training columns, else in its input order");
        labelCol = new Param<>(this, "labelCol",
                "label column for the log density (empty: none)");
        meanCol = new Param<>(this, "meanCol", "output column of the predictive mean (empty: none)");
        medianCol = new Param<>(this, "medianCol", "output column of the median (empty: none)");
        quantiles = new DoubleArrayParam(this, "quantiles",
                "quantile levels in (0, 1) for the quantiles column (empty: none)");
        quantilesCol = new Param<>(this, "quantilesCol",
                "output column (array<double>) of the quantiles at the chosen levels");
        intervalCoverage = new DoubleParam(this, "intervalCoverage",
                "coverage c in (0, 1) of the central interval [q((1-c)/2), q((1+c)/2)] (0: none)");
        lowerCol = new Param<>(this, "lowerCol", "output column of the interval's lower bound");
        upperCol = new Param<>(this, "upperCol", "output column of the interval's upper bound");
        logDensityCol = new Param<>(this, "logDensityCol",
                "output column of the natural log density of the label");
        batchSize = new IntParam(this, "batchSize", "rows per prediction call, >= 1");
        handleInvalid = new Param<>(this, "handleInvalid",
                "rows with a null or non-finite feature: \"error\" fails the job, \"keep\" gives null outputs");
        setDefault(inputCols, featureNames.clone());
        setDefault(labelCol, "");
        setDefault(meanCol, "mean");
        setDefault(medianCol, "median");
        setDefault(quantiles, new double[0]);
        setDefault(quantilesCol, "quantiles");
        setDefault(intervalCoverage, 0.0);
        setDefault(lowerCol, "lower");
        setDefault(upperCol, "upper");
        setDefault(logDensityCol, "log_density");
        setDefault(batchSize, 4096);
        setDefault(handleInvalid, "error");
    }

    /**
     * A scorer for {@code model} (its saved form is taken now: later changes to the model do not reach the scorer).
     *
     * @throws IllegalArgumentException if model is null or not fitted
     */
    public static RegressionModelScorer of(RegressionModel model) {
        Checks.notNull("model", model);
        return fromBytes(ModelBytes.of(model));
    }

    /**
     * A scorer for the model saved in {@code file} ({@link RegressionModel#save}).
     *
     * @throws IllegalArgumentException if the file is missing or not a regheads model
     */
    public static RegressionModelScorer load(Path file) {
        Checks.notNull("file", file);
        Checks.require(Files.isRegularFile(file), "file must be a saved model, got missing %s", file);
        try {
            return fromBytes(Files.readAllBytes(file));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("could not read model file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * A scorer for a model in its saved form (the bytes {@link RegressionModel#save} writes; copied).
     *
     * @throws IllegalArgumentException if the bytes are not a saved regheads model
     */
    public static RegressionModelScorer fromBytes(byte[] bytes) {
        Checks.notNull("bytes", bytes);
        byte[] copy = bytes.clone();
        RegressionModel m = ModelBytes.load(copy); // validates the bytes here, not on an executor
        String uid = "regheadsScorer_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return new RegressionModelScorer(uid, copy, m.inputWidth(), m.featureNames().toArray(String[]::new));
    }

    @Override
    public String uid() {
        return uid;
    }

    /** Number of feature columns the model takes. */
    public int inputWidth() {
        return inputWidth;
    }

    /**
     * A fresh copy of the model this scorer applies (loaded from its saved form): its provenance (how it was
     * trained), column names, or to save it ({@link RegressionModel#save}).
     */
    public RegressionModel model() {
        return ModelBytes.load(modelBytes);
    }

    // ------------------------------------------------------------------ params (Spark ML reads them reflectively)

    /**
     * Feature columns: for a model that records its training columns, each of them once in any order (default: those
     * names); for a model without names, in its input order (required).
     */
    public StringArrayParam inputCols() {
        return inputCols;
    }

    /** Label column for the log density; empty (the default) for none. */
    public Param<String> labelCol() {
        return labelCol;
    }

    /** Output column of the predictive mean (default "mean"; empty: none). */
    public Param<String> meanCol() {
        return meanCol;
    }

    /** Output column of the median (default "median"; empty: none). */
    public Param<String> medianCol() {
        return medianCol;
    }

    /** Quantile levels in (0, 1) for {@link #quantilesCol()} (default none). */
    public DoubleArrayParam quantiles() {
        return quantiles;
    }

    /** Output column of the quantiles, {@code array<double>} (default "quantiles"). */
    public Param<String> quantilesCol() {
        return quantilesCol;
    }

    /** Coverage c in (0, 1) of the central interval; 0 (the default) for none. */
    public DoubleParam intervalCoverage() {
        return intervalCoverage;
    }

    /** Output column of the lower interval bound {@code q((1 - c) / 2)} (default "lower"). */
    public Param<String> lowerCol() {
        return lowerCol;
    }

    /** Output column of the upper interval bound {@code q((1 + c) / 2)} (default "upper"). */
    public Param<String> upperCol() {
        return upperCol;
    }

    /** Output column of the log density of the label (default "log_density"). */
    public Param<String> logDensityCol() {
        return logDensityCol;
    }

    /** Rows per prediction call (default 4096). */
    public IntParam batchSize() {
        return batchSize;
    }

    /** "error" (default) or "keep": what a row with a null or non-finite feature does. */
    public Param<String> handleInvalid() {
        return handleInvalid;
    }

    // ------------------------------------------------------------------ setters

    /**
     * Sets the feature columns (see {@link #inputCols()}).
     *
     * @throws IllegalArgumentException unless there is one distinct, non-blank name per model input
     */
    public RegressionModelScorer setInputCols(String... names) {
        checkInputCols(names);
        set(inputCols, names.clone());
        return this;
    }

    /** Sets the label column (empty: no log density). */
    public RegressionModelScorer setLabelCol(String name) {
        set(labelCol, Checks.notNull("labelCol", name));
        return this;
    }

    /** Sets the mean column (empty: none). */
    public RegressionModelScorer setMeanCol(String name) {
        set(meanCol, Checks.notNull("meanCol", name));
        return this;
    }

    /** Sets the median column (empty: none). */
    public RegressionModelScorer setMedianCol(String name) {
        set(medianCol, Checks.notNull("medianCol", name));
        return this;
    }

    /**
     * Sets the quantile levels.
     *
     * @throws IllegalArgumentException unless every level lies in (0, 1)
     */
    public RegressionModelScorer setQuantiles(double... levels) {
        checkQuantiles(levels);
        set(quantiles, levels.clone());
        return this;
    }

    /** Sets the quantiles column. */
    public RegressionModelScorer setQuantilesCol(String name) {
        set(quantilesCol, Checks.notNull("quantilesCol", name));
        return this;
    }

    /**
     * Sets the central interval's coverage.
     *
     * @throws IllegalArgumentException unless coverage is 0 (none) or in (0, 1)
     */
    public RegressionModelScorer setIntervalCoverage(double coverage) {
        checkCoverage(coverage);
        set(intervalCoverage, coverage);
        return this;
    }

    /** Sets the lower-bound column. */
    public RegressionModelScorer setLowerCol(String name) {
        set(lowerCol, Checks.notNull("lowerCol", name));
        return this;
    }

    /** Sets the upper-bound column. */
    public RegressionModelScorer setUpperCol(String name) {
        set(upperCol, Checks.notNull("upperCol", name));
        return this;
    }

    /** Sets the log-density column. */
    public RegressionModelScorer setLogDensityCol(String name) {
        set(logDensityCol, Checks.notNull("logDensityCol", name));
        return this;
    }

    /**
     * Sets the rows per prediction call.
     *
     * @throws IllegalArgumentException unless rows >= 1
     */
    public RegressionModelScorer setBatchSize(int rows) {
        Checks.atLeast("batchSize", rows, 1);
        set(batchSize, rows);
        return this;
    }

    /**
     * Sets what a row with a null or non-finite feature does.
     *
     * @throws IllegalArgumentException unless mode is "error" or "keep"
     */
    public RegressionModelScorer setHandleInvalid(String mode) {
        checkHandleInvalid(mode);
        set(handleInvalid, mode);
        return this;
    }

    // ------------------------------------------------------------------ Transformer

    /**
     * The input schema followed by the output columns.
     *
     * @throws IllegalArgumentException if a feature or label column is missing or not numeric, an output column
     *                                  already exists or two outputs share a name, or a parameter is out of range
     */
    @Override
    public StructType transformSchema(StructType schema) {
        plan(schema);
        StructType out = schema;
        for (String name : scalarOutputsBeforeQuantiles()) {
            out = out.add(name, DataTypes.DoubleType, true);
        }
        double[] q = getOrDefault(quantiles);
        if (q.length > 0) {
            out = out.add(getOrDefault(quantilesCol), DataTypes.createArrayType(DataTypes.DoubleType, false), true);
        }
        if (coverage() > 0) {
            out = out.add(getOrDefault(lowerCol), DataTypes.DoubleType, true);
            out = out.add(getOrDefault(upperCol), DataTypes.DoubleType, true);
        }
        if (!getOrDefault(labelCol).isEmpty()) {
            out = out.add(getOrDefault(logDensityCol), DataTypes.DoubleType, true);
        }
        return out;
    }

    /**
     * The rows of {@code dataset} with the output columns appended (lazy, like every Spark transformation).
     *
     * @throws IllegalArgumentException as {@link #transformSchema}
     */
    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        Checks.notNull("dataset", dataset);
        StructType outSchema = transformSchema(dataset.schema());
        ScoringPlan plan = plan(dataset.schema());
        Broadcast<ModelPayload> model = broadcast(dataset.sparkSession());
        return dataset.toDF().mapPartitions(new ScorePartition(model, plan), Encoders.row(outSchema));
    }

    @Override
    public RegressionModelScorer copy(ParamMap extra) {
        RegressionModelScorer c = new RegressionModelScorer(uid, modelBytes, inputWidth, featureNames);
        copyValues(c, extra);
        return hasParent() ? c.setParent(parent()) : c;
    }

    @Override
    public String toString() {
        return "RegressionModelScorer[" + uid + ", " + inputWidth + " inputs, " + modelBytes.length + " model bytes]";
    }

    // ------------------------------------------------------------------ internals

    /** The model's bytes as a broadcast of the session's context: made once per context. */
    private synchronized Broadcast<ModelPayload> broadcast(SparkSession session) {
        SparkContext sc = session.sparkContext();
        if (broadcast == null || broadcastContext != sc || sc.isStopped()) {
            broadcast = JavaSparkContext.fromSparkContext(sc).broadcast(ModelPayload.of(modelBytes));
            broadcastContext = sc;
        }
        return broadcast;
    }

    private double coverage() {
        return (Double) getOrDefault(intervalCoverage);
    }

    private String[] scalarOutputsBeforeQuantiles() {
        return Arrays.stream(new String[] {getOrDefault(meanCol), getOrDefault(medianCol)}).filter(s -> !s.isEmpty())
                .toArray(String[]::new);
    }

    /** Validates the parameters against {@code schema} and fixes what the partitions compute. */
    private ScoringPlan plan(StructType schema) {
        Checks.notNull("schema", schema);
        String[] given = getOrDefault(inputCols);
        checkInputCols(given);
        for (String c : given) {
            numericField(schema, "inputCols", c);
        }
        String[] cols = inModelOrder(given);
        int[] index = new int[cols.length];
        for (int j = 0; j < cols.length; j++) {
            index[j] = schema.fieldIndex(cols[j]);
        }
        String label = getOrDefault(labelCol);
        int labelIndex = label.isEmpty() ? -1 : numericField(schema, "labelCol", label);
        double[] q = getOrDefault(quantiles);
        checkQuantiles(q);
        double c = coverage();
        checkCoverage(c);
        int rows = (Integer) getOrDefault(batchSize);
        Checks.atLeast("batchSize", rows, 1);
        String invalid = getOrDefault(handleInvalid);
        checkHandleInvalid(invalid);
        Set<String> names = new HashSet<>();
        for (StructField f : schema.fields()) {
            names.add(f.name().toLowerCase(Locale.ROOT));
        }
        for (String out : outputNames(q.length > 0, c > 0, labelIndex >= 0)) {
            Checks.require(names.add(out.toLowerCase(Locale.ROOT)),
                    "output column '%s' must be new, but the input or another output already has it", out);
        }
        boolean anyOutput = !getOrDefault(meanCol).isEmpty() || !getOrDefault(medianCol).isEmpty() || q.length > 0
                || c > 0 || labelIndex >= 0;
        Checks.require(anyOutput, "the scorer must add at least one column, got none (every output is off)");
        double[] interval = c > 0 ? intervalLevels(c) : null;
        return new ScoringPlan(index, cols.clone(), labelIndex, label.isEmpty() ? null : label,
                !getOrDefault(meanCol).isEmpty(), !getOrDefault(medianCol).isEmpty(), q.clone(), interval, rows,
                invalid.equals("keep"));
    }

    /**
     * The levels {@code (1 - c) / 2} and {@code (1 + c) / 2}, worked out in decimal so that coverage 0.9 gives exactly
     * the doubles 0.05 and 0.95 (binary arithmetic gives 0.04999999999999999).
     */
    static double[] intervalLevels(double coverage) {
        BigDecimal c = BigDecimal.valueOf(coverage);
        BigDecimal two = BigDecimal.valueOf(2);
        return new double[] {BigDecimal.ONE.subtract(c).divide(two).doubleValue(), BigDecimal.ONE.add(c).divide(two).doubleValue()};
    }

    private String[] outputNames(boolean quantileCol, boolean interval, boolean logDensity) {
        java.util.List<String> out = new java.util.ArrayList<>(Arrays.asList(scalarOutputsBeforeQuantiles()));
        if (quantileCol) {
            out.add(nonBlank("quantilesCol", getOrDefault(quantilesCol)));
        }
        if (interval) {
            out.add(nonBlank("lowerCol", getOrDefault(lowerCol)));
            out.add(nonBlank("upperCol", getOrDefault(upperCol)));
        }
        if (logDensity) {
            out.add(nonBlank("logDensityCol", getOrDefault(logDensityCol)));
        }
        return out.toArray(String[]::new);
    }

    private static String nonBlank(String param, String value) {
        Checks.require(!value.isBlank(), "%s must name a column when its output is on, got '%s'", param, value);
        return value;
    }

    private static int numericField(StructType schema, String param, String name) {
        int i;
        try {
            i = schema.fieldIndex(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(param + " must name columns of the input, got '" + name
                    + "'; the input has " + Arrays.toString(schema.fieldNames()));
        }
        StructField f = schema.fields()[i];
        Checks.require(f.dataType() instanceof NumericType, "%s column '%s' must be numeric, got %s", param, name,
                f.dataType().simpleString());
        return i;
    }

    private void checkInputCols(String[] names) {
        Checks.notNull("inputCols", names);
        Checks.require(names.length == inputWidth, "inputCols must name the model's %d input columns, got %d: %s",
                inputWidth, names.length, Arrays.toString(names));
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            Checks.require(n != null && !n.isBlank(), "inputCols must be non-blank names, got %s", Arrays.toString(names));
            Checks.require(seen.add(n), "inputCols must be distinct, got '%s' twice", n);
        }
    }

    /**
     * The feature columns in the model's input order: by name for a model with names (each of them once, in any
     * order), as given for one without.
     */
    private String[] inModelOrder(String[] given) {
        if (featureNames.length == 0) {
            return given;
        }
        List<String> features = Arrays.asList(featureNames);
        for (String c : given) {
            Checks.require(features.contains(c), "inputCols must name the model's features, got '%s', which it was not "
                    + "trained on (features: %s)", c, String.join(", ", features));
        }
        return featureNames.clone(); // given holds each of them once (distinct, same count)
    }

    private static void checkQuantiles(double[] levels) {
        Checks.notNull("quantiles", levels);
        for (double p : levels) {
            Checks.require(p > 0 && p < 1, "quantiles must lie in (0, 1), got %s", p);
        }
    }

    private static void checkCoverage(double c) {
        Checks.require(c == 0 || (c > 0 && c < 1), "intervalCoverage must be 0 (none) or in (0, 1), got %s", c);
    }

    private static void checkHandleInvalid(String mode) {
        Checks.require("error".equals(mode) || "keep".equals(mode), "handleInvalid must be \"error\" or \"keep\", got %s",
                mode == null ? "null" : "\"" + mode + "\"");
    }
}
