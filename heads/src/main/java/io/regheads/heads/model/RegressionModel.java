package io.regheads.heads.model;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.io.Checkpoint;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.MlpEncoder;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.nn.Param;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.pointwise.PointwiseHead;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The model users call: an MLP encoder phi(x), a head and a loss, with the data scaling done for them.
 *
 * <pre>{@code
 * RegressionModel m = RegressionModel.create(ModelConfig.defaults(new HeadSpec.Mixture(10)), train.features());
 * TrainingResult r = m.fit(train);                 // x standardised, y min-max scaled on train rows only
 * PredictiveDistribution d = m.predict(test.x());  // in the original units of y
 * double[] nll = d.logDensity(test.y());           // densities carry the Jacobian of the scaling
 * m.save(Path.of("model.rgh"));                     // RegressionModel.load(...) predicts identically
 * }</pre>
 *
 * <p>Scaling: x is standardised with the training mean and standard deviation; y is mapped to {@code y01 = (y -
 * min) / (max - min)} with the training min and max, and the head is trained on {@code y01 - head.centre()}.
 * {@link #predict} maps back ({@code AffineTransformed}), so its log densities are in the original units; {@link
 * #predictUnit} reports in y01 units (the decoding paper's NLL convention).
 *
 * <p>Not thread-safe while fitting; after fitting, {@code predict} may be called from several threads.
 */
public final class RegressionModel {
    private static final String FORMAT = "regheads-model";

    private final ModelConfig config;
    private final int inputWidth;
    private final DataType type;
    private final MlpEncoder encoder;
    private final RegressionHead head;
    private final Loss loss;
    private StandardScaler xScaler;
    private MinMaxScaler yScaler;
    /** Reused prediction buffers, one workspace per concurrent caller. */
    private final InferenceArenas arenas = new InferenceArenas();

    private RegressionModel(ModelConfig config, int inputWidth, DataType type) {
        this.config = Checks.notNull("config", config);
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

    /** Number of input features D. */
    public int inputWidth() {
        return inputWidth;
    }

    public RegressionHead head() {
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
     * Fits the scalers on {@code train}, then trains encoder and head with the trainer settings.
     *
     * @throws IllegalArgumentException on an empty dataset, a wrong feature count or a constant target
     */
    public TrainingResult fit(Dataset train, ProgressListener progress) {
        Checks.notNull("train", train);
        Checks.require(train.features() == inputWidth, "train must have %d features, got %d", inputWidth, train.features());
        Checks.require(train.rows() >= 2, "train must have at least 2 rows, got %d", train.rows());
        xScaler = config.standardizeX() ? StandardScaler.fit(train) : identity(train.features());
        yScaler = MinMaxScaler.fit(train);
        Trainer trainer = new Trainer(config.trainer(), progress);
        Trainer.Holdout h = trainer.holdout(toHeadUnits(train));
        TrainingResult result = trainer.fit(new Trainable(), h.train(), h.validation());
        if (head instanceof PointwiseHead p) {
            // the noise level of the reported Gaussian: residuals on held-out rows when there are any (training
            // residuals understate it once the encoder fits the training rows closely)
            double mse = meanSquaredResidual(p, h.validation() != null ? h.validation() : h.train());
            p.setNoiseStd(Math.sqrt(Math.max(mse, 1e-12)));
        }
        return result;
    }

    private static StandardScaler identity(int features) {
        double[] mean = new double[features];
        double[] scale = new double[features];
        java.util.Arrays.fill(scale, 1.0);
        return StandardScaler.of(mean, scale);
    }

    private Dataset toHeadUnits(Dataset data) {
        double[] y = yScaler.transform(data.y());
        double c = config.head().centre();
        for (int i = 0; i < y.length; i++) {
            y[i] -= c;
        }
        return xScaler.transform(data).withY(y);
    }

    private double meanSquaredResidual(PointwiseHead p, Dataset scaled) {
        double[] pred = p.predict(encode(scaled.x(), false));
        double s = 0;
        for (int i = 0; i < pred.length; i++) {
            double r = pred[i] - scaled.y(i);
            s += r * r;
        }
        return s / pred.length;
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
     * Predictive distributions of y (original units) for rows of x {@code [B][D]}.
     *
     * <p>The rows go through the encoder and the head in chunks of 4096 with buffers that the model reuses (one set
     * per concurrent caller), so a call allocates no native memory once warm, whatever B; the result holds B rows
     * in flat arrays (see the heads' distributions). Identical calls give bit-identical results.
     */
    public PredictiveDistribution predict(double[][] x) {
        requireFitted();
        PredictiveDistribution base = predictHeadUnits(checkX(x));
        return new AffineTransformed(base, yScaler.range(), yScaler.min() + config.head().centre() * yScaler.range());
    }

    /** The head's distribution for rows of x (checked), chunk by chunk through a pooled workspace. */
    private PredictiveDistribution predictHeadUnits(double[][] x) {
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
     * The head's point prediction of y (original units) for rows of x: the predictive mean, or the median for heads
     * whose {@link HeadSpec#pointEstimate()} says so (the unnormalized decoder).
     *
     * @return {@code [B]}
     */
    public double[] predictPoint(double[][] x) {
        return config.head().point(predict(x));
    }

    /** Predictive distributions of {@code y01 = (y - min) / (max - min)} (training min and max); as {@link #predict}. */
    public PredictiveDistribution predictUnit(double[][] x) {
        requireFitted();
        PredictiveDistribution base = predictHeadUnits(checkX(x));
        double c = config.head().centre();
        return c == 0 ? base : new AffineTransformed(base, 1.0, c);
    }

    /**
     * Encoder + head + loss as a {@link TrainableModel} on data already in the head's units (x standardised, y as
     * {@code y01 - centre}): for benchmarks and custom training loops. {@link #fit} uses the same object.
     */
    public TrainableModel asTrainable() {
        return new Trainable();
    }

    /**
     * {@code data} mapped to the head's units with the fitted scalers (x standardised, y to {@code y01 -
     * centre}).
     */
    public Dataset toHeadUnitsOf(Dataset data) {
        requireFitted();
        return toHeadUnits(data);
    }

    /** The y scaler fitted on the training rows. */
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
            MlpEncoder.Cache ec = encoder.forward(x, arena);
            Targets t = head.targets(y);
            RegressionHead.Forward f = head.forward(ec.output(), t, arena);
            HeadOutput dOut = f.output().zerosLike(arena);
            double value = loss.accumulate(f.output(), t, 1.0, dOut, new double[y.length]);
            INDArray dPhi = head.backward(f, dOut, arena);
            encoder.backwardParams(ec, dPhi, arena); // no gradient for the data
            return value;
        }

        @Override
        public double evaluate(INDArray x, double[] y, Arena arena) {
            MlpEncoder.Cache ec = encoder.forward(x, arena);
            Targets t = head.targets(y);
            RegressionHead.Forward f = head.forward(ec.output(), t, arena);
            return loss.accumulate(f.output(), t, 1.0, f.output().zerosLike(arena), new double[y.length]);
        }

        @Override
        public DataType dataType() {
            return type;
        }
    }

    // ------------------------------------------------------------------ save / load

    /** Writes config, scalers and weights to {@code file} (see {@link Checkpoint} for the format and its checks). */
    public void save(Path file) {
        requireFitted();
        Properties p = new Properties();
        p.setProperty("format", FORMAT);
        p.setProperty("inputWidth", Integer.toString(inputWidth));
        p.setProperty("dtype", type.name());
        p.setProperty("encoder.layers", Integer.toString(config.encoderLayers()));
        p.setProperty("encoder.width", Integer.toString(config.encoderWidth()));
        HeadSpec h = config.head();
        p.setProperty("head", h.name());
        if (h instanceof HeadSpec.Pointwise pw) {
            p.setProperty("head.sigmoid", Boolean.toString(pw.sigmoid()));
        } else if (h instanceof HeadSpec.Histogram hi) {
            p.setProperty("head.bins", Integer.toString(hi.bins()));
            p.setProperty("head.tails", Boolean.toString(hi.tails()));
        } else if (h instanceof HeadSpec.Mixture mx) {
            p.setProperty("head.components", Integer.toString(mx.components()));
        } else if (h instanceof HeadSpec.Decoder dc) {
            p.setProperty("head.decoder", dc.base() + "," + dc.length() + "," + dc.d() + "," + dc.heads() + "," + dc.ff()
                    + "," + dc.layers());
            p.setProperty("head.activation", dc.activation().name());
        } else if (h instanceof HeadSpec.UnnormalizedDecoder ud) {
            p.setProperty("head.unnormalized", ud.base() + "," + ud.exponentDigits() + "," + ud.mantissaDigits() + ","
                    + ud.d() + "," + ud.heads() + "," + ud.ff() + "," + ud.layers());
        }
        if (head instanceof PointwiseHead pw) {
            p.setProperty("head.noiseStd", Double.toString(pw.noiseStd()));
        }
        p.setProperty("loss", config.loss());
        p.setProperty("standardizeX", Boolean.toString(config.standardizeX()));
        TrainerConfig t = config.trainer();
        p.setProperty("trainer", t.seed() + "," + t.batchSize() + "," + t.maxEpochs() + "," + t.learningRate() + ","
                + t.weightDecay() + "," + t.clipNorm() + "," + t.validationFraction() + "," + t.patience());
        p.setProperty("x.mean", join(xScaler.mean()));
        p.setProperty("x.scale", join(xScaler.scale()));
        p.setProperty("y.min", Double.toString(yScaler.min()));
        p.setProperty("y.max", Double.toString(yScaler.max()));
        StringWriter w = new StringWriter();
        try {
            p.store(w, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Checkpoint.of(w.toString(), params()).write(file);
    }

    /**
     * Reads a model written by {@link #save}.
     *
     * @throws IllegalArgumentException if the file is missing, truncated, corrupt or not a regheads model
     */
    public static RegressionModel load(Path file) {
        Checkpoint c = Checkpoint.read(file);
        Properties p = new Properties();
        try {
            p.load(new StringReader(c.metadata()));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("model file " + file + " has unreadable metadata: " + e.getMessage(), e);
        }
        Checks.require(FORMAT.equals(p.getProperty("format")), "model file %s is not a regheads model (format %s)",
                file, p.getProperty("format"));
        try {
            HeadSpec h = switch (p.getProperty("head")) {
                case "pointwise" -> new HeadSpec.Pointwise(Boolean.parseBoolean(p.getProperty("head.sigmoid")));
                case "histogram" -> new HeadSpec.Histogram(Integer.parseInt(p.getProperty("head.bins")),
                        Boolean.parseBoolean(p.getProperty("head.tails")));
                case "mdn" -> new HeadSpec.Mixture(Integer.parseInt(p.getProperty("head.components")));
                case "decoder" -> {
                    double[] dc = split(p.getProperty("head.decoder"));
                    String act = p.getProperty("head.activation", "GELU"); // files before the option: GELU
                    if (!act.equals("GELU") && !act.equals("RELU")) {
                        throw new IllegalArgumentException("head.activation must be GELU or RELU, got '" + act + "'");
                    }
                    yield new HeadSpec.Decoder((int) dc[0], (int) dc[1], (int) dc[2], (int) dc[3], (int) dc[4], (int) dc[5],
                            TransformerBlock.Activation.valueOf(act));
                }
                case "unnormalized-decoder" -> {
                    double[] u = split(p.getProperty("head.unnormalized"));
                    yield new HeadSpec.UnnormalizedDecoder((int) u[0], (int) u[1], (int) u[2], (int) u[3], (int) u[4],
                            (int) u[5], (int) u[6]);
                }
                default -> throw new IllegalArgumentException("unknown head " + p.getProperty("head"));
            };
            double[] t = split(p.getProperty("trainer"));
            TrainerConfig tc = new TrainerConfig((long) t[0], (int) t[1], (int) t[2], t[3], t[4], t[5], t[6], (int) t[7]);
            ModelConfig mc = new ModelConfig(Integer.parseInt(p.getProperty("encoder.layers")),
                    Integer.parseInt(p.getProperty("encoder.width")), h, p.getProperty("loss"), tc,
                    Boolean.parseBoolean(p.getProperty("standardizeX")));
            RegressionModel m = new RegressionModel(mc, Integer.parseInt(p.getProperty("inputWidth")),
                    DataType.valueOf(p.getProperty("dtype")));
            c.loadInto(m.params());
            m.xScaler = StandardScaler.of(split(p.getProperty("x.mean")), split(p.getProperty("x.scale")));
            m.yScaler = MinMaxScaler.of(Double.parseDouble(p.getProperty("y.min")), Double.parseDouble(p.getProperty("y.max")));
            if (m.head instanceof PointwiseHead pw) {
                pw.setNoiseStd(Double.parseDouble(p.getProperty("head.noiseStd")));
            }
            return m;
        } catch (NullPointerException | NumberFormatException e) {
            throw new IllegalArgumentException("model file " + file + " has incomplete or malformed metadata: " + e, e);
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
