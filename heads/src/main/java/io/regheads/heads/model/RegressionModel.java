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
import io.regheads.core.head.TargetScaling;
import io.regheads.core.internal.Checks;
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
 * <p>Scaling: x is standardised with the training mean and standard deviation. y goes through two maps, fitted on
 * the finite training targets: first the target transform {@code t} ({@link ModelConfig#targetTransform()}, see
 * {@link TargetScaler}): the identity (NONE), clipping to bounds 3 IQR beyond the quartiles (ROBUST, for a few wild
 * targets) or {@code log1p(y - min)} (LOG, for targets spanning orders of magnitude); then the head's scaling of
 * {@code t(y)} as its spec says ({@link HeadSpec#targetScaling()}, with the min and max of the transformed targets):
 * {@code y01 = (t - min) / (max - min)} (histogram, normalized decoder), {@code y01 - 0.5} (pointwise, mixture,
 * xVal) or {@code t} itself (the unnormalized decoder). Before the head is built the spec may adapt itself to the
 * training targets in its units ({@link HeadSpec#fittedTo}, e.g. the unnormalized decoder's exponent range); the
 * adapted spec is this model's {@link #config()} from then on and is saved with it. {@link #predict} maps back
 * ({@code t = scale * h + shift}, an {@code AffineTransformed} unless the map is the identity, then {@code min +
 * expm1(t)} for LOG, exactly for the cdf and quantiles, with the Jacobian in the density), so its log densities are
 * in the original units and, without LOG, NaN/+-Infinity probabilities pass through; {@link #predictUnit} reports in
 * y01 units (the decoding paper's NLL convention).
 *
 * <p>Targets may be NaN or +-Infinity only where the head represents them ({@link HeadSpec#representsNonFinite()}:
 * a decoder with special tokens) and the target transform is NONE; otherwise they are refused with a message naming
 * the row.
 *
 * <p>After fitting, the model also holds the training mean and standard deviation of each feature ({@link
 * #outOfRange} reports the rows of new inputs far outside them) and its provenance ({@link #provenance()}: library
 * version, head, rows, epochs, stop reason, final losses), both saved with it.
 *
 * <p>The head describes itself: its spec ({@link HeadSpec}) builds it, names its units, default loss and point
 * prediction and writes its settings; the head runs its own after-fit step ({@link RegressionHead#afterFit}, e.g. the
 * pointwise head's noise level from held-out residuals) and hands over the state to save ({@link
 * RegressionHead#state()}). This class never tests which head it holds.
 *
 * <p>Not thread-safe while fitting; after fitting, {@code predict} may be called from several threads.
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
     * Fits the scalers on {@code train}, adapts the head's spec to the training targets ({@link HeadSpec#fittedTo};
     * a changed spec gets a fresh head), then trains encoder and head with the trainer settings.
     *
     * <p>The targets are checked ({@link TargetCheck}) as a head on min-max scaled y will see them: y itself without
     * a target transform, y clipped to the ROBUST bounds (a warning says how many were clipped, for any head), or
     * {@code log1p(y - min)}; a head on raw y ({@link TargetScaling#RAW}, the unnormalized decoder) is made for
     * extreme targets and gets no such check.
     *
     * @throws IllegalArgumentException on an empty dataset, a wrong feature count, a constant target, a NaN or
     *                                  infinite target for a head that cannot represent it or under a target
     *                                  transform other than NONE (the message names the row), or, for a head trained
     *                                  on min-max scaled y, targets that min-max scaling cannot carry (an overflowing
     *                                  or too wide range, extreme values: see {@link TargetCheck}; heavy tails only
     *                                  give a warning, logged through SLF4J and given to {@code progress})
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
     * Records what a training run made outside {@link #fit} knows of its data, for a model whose scalers and weights
     * it set (data-parallel training over a cluster, where the statistics come from distributed passes): the training
     * features' means and population standard deviations ({@link #outOfRange} compares new rows with them) and the
     * run's provenance (saved with the model).
     *
     * @param featureMean  {@code [D]} finite
     * @param featureSd    {@code [D]} finite and at least 0 (0 for a constant column)
     * @param trainingRows rows trained on
     * @param validationRows rows held out for early stopping
     * @param result       the run's epochs, losses and stop reason
     * @throws IllegalArgumentException on a wrong length, a non-finite or negative statistic, or a null result
     * @throws IllegalStateException    if the model has no fitted scalers
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
     * Predictive distributions of y (original units) for rows of x {@code [B][D]}: the head's distribution mapped
     * by {@code t = scale * h + shift} ({@link HeadSpec#targetScaling()}), then for the LOG target transform by
     * {@code y = min + expm1(t)} ({@link io.regheads.core.dist.Expm1Transformed}), so {@code logDensity} in y units
     * carries the Jacobians; a {@link io.regheads.core.dist.SpecialValues} (P(NaN), P(+-Inf)) when the head reports
     * special values and the transform is not LOG.
     *
     * <p>The rows go through the encoder and the head in chunks of 4096 with buffers that the model reuses (one set
     * per concurrent caller), so a call allocates no native memory once warm, whatever B; the result holds B rows
     * in flat arrays (see the heads' distributions). Identical calls give bit-identical results.
     *
     * <p>Precision: the heads' fast builders ({@link RegressionHead#distributionBuilder}); for a FLOAT model the
     * histogram softmax uses a float exponential, each probability within a relative {@code 3.1e-7 + 1.2e-7 D} (D
     * the row's logit spread) of the exact softmax that {@code head.distribution(phi)} computes; the other heads
     * agree with it within 1e-15 relative. {@link #predictPoint} takes its mean, median and mode from this same
     * distribution (for heads that generate no tokens), so the two agree bit for bit. Every finite x gives a valid distribution (rows the fast kernels do not cover are
     * computed exactly). Heads without a fast builder (the decoders) compute their distribution of all rows from the
     * chunks' features.
     *
     * @throws IllegalArgumentException if the model is not fitted or x is invalid
     */
    public PredictiveDistribution predict(double[][] x) {
        return predictor().positional().distribution(x);
    }

    /**
     * As {@link #predict(double[][])} for the rows of {@code data}, its feature columns matched to the model's by
     * name ({@link #columnOrder}): in any order, refused when one is missing or unknown. The target column of data is
     * not used.
     *
     * @throws IllegalArgumentException if the model is not fitted, or a column is missing or not a feature of the
     *                                  model (the message names it)
     */
    public PredictiveDistribution predict(Dataset data) {
        Checks.notNull("data", data);
        return predict(data.x(), data.featureNames());
    }

    /**
     * As {@link #predict(double[][])} for rows whose columns are named: {@code x[i][c]} is the value of column {@code
     * columns.get(c)}, matched to the model's features by name ({@link #columnOrder}).
     *
     * @param x       {@code [B][C]} finite
     * @param columns C distinct names, each a feature of the model; every feature present
     * @throws IllegalArgumentException if the model is not fitted, x is invalid, or a column is missing or not a
     *                                  feature of the model (the message names it)
     */
    public PredictiveDistribution predict(double[][] x, List<String> columns) {
        return predictor().distribution(x, columns);
    }

    /**
     * The point predictions of {@link #predictPoint(double[][])} for the rows of {@code data}, its columns matched by
     * name as {@link #predict(Dataset)} matches them.
     *
     * @throws IllegalArgumentException as {@link #predict(Dataset)}
     */
    public double[] predictPoint(Dataset data) {
        Checks.notNull("data", data);
        return predictor().point(data.x(), data.featureNames(), Decoding.of(pointEstimate()));
    }

    /**
     * Scores the model on {@code data} (columns matched by name as {@link #predict(Dataset)}): mean NLL and CRPS of
     * {@link #predict}, RMSE and MAE of {@link #predictPoint(Dataset)}, coverage and mean width of the central
     * intervals at {@code levels} (default 50, 80, 90 and 95%), and the PIT histogram, all in the units of y ({@link
     * Evaluation}). The same scores {@code regheads evaluate} and {@code compare} print.
     *
     * @param data   rows with finite targets
     * @param levels central-interval levels in (0, 1); none for the defaults
     * @throws IllegalArgumentException if the model is not fitted, a column is missing or unknown, a target is not
     *                                  finite (NaN and +-Infinity outcomes are scored by {@link #logLikelihood}), or
     *                                  a level is outside (0, 1)
     */
    public Evaluation evaluate(Dataset data, double... levels) {
        Checks.notNull("data", data);
        double[] y = TargetPipeline.checkScored(data.y());
        return Evaluation.of(predict(data), predictPoint(data), y, levels);
    }

    /**
     * Fits split-conformal central intervals on {@code calibration}, rows the model did not train on, and keeps them
     * with the model (saved with it): {@link ConformalIntervals} widens (or narrows) the model's own central
     * intervals by an offset per level, so that a new row from the same distribution as the calibration rows is
     * covered with probability at least the level (at most the level + 1/(n + 1)). Replaces any earlier fit.
     *
     * @param calibration rows with finite targets, columns matched by name; at least {@code L / (1 - L)} rows for a
     *                    level L
     * @param levels      levels in (0, 1), increasing; none for 50, 80, 90 and 95%
     * @return the fitted intervals
     * @throws IllegalArgumentException if the model is not fitted, a column is missing or unknown, a target is not
     *                                  finite, or there are too few rows for a level
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
     * The conformal central interval at {@code level} for the rows of {@code data} (columns by name): {@code
     * conformalIntervals().get().interval(predict(data), level)}.
     *
     * @return {@code [2][B]}: lower ends, then upper ends
     * @throws IllegalArgumentException if the model is not fitted, has no conformal intervals (call {@link
     *                                  #calibrateIntervals} first) or none at this level, or a column is missing
     */
    public double[][] conformalInterval(Dataset data, double level) {
        return fitted().requireConformal().interval(predict(data), level);
    }

    /**
     * For each feature of the model, in its order, the index of the column of that name in {@code columns}: how
     * {@link #predict(Dataset)} finds its columns. A model that records no names (one whose training rows were never
     * named, see {@link #featureNames()}) takes the columns by position.
     *
     * @param columns distinct column names, each a feature of the model, every feature present, in any order
     * @return {@code [D]} column indices
     * @throws IllegalArgumentException if a column is missing, unknown (the model's target among them) or repeated,
     *                                  naming it and listing the model's features; or, without names, if there are
     *                                  not D columns
     */
    public int[] columnOrder(List<String> columns) {
        Checks.notNull("columns", columns);
        return fitted.names().order(columns, inputWidth);
    }

    /**
     * The names of the feature columns the model was trained on, in the order its inputs take them ({@link
     * Dataset#featureNames()} of the training data); empty for a model trained without names (its inputs are taken
     * by position).
     */
    public List<String> featureNames() {
        return fitted().names().features();
    }

    /** The name of the target column of the training data, if the model records it. */
    public Optional<String> targetName() {
        return fitted().names().target();
    }

    /**
     * The log-likelihood of mixed observations per row, original units: the log density of finite y (as {@link
     * #predict} reports it), {@code log P(NaN)} for NaN and {@code log P(+-Inf)} for an infinity ({@link
     * SpecialValues#logLikelihood}: 0 probability, so {@code -Infinity}, for a head without special values or under
     * the LOG transform), plus {@code log P(finite)} for finite y where the head has special values.
     *
     * @param x {@code [B][D]} rows
     * @param y {@code [B]} any doubles
     * @return {@code [B]}
     * @throws IllegalArgumentException if the model is not fitted, x is invalid or y has the wrong length
     */
    public double[] logLikelihood(double[][] x, double[] y) {
        return predictor().positional().logLikelihood(x, y);
    }

    /**
     * The head's distribution in its own units (the unmapped {@link #predict}) for rows of x (checked), chunk by
     * chunk through a pooled workspace.
     */
    PredictiveDistribution predictHeadUnits(double[][] x) {
        return predictor().headUnits(x);
    }

    /**
     * Calibrates the sharpness of the predictive distributions on {@code heldOut}, rows the model did not train on:
     * the temperature T that minimises the rule's mean score there ({@link Temperable}: categorical weights {@code
     * softmax(logits / T)}, Gaussian scales {@code T sigma}), by golden-section search on {@code log T} in [log 0.05,
     * log 20] (tolerance 1e-4 in log T), kept with the model (saved with it) for every later prediction. Replaces
     * any earlier temperature; T = 1 leaves every result bit for bit as before.
     *
     * @param heldOut rows with finite targets, columns matched by name
     * @param rule    NLL or CRPS
     * @return the calibration: the temperature and the rule's score before and after
     * @throws IllegalArgumentException if the model is not fitted, a column is missing, a target is not finite, or the
     *                                  head's distribution takes no temperature (the decoders: calibrate their
     *                                  intervals with {@link #calibrateIntervals})
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

    /**
     * Whether {@link #calibrateTemperature} applies: the head's distribution takes a temperature ({@link Temperable}:
     * histogram, mixture, pointwise, xVal; not the decoders or the quantile head, whose intervals {@link
     * #calibrateIntervals} calibrates). Asks the head for one distribution (of a row of zeros).
     *
     * @throws IllegalArgumentException if the model is not fitted
     */
    public boolean takesTemperature() {
        return predictor().untempered(new double[1][inputWidth]) instanceof Temperable;
    }

    /** The temperature of the predictive distributions: 1 unless {@link #calibrateTemperature} set another. */
    public double temperature() {
        return fitted().temperature();
    }

    /**
     * The rows of {@code x} with a feature more than {@code k} training standard deviations from its training mean:
     * {@code |x[i][j] - mean_j| > k * sd_j} (sd the population standard deviation of the training rows; a feature
     * constant in training counts any other value as infinitely far). Predictions for such rows extrapolate: the
     * encoder never saw anything like them. Nothing is changed; {@link #predict} still answers for every row.
     *
     * <p>Example: trained on x0 in [-1, 1] (mean 0, sd 0.577), a row with x0 = 1000 lies 1732 sd out and is reported
     * for any k below that.
     *
     * @param x {@code [B][D]} finite
     * @param k the threshold in standard deviations, > 0 and finite (e.g. 10)
     * @return the report, empty if every row lies within k sd
     * @throws IllegalArgumentException if x is invalid or k is not > 0 and finite
     * @throws IllegalStateException    if the model has no feature statistics: trained on features whose statistics
     *                                  overflow double
     */
    public OutOfRangeReport outOfRange(double[][] x, double k) {
        FittedState f = fitted();
        f.names().positional();
        return f.outOfRange(rows.check(x), k);
    }

    /**
     * The point prediction of y (original units) for rows of x by {@link #pointEstimate()}: as the head's spec names
     * it ({@link HeadSpec#pointEstimate()}: the predictive mean, or AUTO for the unnormalized decoder, the certified
     * mean, else the median), and the median under the LOG target transform.
     *
     * @return {@code [B]}
     * @throws IllegalArgumentException if the model is not fitted or x is invalid
     */
    public double[] predictPoint(double[][] x) {
        return predictPoint(x, pointEstimate());
    }

    /**
     * The summary {@link #predictPoint(double[][])} reports: the head's ({@link HeadSpec#pointEstimate()}), except
     * under the LOG target transform, where it is the median: mapped exactly from the head's, while y's mean is
     * dominated by the upper tail of the predicted distribution (and is infinite in double once its far upper
     * quantiles overflow, as they do for a wide prediction of a target spanning hundreds of orders of magnitude);
     * {@code predictPoint(x, PointEstimate.MEAN)} still gives it.
     */
    public PointEstimate pointEstimate() {
        return config.targetTransform() == TargetTransform.LOG ? PointEstimate.MEDIAN : config.head().pointEstimate();
    }

    /**
     * Point predictions of y (original units) by the given summary ({@link #predictPoint(double[][], Decoding)} with
     * {@link Decoding#of}'s plain sampling settings).
     *
     * @param estimate mean, median, mode, greedy decoding, sample mean or median, or AUTO
     * @return {@code [B]}
     * @throws IllegalArgumentException if the model is not fitted, x is invalid or estimate is null
     */
    public double[] predictPoint(double[][] x, PointEstimate estimate) {
        Checks.notNull("estimate", estimate);
        return predictPoint(x, Decoding.of(estimate));
    }

    /**
     * Point predictions of y (original units) decoded as {@code decoding} says: the mean, median and mode of the
     * distribution {@link #predict} returns, computed by the same code (for a head without tokens also GREEDY, the
     * mode, and AUTO, the mean where finite, else the median); the other summaries from the head ({@link
     * RegressionHead#point(INDArray, Decoding)}: a decoder applies temperature, top-k and top-p to its tokens for the
     * sample-based summaries, its AUTO is the certified mean, else the median, its GREEDY a beam search). Then {@code
     * scale * p + shift} for the
     * head's prediction p, the same map as {@link #predict}'s, then {@code min + expm1} under the LOG transform (exact
     * for the median, greedy decoding and sample medians, which commute with it). Under LOG, MEAN, MODE and AUTO are
     * those of y's own distribution ({@link #predict}), and SAMPLE_MEAN is refused (an average of samples of log1p(y
     * - min) is not one of y).
     * Example: {@code predictPoint(x, Decoding.of(PointEstimate.SAMPLE_MEAN).withSampling(0.8, 0, 0.95)
     * .withSamples(512, 1))}.
     *
     * @param decoding the summary and its sampling settings
     * @return {@code [B]}
     * @throws IllegalArgumentException if the model is not fitted, x is invalid, decoding is null, it asks a head
     *                                  that generates no tokens for temperature, top-k or top-p, or it asks for
     *                                  SAMPLE_MEAN under the LOG target transform
     */
    public double[] predictPoint(double[][] x, Decoding decoding) {
        return predictor().positional().point(x, decoding);
    }

    /**
     * As {@link #predictPoint(double[][], Decoding)} for rows whose columns are named: {@code x[i][c]} is the value of
     * column {@code columns.get(c)}, matched to the model's features by name ({@link #columnOrder}), as {@link
     * #predict(double[][], List)} matches them.
     *
     * @throws IllegalArgumentException as {@link #predictPoint(double[][], Decoding)}, or if a column is missing or
     *                                  not a feature of the model (the message names it)
     */
    public double[] predictPoint(double[][] x, List<String> columns, Decoding decoding) {
        return predictor().point(x, columns, decoding);
    }

    /**
     * Predictive distributions of {@code y01 = (t - min) / (max - min)} (t the transformed target, min and max those
     * of the finite training targets), whatever units the head is trained in; as {@link #predict}.
     *
     * @throws IllegalArgumentException if the model is not fitted or x is invalid
     */
    public PredictiveDistribution predictUnit(double[][] x) {
        return predictor().positional().unit(x);
    }

    /**
     * Encoder + head + loss as a {@link TrainableModel} on data already in the head's units (x standardised, y as
     * {@link HeadSpec#targetScaling()} maps it): for benchmarks and custom training loops. {@link #fit} uses the same
     * object.
     */
    public TrainableModel asTrainable() {
        return new ModelTrainable(encoder, head, loss, type);
    }

    /**
     * {@code data} mapped to the head's units with the fitted scalers (x standardised, y as {@link
     * HeadSpec#targetScaling()} maps it).
     */
    public Dataset toHeadUnitsOf(Dataset data) {
        return fitted().toHeadUnits(data);
    }

    /**
     * The min-max scaler onto y01, fitted on the finite training targets: of y itself without a target transform,
     * of the ROBUST bounds, or of {@code log1p(y - min)} with LOG ({@link #targetScaler()} has the whole map), whatever
     * the head's units ({@link HeadSpec#targetScaling()} starts from its min and max).
     */
    public MinMaxScaler yScaler() {
        return fitted().target().scaler().unit();
    }

    /** The map of y to the head's unit interval and back, fitted on the training rows. */
    public TargetScaler targetScaler() {
        return fitted().target().scaler();
    }

    /**
     * Where the fitted weights came from: library version, head, training and validation rows, epochs, stop reason
     * and final losses; saved with the model. Empty for a model whose weights were set outside {@link #fit} without
     * {@link #recordTraining}.
     */
    public Optional<ModelProvenance> provenance() {
        return Optional.ofNullable(fitted().provenance());
    }

    /**
     * Writes config, head state, scalers, feature statistics, provenance, column names and weights to {@code file}:
     * a {@link Checkpoint} (checksummed) whose metadata is named keys, format version 1 ({@link
     * ModelConfig#toProperties()} has the configuration's). The bytes depend only on the model: identical fits give
     * identical files (keys sorted, no date: the provenance holds no time).
     *
     * @throws IllegalArgumentException if the model is not fitted
     * @throws UncheckedIOException     if the file cannot be written
     */
    public void save(Path file) {
        checkpoint().write(file);
    }

    /**
     * Writes the same bytes as {@link #save(Path)} to {@code out}, e.g. to ship a model without a temporary file;
     * flushes the stream and leaves it open.
     *
     * @throws IllegalArgumentException if the model is not fitted or out is null
     * @throws UncheckedIOException     if the stream fails
     */
    public void save(OutputStream out) {
        Checks.notNull("out", out);
        checkpoint().write(out);
    }

    /**
     * The model in the file format of {@link #save(Path)}, as one array ({@link #fromBytes} reads it back and
     * predicts bit for bit the same).
     *
     * @throws IllegalArgumentException if the model is not fitted
     */
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

    /**
     * Reads a model written by {@link #save(OutputStream)} (or the bytes of a model file) from {@code in}, up to the
     * end of the stream, which stays open.
     *
     * @throws IllegalArgumentException as {@link #load(Path)}, naming the stream
     * @throws UncheckedIOException     if the stream fails
     */
    public static RegressionModel load(InputStream in) {
        return fromCheckpoint(Checkpoint.read(in), "model stream");
    }

    /**
     * Reads a model from the bytes {@link #toBytes()} gave (or a model file's bytes).
     *
     * @throws IllegalArgumentException as {@link #load(Path)}, naming the bytes
     */
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
