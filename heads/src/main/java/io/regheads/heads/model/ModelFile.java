package io.regheads.heads.model;

import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.data.TargetScaler;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Checkpoint;
import io.regheads.core.io.Settings;
import io.regheads.core.nn.Param;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Function;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The model file: a {@link Checkpoint} (weights, checksums) whose metadata is named keys, one per line in key order
 * without a date, so that the same model always gives the same bytes.
 *
 * <p>Keys, format version 1: {@code format=regheads-model}, {@code version=1}, {@code inputWidth}, {@code dtype},
 * the configuration's keys ({@link ModelConfig#toProperties()}, the head's settings among them), {@code
 * state.<name>} for the head's state ({@code RegressionHead#state()}), {@code x.mean}, {@code x.scale}, {@code
 * y.min}, {@code y.max} (the unit scaler's bounds), {@code target.shift} (LOG only), {@code inputs.mean}, {@code
 * inputs.sd} (training feature statistics; absent when they overflow), the provenance ({@code provenance.*}, {@link
 * ModelProvenance}), the column names ({@code names.*}, {@link ColumnNames}) and conformal intervals if fitted
 * ({@code conformal.rows}, {@code conformal.levels}, {@code conformal.offsets}) and a temperature if calibrated
 * ({@code calibration.temperature}). A file of another version is
 * refused in one line. Stateless.
 */
final class ModelFile {
    private static final String FORMAT = "regheads-model";
    /** The metadata version written and the only one read (the first release's format). */
    static final int VERSION = 1;
    /** The prefix of the head's saved state in the metadata. */
    private static final String STATE_PREFIX = "state.";

    private ModelFile() {}

    /** What a model file holds besides the weights. */
    record Contents(ModelConfig config, int inputWidth, DataType type, FittedState fitted, Map<String, Double> state) {}

    /** The checkpoint of a fitted model: its metadata and the values of {@code params}. */
    static Checkpoint write(Contents c, List<Param> params) {
        FittedState f = c.fitted();
        Properties p = c.config().toProperties();
        p.setProperty("format", FORMAT);
        p.setProperty("version", Integer.toString(VERSION));
        p.setProperty("inputWidth", Integer.toString(c.inputWidth()));
        p.setProperty("dtype", c.type().name());
        c.state().forEach((k, v) -> p.setProperty(STATE_PREFIX + k, Double.toString(v)));
        p.setProperty("x.mean", join(f.xScaler().mean()));
        p.setProperty("x.scale", join(f.xScaler().scale()));
        TargetScaler ts = f.target().scaler();
        p.setProperty("y.min", Double.toString(ts.unit().min()));
        p.setProperty("y.max", Double.toString(ts.unit().max()));
        if (ts.transform() == TargetTransform.LOG) {
            p.setProperty("target.shift", Double.toString(ts.shift()));
        }
        if (f.inputMean() != null) {
            p.setProperty("inputs.mean", join(f.inputMean()));
            p.setProperty("inputs.sd", join(f.inputSd()));
        }
        if (f.provenance() != null) {
            p.putAll(f.provenance().toProperties());
        }
        f.names().write(p);
        if (f.temperature() != 1) {
            p.setProperty("calibration.temperature", Double.toString(f.temperature()));
        }
        if (f.conformal() != null) {
            p.setProperty("conformal.rows", Integer.toString(f.conformal().rows()));
            p.setProperty("conformal.levels", join(f.conformal().levels()));
            p.setProperty("conformal.offsets", join(f.conformal().offsets()));
        }
        return Checkpoint.of(metadata(p), params);
    }

