package io.regheads.heads.model;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.TargetCheck;
import io.regheads.core.data.TargetScaler;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.SpecialValues;
import io.regheads.core.dist.Temperable;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Checkpoint;
import io.regheads.core.loss.Loss;
import io.regheads.core.metrics.Evaluation;
import io.regheads.core.nn.MlpEncoder;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.nn.Param;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainingResult;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The model users call: an MLP encoder phi(x), a head and a loss, with the data scaling done for them.
 *
 * <pre>{@code
 * RegressionModel m = RegressionModel.create(ModelConfig.defaults(new MixtureSpec(10)), train.features());
 * TrainingResult r = m.fit(train);                 // x standardised, y mapped to the head's units (train rows)
 * PredictiveDistribution d = m.predict(test.x());  // in the original units of y
 * double[] nll = d.logDensity(test.y());           // densities carry the Jacobian of the scaling
 * m.save(Path.of("model.rgh"));                     // RegressionModel.load(...) predicts identically
 * byte[] shipped = m.toBytes();                     // the same bytes without a file: fromBytes, save/load on streams
 * }</pre>
 *
 * <p>Scaling, fitted on the training rows: x is standardised; y goes through the target transform {@code t} ({@link
 * ModelConfig#targetTransform()}: NONE, ROBUST clipping or LOG's {@code log1p(y - min)}, see {@link TargetScaler}),
 * then the head's scaling of {@code t(y)} ({@link HeadSpec#targetScaling()}: to {@code y01 = (t - min) / (max -
 * min)}, {@code y01 - 0.5} or {@code t} itself), the spec first adapted to the targets ({@link HeadSpec#fittedTo};
 * then {@link #config()}). {@link #predict} maps back ({@code t = scale * h + shift}, then {@code min + expm1(t)} for
 * LOG, exact for the cdf and quantiles, Jacobians in the density); {@link #predictUnit} reports in y01 units.
 * Targets may be NaN or +-Infinity only where the head represents them ({@link HeadSpec#representsNonFinite()}) and
 * the transform is NONE.
 *
 * <p>Rows: plain arrays {@code x [B][D]} are taken by position and must be finite; a {@link Dataset} or named
 * columns are matched to the model's features by name ({@link #columnOrder}), a missing or unknown column refused by
 * name. Methods that need the fitted state throw {@link IllegalArgumentException} before {@link #fit} or a load.
 *
 * <p>The head describes itself (its spec, {@link RegressionHead#afterFit}, {@link RegressionHead#state()}): this
 * class never tests which head it holds. Not thread-safe while fitting; after fitting, {@code predict} may be called
 * from several threads.
 */
public final class RegressionModel {
    // A facade: Predictor predicts, TemperatureFit calibrates the temperature, ModelFile saves and loads,
    // FittedState keeps what the fit learnt of the data, TargetPipeline and RowEncoder map and check y and x.
    private final HeadSpec requested; // the head as configured, before fittedTo
    private ModelConfig config;
    private final int inputWidth;
    private final DataType type;
    private final MlpEncoder encoder;
    private RegressionHead<?> head;
    private final Loss loss;
    private FittedState fitted; // scalers, statistics, provenance, names: null until fitted or loaded
    private final RowEncoder rows; // rows into the encoder, with reused prediction buffers

    private RegressionModel(ModelConfig config, int inputWidth, DataType type) {
        this.config = Checks.notNull("config", config);
        this.requested = config.head();
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.type = type;
        long seed = config.trainer().seed();
        this.encoder = new MlpEncoder(new MlpEncoderConfig(inputWidth, config.encoderLayers(), config.encoderWidth(), seed), type);
        this.head = config.head().build(config.encoderWidth(), seed + 1, type);
        this.rows = new RowEncoder(encoder, type, inputWidth);
        this.loss = LossSpec.parse(config.loss());
    }

    /** A fresh, untrained float32 model for inputs of {@code inputWidth} features. */
    public static RegressionModel create(ModelConfig config, int inputWidth) {
        return new RegressionModel(config, inputWidth, DataType.FLOAT);
    }

    /** As {@link #create} in the given precision (DOUBLE for gradient checks and exactness tests). */
    public static RegressionModel create(ModelConfig config, int inputWidth, DataType type) {
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE, "type must be FLOAT or DOUBLE, got %s", type);
        return new RegressionModel(config, inputWidth, type);
    }

    /** {@return the configuration this model was created with (the fitted head spec after fit)} */
    public ModelConfig config() {
        return config;
    }

    /** Number of input features D. */
    public int inputWidth() {
        return inputWidth;
    }

    /** {@return the head} */
    public RegressionHead<?> head() {
        return head;
    }

    /** {@return the MLP encoder} */
    public MlpEncoder encoder() {
        return encoder;
    }

    /** Encoder then head parameters. */
    public List<Param> params() {
        return asTrainable().params();
    }

    /** Whether {@link #fit} has run (or the model was loaded). */
    public boolean isFitted() {
        return fitted != null;
    }

    /** Trains on {@code train} (validation split and early stopping as the trainer config says), no progress output. */
    public TrainingResult fit(Dataset train) {
        return fit(train, ProgressListener.none());
    }

    /**
     * Fits the scalers on {@code train}, adapts the head's spec to the targets ({@link HeadSpec#fittedTo}; a changed
     * spec gets a fresh head), then trains encoder and head. Targets as a min-max scaled head sees them are checked
     * by {@link TargetCheck}; its warnings (and ROBUST's clip count) go to SLF4J and to {@code progress}.
     *
     * @throws IllegalArgumentException on an empty dataset, a wrong feature count, a constant target, a NaN or
     *                                  infinite target for a head that cannot represent it or under a transform
     *                                  other than NONE (naming the row), or targets that min-max scaling cannot carry
     */
    public TrainingResult fit(Dataset train, ProgressListener progress) {
        rows.checkTrain(train);
        Checks.notNull("progress", progress);
        double[] y = train.y();
        FittedState start = FittedState.start(train, y, config, requested, progress);
        HeadSpec adapted = requested.fittedTo(start.target().toHead(y));
        if (!adapted.equals(config.head())) {
            config = config.withHead(adapted);
            head = adapted.build(config.encoderWidth(), config.trainer().seed() + 1, type);
        }
        fitted = start;
        Trainer trainer = new Trainer(config.trainer(), progress);
        Trainer.Holdout h = trainer.holdout(fitted.toHeadUnits(train));
        TrainingResult result = trainer.fit(asTrainable(), h.train(), h.validation());
        fitted = fitted.withProvenance(ModelProvenance.of(config.head(), h.train().rows(),
                h.validation() == null ? 0 : h.validation().rows(), result));
        // the head's after-fit step on held-out rows when there are any (training residuals understate a noise
        // level once the encoder fits the training rows closely)
        Dataset rest = h.validation() != null ? h.validation() : h.train();
        head.afterFit(rows.encode(rest.x()), rest.y());
        return result;
    }

    /**
     * Records, for a model whose scalers and weights a training run outside {@link #fit} set (data-parallel), the
     * features' means and population sds {@code [D]} ({@link #outOfRange}) and the run's provenance, saved with it.
     *
     * @throws IllegalArgumentException if the model has no fitted scalers, on a wrong length, a non-finite mean, a
     *                                  negative or non-finite sd, no training rows, negative validation rows or a
     *                                  null result
     */
    public void recordTraining(double[] featureMean, double[] featureSd, long trainingRows, long validationRows,
            TrainingResult result) {
        requireFitted();
        FittedState.checkStatistics(featureMean, featureSd, inputWidth);
        fitted = fitted.withTraining(featureMean.clone(), featureSd.clone(),
                ModelProvenance.recorded(config.head(), trainingRows, validationRows, result));
    }

    private void requireFitted() {
        Checks.require(isFitted(), "model must be fitted (or loaded) before predicting");
    }

    /** The fitted state; throws if the model is not fitted. */
    private FittedState fitted() {
        requireFitted();
        return fitted;
    }

    /** The prediction path of the fitted model as it is now. */
    private Predictor predictor() {
        return new Predictor(head, fitted(), rows);
    }

    /**
     * Predictive distributions of y (original units) for rows of x, mapped back from the head's; a {@link
     * SpecialValues} (P(NaN), P(+-Inf)) when the head has special values and the transform is not LOG. Chunks of 4096
     * rows in buffers reused per concurrent caller: no native allocation once warm. Identical calls give
     * bit-identical results, and {@link #predictPoint}'s mean, median and mode (heads without tokens) are this
     * distribution's. Precision ({@link RegressionHead#distributionBuilder}): a FLOAT histogram's float-exp softmax is
     * within a relative {@code 3.1e-7 + 1.2e-7 D} (D the row's logit spread) of the exact {@code
     * head.distribution(phi)}, the other heads within 1e-15; every finite x gives a valid distribution.
     */
    public PredictiveDistribution predict(double[][] x) {
        return predictor().positional().distribution(x);
    }

    /** As {@link #predict(double[][])} for the rows of {@code data}; its target column is not used. */
    public PredictiveDistribution predict(Dataset data) {
        Checks.notNull("data", data);
        return predict(data.x(), data.featureNames());
    }

    /**
     * As {@link #predict(double[][])} for rows {@code [B][C]} whose column {@code c} is named {@code columns.get(c)}
     * (C distinct names, every feature among them).
     */
    public PredictiveDistribution predict(double[][] x, List<String> columns) {
        return predictor().distribution(x, columns);
    }

    /** {@link #predictPoint(double[][])} for the rows of {@code data}. */
    public double[] predictPoint(Dataset data) {
        Checks.notNull("data", data);
        return predictor().point(data.x(), data.featureNames(), Decoding.of(pointEstimate()));
    }

    /**
     * Scores the model on {@code data} in y's units ({@link Evaluation}, as {@code regheads evaluate} prints it): NLL,
     * CRPS, RMSE and MAE of {@link #predictPoint(Dataset)}, PIT, and coverage and width of central intervals at
     * {@code levels} (none: 50, 80, 90, 95%).
     *
     * @throws IllegalArgumentException on a non-finite target ({@link #logLikelihood} scores those) or a bad level
     */
    public Evaluation evaluate(Dataset data, double... levels) {
        Checks.notNull("data", data);
        double[] y = TargetPipeline.checkScored(data.y());
        return Evaluation.of(predict(data), predictPoint(data), y, levels);
    }

    /**
     * Fits split-conformal central intervals ({@link ConformalIntervals}: coverage at least the level, at most level
     * + 1/(n + 1)) on {@code calibration}, rows with finite targets the model did not train on; kept and saved.
     *
     * @param levels increasing, in (0, 1), each needing at least {@code L / (1 - L)} rows; none for 50, 80, 90, 95%
     * @throws IllegalArgumentException on a non-finite target or too few rows for a level
     */
    public ConformalIntervals calibrateIntervals(Dataset calibration, double... levels) {
        Checks.notNull("calibration", calibration);
        ConformalIntervals c = ConformalIntervals.fit(predict(calibration), calibration.y(), levels);
        fitted = fitted.withConformal(c);
        return c;
    }

    /** The conformal intervals of {@link #calibrateIntervals}, if fitted. */
    public Optional<ConformalIntervals> conformalIntervals() {
        return Optional.ofNullable(fitted().conformal());
    }

    /**
     * {@code conformalIntervals().get().interval(predict(data), level)}: lower ends, then upper ends, {@code [2][B]}.
     *
     * @throws IllegalArgumentException if the model has no conformal intervals or none at this level
     */
    public double[][] conformalInterval(Dataset data, double level) {
        return fitted().requireConformal().interval(predict(data), level);
    }

    /**
     * For each feature of the model, in its order, the index of the column of that name in {@code columns} (how
     * named rows find their columns); the identity for a model that records no names.
     *
     * @throws IllegalArgumentException if a column is missing, unknown (the target among them) or repeated, naming it
     *                                  and listing the features; without names, if there are not D columns
     */
    public int[] columnOrder(List<String> columns) {
        Checks.notNull("columns", columns);
        return fitted().names().order(columns, inputWidth);
    }

    /** The training features' names in the model's input order; empty if trained without names (then by position). */
    public List<String> featureNames() {
        return fitted().names().features();
    }

    /** The name of the target column of the training data, if the model records it. */
    public Optional<String> targetName() {
        return fitted().names().target();
    }

    /**
     * Log-likelihood of mixed observations {@code y [B]}, original units ({@link SpecialValues#logLikelihood}): log
     * P(NaN), log P(+-Inf) (-Infinity without special values or under LOG), or {@link #predict}'s log density plus
     * log P(finite).
     *
     * @throws IllegalArgumentException if y has the wrong length
     */
    public double[] logLikelihood(double[][] x, double[] y) {
        return predictor().positional().logLikelihood(x, y);
    }

    /** The head's distribution in its own units (the unmapped {@link #predict}) for rows of x (checked). */
    PredictiveDistribution predictHeadUnits(double[][] x) {
        return predictor().headUnits(x);
    }

    /**
     * Calibrates sharpness on {@code heldOut}, finite targets the model did not train on: the temperature T ({@link
     * Temperable}: {@code softmax(logits / T)}, {@code T sigma}) minimising the rule's mean score, by golden-section
     * search on log T in [log 0.05, log 20] (tolerance 1e-4); kept and saved for every later prediction unless it
     * scores no better than the current one. T = 1 leaves every result bit for bit as before.
     *
     * @throws IllegalArgumentException if a target is not finite, or the head's distribution takes no temperature
     *                                  (the decoders: use {@link #calibrateIntervals})
     */
    public TemperatureCalibration calibrateTemperature(Dataset heldOut, ScoringRule rule) {
        Checks.notNull("heldOut", heldOut);
        Checks.notNull("rule", rule);
        Predictor p = predictor();
        double[] y = Checks.allFinite("heldOut targets", heldOut.y());
        TemperatureCalibration c = TemperatureFit.fit(p.untempered(heldOut.x(), heldOut.featureNames()), head,
                fitted.target(), y, rule, fitted.temperature());
        fitted = fitted.withTemperature(c.temperature());
        return c;
    }

    /** Whether {@link #calibrateTemperature} applies: the head's distribution (of a row of zeros) is Temperable. */
    public boolean takesTemperature() {
        return predictor().untempered(new double[1][inputWidth]) instanceof Temperable;
    }

    /** The temperature of the predictive distributions: 1 unless {@link #calibrateTemperature} set another. */
    public double temperature() {
        return fitted().temperature();
    }

    /**
     * Rows of {@code x} with a feature more than {@code k} (> 0, e.g. 10) training sds from its training mean, {@code
     * |x[i][j] - mean_j| > k * sd_j} (a constant feature: any other value): predictions there extrapolate. Example:
     * trained on x0 in [-1, 1] (mean 0, sd 0.577), x0 = 1000 lies 1732 sd out.
     *
     * @throws IllegalArgumentException if k is not > 0 and finite
     * @throws IllegalStateException    if the model has no feature statistics (they overflow double)
     */
    public OutOfRangeReport outOfRange(double[][] x, double k) {
        FittedState f = fitted();
        f.names().positional();
        return f.outOfRange(rows.check(x), k);
    }

    /** Point predictions of y {@code [B]} (original units) by {@link #pointEstimate()}. */
    public double[] predictPoint(double[][] x) {
        return predictPoint(x, pointEstimate());
    }

    /**
     * The summary {@link #predictPoint(double[][])} reports: the head's ({@link HeadSpec#pointEstimate()}), but the
     * median under LOG, where y's mean is dominated by the upper tail (and overflows for targets spanning hundreds of
     * orders of magnitude); {@code predictPoint(x, PointEstimate.MEAN)} still gives it.
     */
    public PointEstimate pointEstimate() {
        return config.targetTransform() == TargetTransform.LOG ? PointEstimate.MEDIAN : config.head().pointEstimate();
    }

    /** {@link #predictPoint(double[][], Decoding)} with {@link Decoding#of}'s plain sampling settings. */
    public double[] predictPoint(double[][] x, PointEstimate estimate) {
        Checks.notNull("estimate", estimate);
        return predictPoint(x, Decoding.of(estimate));
    }

    /**
     * Point predictions of y {@code [B]} decoded as {@code decoding} says: MEAN, MEDIAN, MODE (without tokens also
     * GREEDY, the mode, and AUTO, the mean where finite, else the median) of {@link #predict}'s distribution; the rest
     * by the head ({@link RegressionHead#point(INDArray, Decoding)}: a decoder samples with temperature, top-k, top-p;
     * its AUTO is the certified mean, else the median, its GREEDY a beam search), mapped back as a quantile (under LOG,
     * MEAN, MODE and AUTO are y's own). E.g. {@code Decoding.of(PointEstimate.SAMPLE_MEAN).withSampling(0.8, 0, 0.95)
     * .withSamples(512, 1)}.
     *
     * @throws IllegalArgumentException if it asks a head without tokens for temperature, top-k or top-p, or for
     *                                  SAMPLE_MEAN under LOG (an average of samples of log1p(y - min) is not one of y)
     */
    public double[] predictPoint(double[][] x, Decoding decoding) {
        return predictor().positional().point(x, decoding);
    }

    /** {@link #predictPoint(double[][], Decoding)} for named columns, as {@link #predict(double[][], List)}. */
    public double[] predictPoint(double[][] x, List<String> columns, Decoding decoding) {
        return predictor().point(x, columns, decoding);
    }

    /** As {@link #predict}, in units of {@code y01 = (t - min) / (max - min)} (t, min, max: transformed targets'). */
    public PredictiveDistribution predictUnit(double[][] x) {
        return predictor().positional().unit(x);
    }

    /** Encoder + head + loss on data in the head's units ({@link #toHeadUnitsOf}), as {@link #fit} trains them. */
    public TrainableModel asTrainable() {
        return new ModelTrainable(encoder, head, loss, type);
    }

    /** {@code data} in the head's units: x standardised, y as {@link HeadSpec#targetScaling()} maps it. */
    public Dataset toHeadUnitsOf(Dataset data) {
        return fitted().toHeadUnits(data);
    }

    /** The min-max scaler onto y01 of the finite transformed training targets ({@link #targetScaler}'s last step). */
    public MinMaxScaler yScaler() {
        return fitted().target().scaler().unit();
    }

    /** The map of y to the head's unit interval and back, fitted on the training rows. */
    public TargetScaler targetScaler() {
        return fitted().target().scaler();
    }

    /** Where the weights came from; empty if set outside {@link #fit} without {@link #recordTraining}. */
    public Optional<ModelProvenance> provenance() {
        return Optional.ofNullable(fitted().provenance());
    }

    /**
     * Writes the model to {@code file}: a checksummed {@link Checkpoint} with named metadata keys, format version 1.
     * Identical fits give identical files (keys sorted, no date).
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public void save(Path file) {
        checkpoint().write(file);
    }

    /** Writes the bytes of {@link #save(Path)} to {@code out}, flushed, left open; UncheckedIOException on failure. */
    public void save(OutputStream out) {
        Checks.notNull("out", out);
        checkpoint().write(out);
    }

    /** The bytes of {@link #save(Path)}, which {@link #fromBytes} reads back. */
    public byte[] toBytes() {
        return checkpoint().toBytes();
    }

    private Checkpoint checkpoint() {
        requireFitted();
        return ModelFile.write(new ModelFile.Contents(config, inputWidth, type, fitted, head.state()), params());
    }

    /**
     * Reads a model written by {@link #save}.
     *
     * @throws IllegalArgumentException if the file is missing, truncated, corrupt or not a regheads model, or its
     *                                  metadata is incomplete or invalid (the message names the key)
     */
    public static RegressionModel load(Path file) {
        return fromCheckpoint(Checkpoint.read(file), "model file " + file);
    }

    /** Reads a model file's bytes from {@code in} (left open); throws as {@link #load(Path)}, UncheckedIOException. */
    public static RegressionModel load(InputStream in) {
        return fromCheckpoint(Checkpoint.read(in), "model stream");
    }

    /** Reads a model from the bytes {@link #toBytes()} gave; throws as {@link #load(Path)}, naming the bytes. */
    public static RegressionModel fromBytes(byte[] bytes) {
        return fromCheckpoint(Checkpoint.fromBytes(bytes), "model bytes");
    }

    private static RegressionModel fromCheckpoint(Checkpoint c, String where) {
        return ModelFile.restore(c, where, f -> {
            RegressionModel m = new RegressionModel(f.config(), f.inputWidth(), f.type());
            c.loadInto(m.params());
            m.fitted = f.fitted();
            m.head.restoreState(f.state());
            return m;
        });
    }

    @Override
    public String toString() {
        return "RegressionModel[" + config + ", inputWidth=" + inputWidth + ", " + type + "]";
    }
}
