package io.regheads.heads.model;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.data.TargetCheck;
import io.regheads.core.dist.AffineTransformed;
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
 * <p>Scaling: x is standardised with the training mean and standard deviation; y is mapped to the head's units
 * as its spec says ({@link HeadSpec#targetScaling()}, with the training min and max of the finite targets): {@code
 * y01 = (y - min) / (max - min)} (histogram, normalized decoder), {@code y01 - 0.5} (pointwise, mixture, xVal) or y
 * itself (the unnormalized decoder). Before the head is built the spec may adapt itself to the training targets
 * ({@link HeadSpec#fittedTo}, e.g. the unnormalized decoder's exponent range); the adapted spec is this model's
 * {@link #config()} from then on and is saved with it. {@link #predict} maps back ({@code y = scale * h + shift},
 * an {@code AffineTransformed} unless the map is the identity), so its log densities are in the original units
 * ({@code log p_y = log p_h - log scale}) and NaN/+-Infinity probabilities pass through; {@link #predictUnit}
 * reports in y01 units (the decoding paper's NLL convention).
 *
 * <p>Targets may be NaN or +-Infinity only where the head represents them ({@link HeadSpec#representsNonFinite()}:
 * a decoder with special tokens); other heads refuse them with a message naming the row.
 *
 * <p>The head describes itself: its spec ({@link HeadSpec}) builds it, names its units, default loss and point
 * prediction and writes its settings; the head runs its own after-fit step ({@link RegressionHead#afterFit}, e.g. the
 * pointwise head's noise level from held-out residuals) and hands over the state to save ({@link
 * RegressionHead#state()}). This class never tests which head it holds.
 *
 * <p>Not thread-safe while fitting; after fitting, {@code predict} may be called from several threads.
 */
public final class RegressionModel {
    private static final String FORMAT = "regheads-model";
    /** The metadata version this class writes: 2 = named keys (1, implicit, = the first, positional format). */
    static final int VERSION = 2;
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
    private MinMaxScaler yScaler;

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

    public ModelConfig config() {
        return config;
    }

    public RegressionHead<?> head() {
        return head;
    }

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
        return yScaler != null;
    }

    /** Trains on {@code train} (validation split and early stopping as the trainer config says), no progress output. */
    public TrainingResult fit(Dataset train) {
        return fit(train, ProgressListener.none());
    }

    /**
     * Fits the scalers on {@code train}, adapts the head's spec to the training targets ({@link HeadSpec#fittedTo};
     * a changed spec gets a fresh head), then trains encoder and head with the trainer settings.
     *
     * @throws IllegalArgumentException on an empty dataset, a wrong feature count, a constant target, a NaN or
     *                                  infinite target for a head that cannot represent it (the message names the
     *                                  row), or, for a head trained on min-max scaled y, targets that min-max scaling
     *                                  cannot carry (an overflowing range, extreme values: see {@link TargetCheck};
     *                                  heavy tails only give a warning to {@code progress}); a head on raw y ({@link
     *                                  TargetScaling#RAW}, the unnormalized decoder) is made for such targets
     */
    public TrainingResult fit(Dataset train, ProgressListener progress) {
        Checks.notNull("train", train);
        Checks.require(train.features() == inputWidth, "train must have %d features, got %d", inputWidth, train.features());
        Checks.require(train.rows() >= 2, "train must have at least 2 rows, got %d", train.rows());
        Checks.notNull("progress", progress);
        double[] y = train.y();
        checkTargets(y);
        if (requested.targetScaling() != TargetScaling.RAW) {
            TargetCheck.check("y", finite(y)).ifPresent(progress::onWarning);
        }
        xScaler = config.standardizeX() ? StandardScaler.fit(train) : identity(train.features());
        yScaler = MinMaxScaler.fit(finite(y));
        HeadSpec fitted = requested.fittedTo(requested.targetScaling().toHead(y, yScaler.min(), yScaler.max()));
        if (!fitted.equals(config.head())) {
            config = config.withHead(fitted);
            head = fitted.build(config.encoderWidth(), config.trainer().seed() + 1, type);
        }
        Trainer trainer = new Trainer(config.trainer(), progress);
        Trainer.Holdout h = trainer.holdout(toHeadUnits(train));
        TrainingResult result = trainer.fit(new Trainable(), h.train(), h.validation());
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
            }
        }
        Checks.require(any, "train targets must hold at least one finite value, got none of %d", y.length);
    }

    private static double[] finite(double[] y) {
        return java.util.Arrays.stream(y).filter(Double::isFinite).toArray();
    }

    private static StandardScaler identity(int features) {
        double[] mean = new double[features];
        double[] scale = new double[features];
        java.util.Arrays.fill(scale, 1.0);
        return StandardScaler.of(mean, scale);
    }

    private Dataset toHeadUnits(Dataset data) {
        double[] y = config.head().targetScaling().toHead(data.y(), yScaler.min(), yScaler.max());
        return xScaler.transform(data).withY(y);
    }

    /** The factor of {@code y = scale * h + shift} from the head's units to y's ({@link TargetScaling#scale}). */
    private double headScale() {
        return config.head().targetScaling().scale(yScaler.min(), yScaler.max());
    }

    /** The offset of {@code y = scale * h + shift} ({@link TargetScaling#shift}). */
    private double headShift() {
        return config.head().targetScaling().shift(yScaler.min(), yScaler.max());
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
     * by {@code y = scale * h + shift} ({@link HeadSpec#targetScaling()}), so {@code logDensity} in y units is the
     * head's minus {@code log(scale)}; a {@link io.regheads.core.dist.SpecialValues} (P(NaN), P(+-Inf)) when the
     * head reports special values.
     *
     * @throws IllegalArgumentException if the model is not fitted or x is invalid
     */
    public PredictiveDistribution predict(double[][] x) {
        requireFitted();
        return mapped(head.distribution(encode(checkX(x), true)), headScale(), headShift());
    }

    /**
     * The log-likelihood of mixed observations per row, original units: the log density of finite y (as {@link
     * #predict} reports it), {@code log P(NaN)} for NaN and {@code log P(+-Inf)} for an infinity ({@link
     * SpecialValues#logLikelihood}: 0 probability, so {@code -Infinity}, for a head without special values), plus
     * {@code log P(finite)} for finite y where the head has special values.
     *
     * @param x {@code [B][D]} rows
     * @param y {@code [B]} any doubles
     * @return {@code [B]}
     * @throws IllegalArgumentException if the model is not fitted, x is invalid or y has the wrong length
     */
    public double[] logLikelihood(double[][] x, double[] y) {
        requireFitted();
        SpecialValues d = new AffineTransformed(head.distribution(encode(checkX(x), true)), headScale(), headShift());
        return d.logLikelihood(y);
    }

    /** The head's distributions in its own units (the unmapped {@link #predict}), for tests of the map. */
    PredictiveDistribution predictHeadUnits(double[][] x) {
        requireFitted();
        return head.distribution(encode(checkX(x), true));
    }

    /**
     * The head's point prediction of y (original units) for rows of x, as its spec names it ({@link
     * HeadSpec#pointEstimate()}): the predictive mean, or AUTO for the unnormalized decoder (the certified mean,
     * else the median).
     *
     * @return {@code [B]}
     * @throws IllegalArgumentException if the model is not fitted or x is invalid
     */
    public double[] predictPoint(double[][] x) {
        return predictPoint(x, config.head().pointEstimate());
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
     * Point predictions of y (original units) decoded as {@code decoding} says, which the head computes ({@link
     * RegressionHead#point(INDArray, Decoding)}: a decoder applies temperature, top-k and top-p to its tokens for the
     * sample-based summaries, its exact mean is certified, its mode a beam search): {@code scale * p + shift} for the
     * head's prediction p, the same map as {@link #predict}'s. Example: {@code predictPoint(x,
     * Decoding.of(PointEstimate.SAMPLE_MEAN).withSampling(0.8, 0, 0.95).withSamples(512, 1))}.
     *
     * @param decoding the summary and its sampling settings
     * @return {@code [B]}
     * @throws IllegalArgumentException if the model is not fitted, x is invalid, decoding is null, or it asks a head
     *                                  that generates no tokens for temperature, top-k or top-p
     */
    public double[] predictPoint(double[][] x, Decoding decoding) {
        requireFitted();
        Checks.notNull("decoding", decoding);
        double[] p = head.point(encode(checkX(x), true), decoding);
        double scale = headScale();
        double shift = headShift();
        if (scale != 1.0 || shift != 0.0) {
            for (int i = 0; i < p.length; i++) {
                p[i] = scale * p[i] + shift; // as AffineTransformed maps a base point
            }
        }
        return p;
    }

    /**
     * Predictive distributions of {@code y01 = (y - min) / (max - min)} (training min and max of the finite
     * targets), whatever units the head is trained in.
     *
     * @throws IllegalArgumentException if the model is not fitted or x is invalid
     */
    public PredictiveDistribution predictUnit(double[][] x) {
        requireFitted();
        PredictiveDistribution base = head.distribution(encode(checkX(x), true));
        double range = yScaler.range();
        return mapped(base, headScale() / range, (headShift() - yScaler.min()) / range);
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

    /** The y scaler fitted on the finite training targets (min and max of y01, whatever the head's units). */
    public MinMaxScaler yScaler() {
        requireFitted();
        return yScaler;
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
     * head's state, {@code x.mean}, {@code x.scale}, {@code y.min}, {@code y.max}. The bytes depend only on the
     * model: identical fits give identical files (keys sorted, no date).
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
        p.setProperty("y.min", Double.toString(yScaler.min()));
        p.setProperty("y.max", Double.toString(yScaler.max()));
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
     * Reads a model written by {@link #save}, in the current named-key metadata or the first, positional one
     * (before heads wrote their own settings).
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
            if (p.getProperty("version") == null) {
                p = LegacyModelFormat.upgrade(p, VERSION);
            }
            Settings s = Settings.of(p, "");
            int version = s.integer("version");
            Checks.require(version == VERSION, "version must be %d (the newest this library reads), got %d", VERSION,
                    version);
            ModelConfig mc = ModelConfig.of(p);
            int width = s.integer("inputWidth");
            String dtype = s.string("dtype");
            Checks.require(dtype.equals("FLOAT") || dtype.equals("DOUBLE"), "dtype must be FLOAT or DOUBLE, got '%s'",
                    dtype);
            RegressionModel m = new RegressionModel(mc, width, DataType.valueOf(dtype));
            c.loadInto(m.params());
            m.xScaler = StandardScaler.of(numbers(s, "x.mean"), numbers(s, "x.scale"));
            m.yScaler = MinMaxScaler.of(s.real("y.min"), s.real("y.max"));
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
