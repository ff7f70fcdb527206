package io.regheads.heads.model;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.data.TargetCheck;
import io.regheads.core.data.TargetScaler;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.Expm1Transformed;
import io.regheads.core.dist.PredictionCheck;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.SpecialValues;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.internal.Points;
import io.regheads.core.io.Checkpoint;
import io.regheads.core.io.Settings;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.MlpEncoder;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.nn.Param;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainingResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(RegressionModel.class);
    private static final String FORMAT = "regheads-model";
    /** The metadata version this class writes and the only one it reads (the first release's format). */
    static final int VERSION = 1;
    /** The prefix of the head's saved state ({@link RegressionHead#state()}) in the metadata. */
    static final String STATE_PREFIX = "state.";

    private final HeadSpec requested; // the head as configured, before fittedTo
    private ModelConfig config;
    private final int inputWidth;
    private final DataType type;
    private final MlpEncoder encoder;
    private RegressionHead<?> head;
    private final Loss loss;
    private StandardScaler xScaler;
    private TargetScaler targetScaler;
    /** Training mean and population standard deviation (0 for a constant column) of each feature; null if unknown. */
    private double[] inputMean;
    private double[] inputSd;
    private ModelProvenance provenance;
    /** The training data's column names (unknown for a model trained without them). */
    private ColumnNames names = ColumnNames.unknown();
    /** Reused prediction buffers, one workspace per concurrent caller. */
    private final InferenceArenas arenas = new InferenceArenas();

    private RegressionModel(ModelConfig config, int inputWidth, DataType type) {
        this.config = Checks.notNull("config", config);
        this.requested = config.head();
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.type = type;
        long seed = config.trainer().seed();
        this.encoder = new MlpEncoder(new MlpEncoderConfig(inputWidth, config.encoderLayers(), config.encoderWidth(), seed), type);
        this.head = config.head().build(config.encoderWidth(), seed + 1, type);
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
        List<Param> all = new ArrayList<>(encoder.params());
        all.addAll(head.params());
        return all;
    }

    /** Whether {@link #fit} has run (or the model was loaded). */
    public boolean isFitted() {
        return targetScaler != null;
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
        Checks.notNull("train", train);
        Checks.require(train.features() == inputWidth, "train must have %d features, got %d", inputWidth, train.features());
        Checks.require(train.rows() >= 2, "train must have at least 2 rows, got %d", train.rows());
        Checks.notNull("progress", progress);
        double[] y = train.y();
        checkTargets(y);
        targetScaler = fitTarget(finite(y), message -> warn(message, progress));
        xScaler = config.standardizeX() ? StandardScaler.fit(train) : identity(train.features());
        inputStatistics(train.x());
        names = ColumnNames.of(train.featureNames(), train.targetName(), inputWidth);
        MinMaxScaler unit = targetScaler.unit();
        HeadSpec fitted = requested.fittedTo(requested.targetScaling().toHead(transformed(y), unit.min(), unit.max()));
        if (!fitted.equals(config.head())) {
            config = config.withHead(fitted);
            head = fitted.build(config.encoderWidth(), config.trainer().seed() + 1, type);
        }
        Trainer trainer = new Trainer(config.trainer(), progress);
        Trainer.Holdout h = trainer.holdout(toHeadUnits(train));
        TrainingResult result = trainer.fit(new Trainable(), h.train(), h.validation());
        provenance = ModelProvenance.of(config.head(), h.train().rows(),
                h.validation() == null ? 0 : h.validation().rows(), result);
        // the head's after-fit step on held-out rows when there are any (training residuals understate a noise
        // level once the encoder fits the training rows closely)
        Dataset rest = h.validation() != null ? h.validation() : h.train();
        head.afterFit(encode(rest.x(), false), rest.y());
        return result;
    }

    /** Refuses NaN and +-Infinity targets unless the head represents them, and targets with no finite value. */
    private void checkTargets(double[] y) {
        boolean any = false;
        for (int i = 0; i < y.length; i++) {
            if (Double.isFinite(y[i])) {
                any = true;
            } else if (!requested.representsNonFinite()) {
                throw new IllegalArgumentException("train targets must be finite for head " + requested.name()
                        + " (only a decoder with special tokens learns NaN and +-Infinity), got " + y[i] + " at row "
                        + i);
            } else if (config.targetTransform() != TargetTransform.NONE) {
                throw new IllegalArgumentException("train targets must be finite under target transform "
                        + config.targetTransform() + " (NaN and +-Infinity reach head " + requested.name()
                        + " only with NONE), got " + y[i] + " at row " + i);
            }
        }
        Checks.require(any, "train targets must hold at least one finite value, got none of %d", y.length);
    }

    private static double[] finite(double[] y) {
        return java.util.Arrays.stream(y).filter(Double::isFinite).toArray();
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
        Checks.require(featureMean != null && featureMean.length == inputWidth, "featureMean must have %d values, got %s",
                inputWidth, featureMean == null ? "null" : Integer.toString(featureMean.length));
        Checks.require(featureSd != null && featureSd.length == inputWidth, "featureSd must have %d values, got %s",
                inputWidth, featureSd == null ? "null" : Integer.toString(featureSd.length));
        for (int j = 0; j < inputWidth; j++) {
            Checks.require(Double.isFinite(featureMean[j]), "featureMean[%d] must be finite, got %s", j, featureMean[j]);
            Checks.require(featureSd[j] >= 0 && Double.isFinite(featureSd[j]),
                    "featureSd[%d] must be >= 0 and finite, got %s", j, featureSd[j]);
        }
        Checks.require(trainingRows >= 1, "trainingRows must be >= 1, got %s", trainingRows);
        Checks.require(validationRows >= 0, "validationRows must be >= 0, got %s", validationRows);
        Checks.notNull("result", result);
        inputMean = featureMean.clone();
        inputSd = featureSd.clone();
        provenance = ModelProvenance.of(config.head(), trainingRows, validationRows, result);
    }

    /**
     * The target scaler of the configured transform for finite y, after {@link TargetCheck} on what the head will see
     * when it is trained on min-max scaled values (a head on raw y gets no such check).
     */
    private TargetScaler fitTarget(double[] y, java.util.function.Consumer<String> warning) {
        TargetTransform t = config.targetTransform();
        boolean minMax = requested.targetScaling() != TargetScaling.RAW;
        if (t == TargetTransform.NONE) {
            if (minMax) {
                TargetCheck.check("y", y).ifPresent(warning);
            }
            return TargetScaler.fit(t, y);
        }
        TargetScaler ts = TargetScaler.fit(t, y);
        double[] seen = new double[y.length];
        int clipped = 0;
        for (int i = 0; i < y.length; i++) {
            seen[i] = ts.transformed(y[i]);
            clipped += seen[i] != y[i] ? 1 : 0;
        }
        if (t == TargetTransform.ROBUST) {
            if (clipped > 0) {
                warning.accept(String.format(java.util.Locale.ROOT, "y: %d of %d targets lie outside the ROBUST "
                        + "bounds [%.6g, %.6g] (%.0f IQR beyond the quartiles) and were clipped to them", clipped, y.length,
                        ts.unit().min(), ts.unit().max(), TargetScaler.ROBUST_IQRS));
            }
            if (minMax) {
                TargetCheck.check("y clipped to the ROBUST bounds", seen).ifPresent(warning);
            }
        } else if (minMax) {
            TargetCheck.check("log1p(y - min)", seen).ifPresent(warning);
        }
        return ts;
    }

    /** A warning for the user: logged through SLF4J (this class's logger, WARN) and given to the listener. */
    private static void warn(String message, ProgressListener progress) {
        LOG.warn(message);
        progress.onWarning(message);
    }

    /** Column means and population standard deviations of the training features. */
    private void inputStatistics(double[][] x) {
        int d = x[0].length;
        double[] mean = new double[d];
        double[] sd = new double[d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                mean[j] += row[j];
            }
        }
        for (int j = 0; j < d; j++) {
            mean[j] /= x.length;
        }
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                double dev = row[j] - mean[j];
                sd[j] += dev * dev;
            }
        }
        boolean finite = true;
        for (int j = 0; j < d; j++) {
            sd[j] = Math.sqrt(sd[j] / x.length);
            finite &= Double.isFinite(mean[j]) && Double.isFinite(sd[j]);
        }
        // features near +-1.8e308 overflow the statistics: then the model keeps none (outOfRange refuses)
        inputMean = finite ? mean : null;
        inputSd = finite ? sd : null;
    }

    private static StandardScaler identity(int features) {
        double[] mean = new double[features];
        double[] scale = new double[features];
        java.util.Arrays.fill(scale, 1.0);
        return StandardScaler.of(mean, scale);
    }

    /**
     * {@code t(y)} for each target ({@link TargetScaler#transformed}); NaN and +-Infinity pass through unchanged
     * under NONE (special targets of a decoder with special tokens).
     *
     * @throws IllegalArgumentException under ROBUST or LOG, on a target that is not finite or (LOG) lies at or below
     *                                  {@code min - 1}, where {@code log1p(y - min)} does not exist
     */
    private double[] transformed(double[] y) {
        if (targetScaler.transform() == TargetTransform.NONE) {
            return y.clone();
        }
        Checks.allFinite("y", y);
        double[] t = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            t[i] = targetScaler.transformed(y[i]);
            if (Double.isNaN(t[i])) {
                throw new IllegalArgumentException("y[" + i + "] must be > " + (targetScaler.shift() - 1) + " (the "
                        + "training minimum " + targetScaler.shift() + " minus 1) for the LOG transform, got " + y[i]);
            }
        }
        return t;
    }

    private Dataset toHeadUnits(Dataset data) {
        MinMaxScaler unit = targetScaler.unit();
        double[] y = config.head().targetScaling().toHead(transformed(data.y()), unit.min(), unit.max());
        return xScaler.transform(data).withY(y);
    }

    /** The factor of {@code y = scale * h + shift} from the head's units to y's ({@link TargetScaling#scale}). */
    private double headScale() {
        return config.head().targetScaling().scale(targetScaler.unit().min(), targetScaler.unit().max());
    }

    /** The offset of {@code y = scale * h + shift} ({@link TargetScaling#shift}). */
    private double headShift() {
        return config.head().targetScaling().shift(targetScaler.unit().min(), targetScaler.unit().max());
    }

    /** {@code base} mapped by {@code y = scale * x + shift}, or base itself for the identity. */
    private static PredictiveDistribution mapped(PredictiveDistribution base, double scale, double shift) {
        return scale == 1.0 && shift == 0.0 ? base : new AffineTransformed(base, scale, shift);
    }

    /** phi for rows of x ({@code standardise}: apply the x scaler first). */
    private INDArray encode(double[][] x, boolean standardise) {
        double[][] z = standardise ? xScaler.transform(x) : x;
        int n = z.length;
        int d = z[0].length;
        INDArray in;
        if (type == DataType.FLOAT) { // one flat copy: Nd4j.createFromArray(double[][]) costs ~25 us per row
            float[] flat = new float[n * d];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < d; j++) {
                    flat[i * d + j] = (float) z[i][j];
                }
            }
            in = Nd4j.create(flat, new long[] {n, d}, 'c');
        } else {
            double[] flat = new double[n * d];
            for (int i = 0; i < n; i++) {
                System.arraycopy(z[i], 0, flat, i * d, d);
            }
            in = Nd4j.create(flat, new long[] {n, d}, 'c');
        }
        return encoder.infer(in);
    }

    private void requireFitted() {
        Checks.require(isFitted(), "model must be fitted (or loaded) before predicting");
    }

    private double[][] checkX(double[][] x) {
        Checks.notNull("x", x);
        Checks.require(x.length > 0, "x must have at least one row, got 0");
        for (int i = 0; i < x.length; i++) { // explicit tests: no varargs boxing or message strings per row
            if (x[i] == null || x[i].length != inputWidth) {
                throw new IllegalArgumentException("x row " + i + " must have " + inputWidth + " features, got "
                        + (x[i] == null ? "null" : String.valueOf(x[i].length)));
            }
            for (int j = 0; j < inputWidth; j++) {
                if (!Double.isFinite(x[i][j])) {
                    throw new IllegalArgumentException("x row " + i + " must be finite everywhere, got " + x[i][j]
                            + " at index " + j);
                }
            }
        }
        return x;
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
        requireFitted();
        names.positional();
        return toY(predictHeadUnits(checkX(x)));
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
        requireFitted();
        return toY(predictHeadUnits(checkX(inModelOrder(x, columns))));
    }

    /**
     * The point predictions of {@link #predictPoint(double[][])} for the rows of {@code data}, its columns matched by
     * name as {@link #predict(Dataset)} matches them.
     *
     * @throws IllegalArgumentException as {@link #predict(Dataset)}
     */
    public double[] predictPoint(Dataset data) {
        Checks.notNull("data", data);
        requireFitted();
        return point(inModelOrder(data.x(), data.featureNames()), Decoding.of(pointEstimate()));
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
        if (!names.known()) {
            Checks.require(columns.size() == inputWidth, "columns must be %d (the model's input width, matched by "
                    + "position: it records no names), got %d", inputWidth, columns.size());
        }
        return names.order(columns);
    }

    private double[][] inModelOrder(double[][] x, List<String> columns) {
        return ColumnNames.reordered(Checks.notNull("x", x), columnOrder(columns));
    }

    /**
     * The names of the feature columns the model was trained on, in the order its inputs take them ({@link
     * Dataset#featureNames()} of the training data); empty for a model trained without names (its inputs are taken
     * by position).
     */
    public List<String> featureNames() {
        return names.features();
    }

    /** The name of the target column of the training data, if the model records it. */
    public Optional<String> targetName() {
        return names.target();
    }

    /** A distribution in the head's units mapped to y's: the head's scaling back, then expm1 for LOG. */
    private PredictiveDistribution toY(PredictiveDistribution base) {
        PredictiveDistribution t = mapped(base, headScale(), headShift());
        return targetScaler.transform() == TargetTransform.LOG ? new Expm1Transformed(t, targetScaler.shift()) : t;
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
        requireFitted();
        names.positional();
        PredictiveDistribution d = toY(predictHeadUnits(checkX(x)));
        SpecialValues s = d instanceof SpecialValues sv ? sv : new AffineTransformed(d, 1.0, 0.0);
        return s.logLikelihood(y);
    }

    /**
     * The head's distribution in its own units (the unmapped {@link #predict}) for rows of x (checked), chunk by
     * chunk through a pooled workspace.
     */
    PredictiveDistribution predictHeadUnits(double[][] x) {
        requireFitted();
        int n = x.length;
        RegressionHead.DistributionBuilder out = head.distributionBuilder(n);
        double[] mean = xScaler.mean();
        double[] scale = xScaler.scale();
        InferenceArenas.Workspace w = arenas.acquire();
        try {
            for (int from = 0; from < n; from += InferenceArenas.CHUNK_ROWS) {
                int rows = Math.min(InferenceArenas.CHUNK_ROWS, n - from);
                Arena arena = w.arenaFor(rows);
                out.add(encoder.infer(standardised(x, from, rows, mean, scale, arena), arena), from, arena);
            }
        } finally {
            arenas.release(w);
        }
        return out.build();
    }

    /** Rows {@code [from, from + rows)} of x standardised, {@code (x - mean) / scale}, in an arena array. */
    private INDArray standardised(double[][] x, int from, int rows, double[] mean, double[] scale, Arena arena) {
        int d = inputWidth;
        INDArray in = arena.get(type, rows, d); // [rows, D]
        if (type == DataType.FLOAT) {
            float[] flat = arena.floats(rows * d);
            for (int i = 0; i < rows; i++) {
                double[] row = x[from + i];
                for (int j = 0; j < d; j++) {
                    flat[i * d + j] = (float) ((row[j] - mean[j]) / scale[j]);
                }
            }
            Host.write(flat, in);
        } else {
            double[] flat = arena.doubles(rows * d);
            for (int i = 0; i < rows; i++) {
                double[] row = x[from + i];
                for (int j = 0; j < d; j++) {
                    flat[i * d + j] = (row[j] - mean[j]) / scale[j];
                }
            }
            Host.write(flat, in);
        }
        return in;
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
        requireFitted();
        names.positional();
        checkX(x);
        Checks.positive("k", k);
        if (inputMean == null) {
            throw new IllegalStateException("this model has no training feature statistics (they overflow double): "
                    + "scale the features down and refit it to check inputs");
        }
        return OutOfRangeReport.of(x, inputMean, inputSd, k);
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
     * Point predictions of y (original units) decoded as {@code decoding} says: for a head that generates no tokens,
     * the mean, median and mode (GREEDY: the mode; AUTO: the mean where finite, else the median) of the distribution
     * {@link #predict} returns, computed once by the same code, and the sample summaries from the head ({@link
     * RegressionHead#point(INDArray, Decoding)}); a decoder decodes every summary itself (it applies temperature,
     * top-k and top-p to its tokens for the sample-based summaries, its exact mean is certified, its mode a beam
     * search). Then {@code scale * p + shift} for the
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
        requireFitted();
        names.positional();
        return point(x, decoding);
    }

    /** {@link #predictPoint(double[][], Decoding)} for rows in the model's column order. */
    private double[] point(double[][] x, Decoding decoding) {
        Checks.notNull("decoding", decoding);
        PointEstimate estimate = decoding.point();
        boolean log = targetScaler.transform() == TargetTransform.LOG;
        if (log && (estimate == PointEstimate.MEAN || estimate == PointEstimate.MODE
                || estimate == PointEstimate.AUTO)) {
            // none commutes with expm1: the mean and mode of y's own distribution (see Expm1Transformed)
            PredictiveDistribution d = toY(predictHeadUnits(checkX(x)));
            return estimate == PointEstimate.MODE ? d.mode() : Points.meanElseMedian(d);
        }
        Checks.require(!log || estimate != PointEstimate.SAMPLE_MEAN, "decoding must not be SAMPLE_MEAN under the LOG "
                + "target transform (samples are averaged in log1p(y - min)); use MEAN or SAMPLE_MEDIAN, got %s",
                decoding);
        double[] p = fromDistribution(estimate) ? summary(predictHeadUnits(checkX(x)), estimate)
                : head.point(encode(checkX(x), true), decoding);
        double scale = headScale();
        double shift = headShift();
        for (int i = 0; i < p.length; i++) {
            p[i] = scale * p[i] + shift; // as AffineTransformed maps a base point
            if (log) {
                p[i] = targetScaler.shift() + Math.expm1(p[i]); // as Expm1Transformed maps a quantile: exactly
            }
        }
        return p;
    }

    /**
     * Whether a point estimate is a summary of the predictive distribution that {@link #predict} builds, so that
     * {@code predictPoint} and {@code predict(x).mean()} (median, mode) are one computation and agree bit for bit:
     * MEAN, MEDIAN, MODE, GREEDY and AUTO for a head that generates no tokens. A head that generates tokens decodes
     * its own points (the certified mean, beam search, filtered sampling).
     */
    private boolean fromDistribution(PointEstimate estimate) {
        return !head.generatesTokens() && estimate != PointEstimate.SAMPLE_MEAN
                && estimate != PointEstimate.SAMPLE_MEDIAN;
    }

    /** The summary of {@code d} that a point estimate names (see {@link #fromDistribution}). */
    private static double[] summary(PredictiveDistribution d, PointEstimate estimate) {
        return switch (estimate) {
            case MEAN -> d.mean();
            case MEDIAN -> d.median();
            case MODE, GREEDY -> d.mode();
            case AUTO -> Points.meanElseMedian(d);
            default -> throw new IllegalStateException("not a summary of the distribution: " + estimate);
        };
    }

    /**
     * Predictive distributions of {@code y01 = (t - min) / (max - min)} (t the transformed target, min and max those
     * of the finite training targets), whatever units the head is trained in; as {@link #predict}.
     *
     * @throws IllegalArgumentException if the model is not fitted or x is invalid
     */
    public PredictiveDistribution predictUnit(double[][] x) {
        requireFitted();
        names.positional();
        PredictiveDistribution base = predictHeadUnits(checkX(x));
        MinMaxScaler unit = targetScaler.unit();
        double range = unit.range();
        return mapped(base, headScale() / range, (headShift() - unit.min()) / range);
    }

    /**
     * Encoder + head + loss as a {@link TrainableModel} on data already in the head's units (x standardised, y as
     * {@link HeadSpec#targetScaling()} maps it): for benchmarks and custom training loops. {@link #fit} uses the same
     * object.
     */
    public TrainableModel asTrainable() {
        return new Trainable();
    }

    /**
     * {@code data} mapped to the head's units with the fitted scalers (x standardised, y as {@link
     * HeadSpec#targetScaling()} maps it).
     */
    public Dataset toHeadUnitsOf(Dataset data) {
        requireFitted();
        return toHeadUnits(data);
    }

    /**
     * The min-max scaler onto y01, fitted on the finite training targets: of y itself without a target transform,
     * of the ROBUST bounds, or of {@code log1p(y - min)} with LOG ({@link #targetScaler()} has the whole map), whatever
     * the head's units ({@link HeadSpec#targetScaling()} starts from its min and max).
     */
    public MinMaxScaler yScaler() {
        requireFitted();
        return targetScaler.unit();
    }

    /** The map of y to the head's unit interval and back, fitted on the training rows. */
    public TargetScaler targetScaler() {
        requireFitted();
        return targetScaler;
    }

    /**
     * Where the fitted weights came from: library version, head, training and validation rows, epochs, stop reason
     * and final losses; saved with the model. Empty for files written before provenance was kept.
     */
    public Optional<ModelProvenance> provenance() {
        requireFitted();
        return Optional.ofNullable(provenance);
    }

    /** Encoder + head + loss as the trainer sees them (y in head units). */
    private final class Trainable implements TrainableModel {
        @Override
        public List<Param> params() {
            return RegressionModel.this.params();
        }

        @Override
        public double trainStep(INDArray x, double[] y, Arena arena) {
            return step(head, x, y, arena, true);
        }

        @Override
        public double evaluate(INDArray x, double[] y, Arena arena) {
            return step(head, x, y, arena, false);
        }

        /** Encoder and head forward, the loss, and (when training) head and encoder backward. */
        private <C> double step(RegressionHead<C> h, INDArray x, double[] y, Arena arena, boolean train) {
            MlpEncoder.Cache ec = encoder.forward(x, arena);
            Targets t = h.targets(y);
            RegressionHead.Forward<C> f = h.forward(ec.output(), t, arena);
            if (!train) {
                return loss.accumulate(f.output(), t, 1.0, f.output().zerosLike(arena), new double[y.length]);
            }
            HeadOutput dOut = f.output().zerosLike(arena);
            double value = loss.accumulate(f.output(), t, 1.0, dOut, new double[y.length]);
            INDArray dPhi = h.backward(f, dOut, arena);
            encoder.backwardParams(ec, dPhi, arena); // no gradient for the data
            return value;
        }

        /** {@link PredictionCheck#collapsed} on the head's distributions for these rows. */
        @Override
        public Optional<String> diagnose(INDArray x, double[] y) {
            // NaN and +-Infinity targets (a head with special tokens) are outcomes, not positions: the check looks
            // at the finite rows, whose quantiles describe the finite part
            int[] fin = java.util.stream.IntStream.range(0, y.length).filter(i -> Double.isFinite(y[i])).toArray();
            if (fin.length == y.length) {
                return PredictionCheck.collapsed(head.distribution(encoder.infer(x)), y);
            }
            if (fin.length == 0) {
                return Optional.empty();
            }
            double[] yFinite = new double[fin.length];
            for (int i = 0; i < fin.length; i++) {
                yFinite[i] = y[fin[i]];
            }
            return PredictionCheck.collapsed(head.distribution(encoder.infer(x.getRows(fin))), yFinite);
        }

        @Override
        public DataType dataType() {
            return type;
        }
    }

    // ------------------------------------------------------------------ save / load

    /**
     * Writes config, head state, scalers and weights to {@code file} (see {@link Checkpoint} for the format and its
     * checks). The metadata is named keys: {@code format}, {@code version}, {@code inputWidth}, {@code dtype}, the
     * configuration's keys ({@link ModelConfig#toProperties()}, the head's among them), {@code state.<name>} for the
     * head's state, {@code x.mean}, {@code x.scale}, {@code y.min}, {@code y.max} (the unit scaler's bounds, see {@link
     * #yScaler()}), {@code target.shift} (LOG only), {@code inputs.mean}, {@code inputs.sd} (training feature
     * statistics; absent when they overflow), the provenance ({@code provenance.*}, see {@link ModelProvenance}) and
     * the training data's column names ({@code names.target}, {@code names.feature.<j>}; absent for a model trained
     * without names). The bytes depend only on
     * the model: identical fits give identical files (keys sorted, no date: the provenance holds no time).
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
        Properties p = config.toProperties();
        p.setProperty("format", FORMAT);
        p.setProperty("version", Integer.toString(VERSION));
        p.setProperty("inputWidth", Integer.toString(inputWidth));
        p.setProperty("dtype", type.name());
        head.state().forEach((k, v) -> p.setProperty(STATE_PREFIX + k, Double.toString(v)));
        p.setProperty("x.mean", join(xScaler.mean()));
        p.setProperty("x.scale", join(xScaler.scale()));
        p.setProperty("y.min", Double.toString(targetScaler.unit().min()));
        p.setProperty("y.max", Double.toString(targetScaler.unit().max()));
        if (targetScaler.transform() == TargetTransform.LOG) {
            p.setProperty("target.shift", Double.toString(targetScaler.shift()));
        }
        if (inputMean != null) {
            p.setProperty("inputs.mean", join(inputMean));
            p.setProperty("inputs.sd", join(inputSd));
        }
        if (provenance != null) {
            p.putAll(provenance.toProperties());
        }
        names.write(p);
        return Checkpoint.of(metadata(p), params());
    }

    /**
     * The properties as {@link Properties#store} escapes them, one key per line in key order and without the date
     * comment, so that the same model always gives the same bytes.
     */
    private static String metadata(Properties p) {
        StringWriter w = new StringWriter();
        try {
            p.store(w, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String[] lines = w.toString().split("\\R");
        StringBuilder sb = new StringBuilder();
        Arrays.stream(lines).filter(l -> !l.isEmpty() && !l.startsWith("#")).sorted()
                .forEach(l -> sb.append(l).append('\n'));
        return sb.toString();
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
        Properties p = new Properties();
        try {
            p.load(new StringReader(c.metadata()));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " has unreadable metadata: " + e.getMessage(), e);
        }
        Checks.require(FORMAT.equals(p.getProperty("format")), "%s is not a regheads model (format %s)", where,
                p.getProperty("format"));
        try {
            Settings s = Settings.of(p, "");
            int version = s.integer("version");
            Checks.require(version == VERSION, "version must be %d (the only model format this library reads), got %d",
                    VERSION, version);
            ModelConfig mc = ModelConfig.of(p);
            int width = s.integer("inputWidth");
            String dtype = s.string("dtype");
            Checks.require(dtype.equals("FLOAT") || dtype.equals("DOUBLE"), "dtype must be FLOAT or DOUBLE, got '%s'",
                    dtype);
            RegressionModel m = new RegressionModel(mc, width, DataType.valueOf(dtype));
            c.loadInto(m.params());
            m.xScaler = StandardScaler.of(numbers(s, "x.mean"), numbers(s, "x.scale"));
            TargetTransform t = mc.targetTransform();
            m.targetScaler = TargetScaler.of(t, t == TargetTransform.LOG ? s.real("target.shift") : 0,
                    MinMaxScaler.of(s.real("y.min"), s.real("y.max")));
            if (p.getProperty("inputs.mean") != null) {
                m.inputMean = numbers(s, "inputs.mean");
                m.inputSd = numbers(s, "inputs.sd");
                Checks.require(m.inputMean.length == width && m.inputSd.length == width,
                        "inputs.mean and inputs.sd must have %d values, got %d and %d", width, m.inputMean.length,
                        m.inputSd.length);
            }
            m.provenance = ModelProvenance.read(p).orElse(null);
            m.names = ColumnNames.read(p, width);
            Map<String, Double> state = new LinkedHashMap<>();
            Settings st = Settings.of(p, STATE_PREFIX);
            for (String key : new java.util.TreeSet<>(p.stringPropertyNames())) {
                if (key.startsWith(STATE_PREFIX)) {
                    String name = key.substring(STATE_PREFIX.length());
                    state.put(name, st.real(name));
                }
            }
            m.head.restoreState(state);
            return m;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " has invalid metadata: " + e.getMessage(), e);
        }
    }

    /** A comma-separated list of finite numbers. */
    private static double[] numbers(Settings s, String key) {
        String v = s.string(key);
        try {
            double[] d = split(v);
            Checks.allFinite(key, d);
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be comma-separated numbers, got '" + v + "'", e);
        }
    }

    private static String join(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            sb.append(i == 0 ? "" : ",").append(v[i]);
        }
        return sb.toString();
    }

    private static double[] split(String s) {
        return Arrays.stream(s.split(",")).mapToDouble(Double::parseDouble).toArray();
    }

    @Override
    public String toString() {
        return "RegressionModel[" + config + ", inputWidth=" + inputWidth + ", " + type + "]";
    }
}