    /**
     * The contents of a checkpoint's metadata.
     *
     * @param where what was read, for messages (e.g. {@code "model file m.rgh"})
     * @throws IllegalArgumentException if it is not a regheads model, or its metadata is of another version,
     *                                  incomplete or invalid (the message names the key)
     */
    static Contents read(Checkpoint c, String where) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(c.metadata()));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " has unreadable metadata: " + e.getMessage(), e);
        }
        Checks.require(FORMAT.equals(p.getProperty("format")), "%s is not a regheads model (format %s)", where,
                p.getProperty("format"));
        try {
            return contents(p);
        } catch (IllegalArgumentException e) {
            throw invalid(where, e);
        }
    }

    /**
     * The model a checkpoint holds: its contents ({@link #read}) handed to {@code build}, which makes the model and
     * loads the checkpoint's weights into it.
     *
     * @param where what was read, for messages
     * @throws IllegalArgumentException as {@link #read}, or if {@code build} refuses the contents or the weights
     *                                  (reported as invalid metadata of {@code where})
     */
    static <M> M restore(Checkpoint c, String where, Function<Contents, M> build) {
        Contents f = read(c, where);
        try {
            return build.apply(f);
        } catch (IllegalArgumentException e) {
            throw invalid(where, e);
        }
    }

    /** {@code "<where> has invalid metadata: <why>"}, for a refusal of the metadata's values. */
    private static IllegalArgumentException invalid(String where, IllegalArgumentException e) {
        return new IllegalArgumentException(where + " has invalid metadata: " + e.getMessage(), e);
    }

    private static Contents contents(Properties p) {
        Settings s = Settings.of(p, "");
        int version = s.integer("version");
        Checks.require(version == VERSION, "version must be %d (the only model format this library reads), got %d",
                VERSION, version);
        ModelConfig mc = ModelConfig.of(p);
        int width = s.integer("inputWidth");
        String dtype = s.string("dtype");
        Checks.require(dtype.equals("FLOAT") || dtype.equals("DOUBLE"), "dtype must be FLOAT or DOUBLE, got '%s'",
                dtype);
        StandardScaler xScaler = StandardScaler.of(numbers(s, "x.mean"), numbers(s, "x.scale"));
        TargetTransform t = mc.targetTransform();
        TargetScaler ts = TargetScaler.of(t, t == TargetTransform.LOG ? s.real("target.shift") : 0,
                MinMaxScaler.of(s.real("y.min"), s.real("y.max")));
        double[] mean = null;
        double[] sd = null;
        if (p.getProperty("inputs.mean") != null) {
            mean = numbers(s, "inputs.mean");
            sd = numbers(s, "inputs.sd");
            Checks.require(mean.length == width && sd.length == width,
                    "inputs.mean and inputs.sd must have %d values, got %d and %d", width, mean.length, sd.length);
        }
        ConformalIntervals conformal = p.getProperty("conformal.rows") == null ? null : new ConformalIntervals(
                s.integer("conformal.rows"), numbers(s, "conformal.levels"), numbers(s, "conformal.offsets"));
        FittedState fitted = new FittedState(xScaler, new TargetPipeline(ts, mc.head().targetScaling(),
                mc.head().representsNonFinite()), mean, sd,
                ModelProvenance.read(p).orElse(null), ColumnNames.read(p, width), conformal,
                p.getProperty("calibration.temperature") == null ? 1.0 : s.real("calibration.temperature"));
        Checks.require(fitted.temperature() > 0 && Double.isFinite(fitted.temperature()),
                "calibration.temperature must be > 0 and finite, got %s", fitted.temperature());
        Map<String, Double> state = new LinkedHashMap<>();
        Settings st = Settings.of(p, STATE_PREFIX);
        for (String key : new TreeSet<>(p.stringPropertyNames())) {
            if (key.startsWith(STATE_PREFIX)) {
                String name = key.substring(STATE_PREFIX.length());
                state.put(name, st.real(name));
            }
        }
        return new Contents(mc, width, DataType.valueOf(dtype), fitted, state);
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

    /** A comma-separated list of finite numbers. */
    private static double[] numbers(Settings s, String key) {
        String v = s.string(key);
        try {
            double[] d = Arrays.stream(v.split(",")).mapToDouble(Double::parseDouble).toArray();
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
}
