package io.regheads.app.cli;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.CsvReader;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.dist.PointLoss;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.SpecialValues;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.check.Checks;
import io.regheads.heads.model.ConformalIntervals;
import io.regheads.heads.model.RegressionModel;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code regheads predict}: scores the rows of a CSV file with a saved model and writes one line of predictions per
 * row: the predictive mean, the median, the chosen quantiles and, with {@code --target}, the log density of the
 * target column (original units of y).
 *
 * <p>Streams: rows are read, predicted and written {@code --chunk} rows at a time, so memory is bounded by the chunk
 * (not the file), and files far larger than the heap work. A progress line on stderr reports rows and rows per
 * second. The file is read as {@code train} reads its data ({@link CsvReader}: quoted cells, a detected or given
 * {@code --delimiter}, errors naming file, line and column). The feature columns are every column except {@code
 * --target}, matched to the model's features by name, in any order; a missing or unknown column is refused, naming
 * it (the model's own target column too, unless it is named by {@code --target}). A model that records no names
 * takes them by position.
 *
 * <p>Output: a CSV file with the header {@code mean,median[,point],q<level>...[,log_density]} ({@code point}: with
 * {@code --point LOSS}, the point that minimises the expected LOSS under the row's prediction, {@link
 * PredictiveDistribution#point}); for a model that learned NaN
 * and infinite targets (a decoder with special tokens) also {@code p_nan,p_posinf,p_neginf}, the probabilities of
 * those outcomes (mean, median and quantiles then describe the finite part), and with {@code --target} the column
 * {@code log_likelihood} instead of {@code log_density}: the log density of a finite y plus {@code log P(finite)},
 * {@code log P(NaN)} or {@code log P(+-Inf)} for a NaN or infinite y ({@code SpecialValues#logLikelihood}); numbers with {@code --digits}
 * significant digits (9 by default, {@link DecimalFormatter}; 17: {@link Double#toString}, exact). With {@code --point}
 * (and {@code --temperature}, {@code --top-k}, {@code --top-p}, {@code --samples}, {@code --seed} for the
 * sample-based estimates, see {@link DecodingOptions}) a column {@code point} follows {@code median}: the point
 * prediction decoded that way ({@link RegressionModel#predictPoint(double[][], List, io.regheads.core.head.Decoding)}).
 * Example: {@code regheads predict --model m.rgh --data big.csv --out predictions.csv --quantiles 0.05,0.95 --target
 * y}; {@code regheads predict --model m.rgh --data d.csv --out p.csv --point sample-mean --temperature 0.8}.
 *
 * <p>Exit codes: 0 when every row was scored; 2 for bad input (a missing or unreadable model file, feature columns
 * that do not match the model, a malformed row, named by its line, or a bad option value); 3 for an unexpected
 * failure or out of memory. The rows are written to a temporary file beside {@code --out}, which replaces it only
 * when every row was scored: a failed run leaves an earlier output file as it was.
 *
 * <p>Not thread-safe (one instance per invocation, as picocli makes it).
 */
@Command(name = "predict", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Score the rows of a CSV file with a saved model (regheads train --save).",
            "Writes mean, median, chosen quantiles, optionally a decoded point prediction (--point) and the log "
                    + "density of a target column, streaming the file in chunks."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every row scored",
            "2:bad input (model file, data, a malformed row or an option; the line is named)",
            "3:unexpected failure or out of memory (more heap: REGHEADS_HEAP=8g)"})
final class PredictCommand implements Callable<Integer> {
    /** Default rows per chunk: a histogram model holds about 4 KB per row (probabilities and their sums). */
    static final int DEFAULT_CHUNK = 16384;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, paramLabel = "FILE", description = "Model file written by "
            + "'regheads train --save'.")
    Path model;

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "CSV file with a header row and "
            + "numeric cells: the model's feature columns by name, in any order, optionally the target column.")
    Path data;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Output CSV file (replaced once every "
            + "row is scored; left as it was on an error).")
    Path out;

    @Option(names = "--quantiles", paramLabel = "LIST", defaultValue = "0.05,0.95",
            description = "Quantile levels written besides the median, comma-separated in (0, 1), or 'none' "
                    + "(default: ${DEFAULT-VALUE}).")
    String quantiles;

    @Option(names = "--interval", paramLabel = "LEVEL", description = "Also write the central interval of this "
            + "level in (0, 1) as columns lower,upper (the model's own quantiles, or with --conformal its conformal "
            + "interval).")
    Double interval;

    @Option(names = "--conformal", description = "With --interval: the conformal interval fitted by 'regheads "
            + "calibrate' (coverage guaranteed on data like the calibration rows).")
    boolean conformal;

    @Option(names = "--target", paramLabel = "NAME", description = "Column of --data holding observed y: not a "
            + "feature; its log density under the prediction is written as log_density.")
    String target;

    @Option(names = "--digits", paramLabel = "N", defaultValue = "9",
            description = "Significant digits per number, 1 to 15, or 17 for Java's shortest exact form "
                    + "(default: ${DEFAULT-VALUE}, enough for a float model).")
    int digits;

    @Option(names = "--chunk", paramLabel = "ROWS", defaultValue = "" + DEFAULT_CHUNK,
            description = "Rows per chunk (default: ${DEFAULT-VALUE}).")
    int chunk;

    @Option(names = "--quiet", description = "No progress line on stderr.")
    boolean quiet;

    @Option(names = "--delimiter", paramLabel = "CHAR", description = "Cell delimiter of --data: one character, or "
            + "'tab' (default: detected from the header line among comma, semicolon, tab and |).")
    String delimiter;

    @Mixin
    DecodingOptions decoding;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed of the samples of --point "
            + "sample-mean and sample-median (default: ${DEFAULT-VALUE}).")
    long seed;

    /** Where the progress line goes (stderr; tests may replace it). */
    PrintStream progress = System.err;
    private boolean progressShown;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        Checks.require(chunk >= 1, "--chunk must be >= 1, got %d", chunk);
        Checks.require((digits >= 1 && digits <= 15) || digits == 17, "--digits must be 1 to 15 or 17, got %d", digits);
        double[] levels = parseLevels(quantiles);
        Checks.require(Files.isRegularFile(model), "--model: file not found: %s", model);
        Checks.require(Files.isRegularFile(data), "--data: file not found: %s", data);
        Checks.require(interval == null || (interval > 0 && interval < 1), "--interval must be in (0, 1), got %s",
                interval);
        Checks.require(!conformal || interval != null, "--conformal needs --interval LEVEL");
        decoding.check(true);
        RegressionModel m = RegressionModel.load(model);
        PointColumn pointColumn = new PointColumn(decoding.pointLoss() == null ? decoding(m) : null,
                decoding.pointLoss());
        if (conformal) {
            ConformalIntervals ci = m.conformalIntervals().orElseThrow(() -> new IllegalArgumentException(
                    "--conformal: " + model + " has no conformal intervals; fit them with 'regheads calibrate'"));
            Checks.require(java.util.Arrays.stream(ci.levels()).anyMatch(l -> l == interval), "--interval %s is not "
                    + "a calibrated level of %s (calibrated: %s); recalibrate with --levels", interval, model,
                    java.util.Arrays.toString(ci.levels()));
        }
        long t0 = System.nanoTime();
        long rows;
        // everything about the inputs is checked before the output is touched; rows go to a temporary file beside
        // it, moved over it only once every row was scored, so a failed run leaves an earlier output as it was
        try (CsvReader in = CsvReader.open(data, InputData.parseDelimiter(delimiter))) {
            Columns c = columns(in.header(), m);
            boolean special = m.config().head().representsNonFinite()
                    && m.targetScaler().transform() != TargetTransform.LOG;
            Path dir = out.toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(dir, "." + out.getFileName(), ".part");
            try {
                try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                    w.write(outputHeader(levels, c.target >= 0, special, pointColumn.any())
                            + (interval == null ? "" : ",lower,upper"));
                    w.newLine();
                    rows = score(in, c, m, levels, special, pointColumn, w, t0);
                }
                Checks.require(rows > 0, "%s has no data rows", data);
                move(tmp, out);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        } finally {
            if (!quiet && progressShown) {
                progress.println();
            }
        }
        double seconds = (System.nanoTime() - t0) * 1e-9;
        o.printf(Locale.ROOT, "predicted %d rows in %.1f s (%.0f rows/s): %s%n", rows, seconds, rows / seconds, out);
        if (pointColumn.decoding() != null) {
            String note = decoding.note(m.config().head().name(), m.head().generatesTokens());
            o.println("point: " + describe(pointColumn.decoding(), m.head().generatesTokens())
                    + (note.isEmpty() ? "" : "; note: " + note));
        } else if (pointColumn.loss() != null) {
            o.println("point: the prediction that minimises the expected " + pointColumn.loss().label() + " cost");
        }
        o.flush();
        return 0;
    }

    /**
     * The decoding of the {@code point} column, or null without {@code --point}: the estimate and, for the sample-based
     * ones, the sampling settings (left out for a head that generates no tokens) with the samples' seed.
     *
     * @throws IllegalArgumentException naming {@code --point} when the model cannot decode it (sample-mean under the
     *                                  LOG target transform)
     */
    private Decoding decoding(RegressionModel m) {
        if (decoding.chosen() == null) {
            return null;
        }
        Decoding d = decoding.decoding(m.pointEstimate(), seed, m.head().generatesTokens());
        Checks.require(d.point() != PointEstimate.SAMPLE_MEAN || m.targetScaler().transform() != TargetTransform.LOG,
                "--point sample-mean: %s was trained with the LOG target transform, where an average of samples "
                        + "of log1p(y - min) is not one of y; use mean or sample-median", model);
        return d;
    }

    /** The decoding in words for the summary line, e.g. {@code sample-mean of 256 samples at temperature 0.8}. */
    private static String describe(Decoding d, boolean tokens) {
        PointEstimate p = d.point();
        if (p != PointEstimate.SAMPLE_MEAN && p != PointEstimate.SAMPLE_MEDIAN) {
            return p.label();
        }
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%s of %d samples (seed %d)", p.label(),
                d.samples(), d.seed()));
        if (tokens) {
            sb.append(String.format(Locale.ROOT, " at temperature %s", Fmt.plain(d.temperature())));
            if (d.topK() > 0) {
                sb.append(", top-k ").append(d.topK());
            }
            if (d.topP() < 1) {
                sb.append(", top-p ").append(Fmt.plain(d.topP()));
            }
        }
        return sb.toString();
    }

    /**
     * What the {@code point} column holds: a decoded point prediction ({@code --point} with an estimate such as
     * {@code sample-mean}), or the point that minimises an expected cost ({@code --point mape}, {@code pinball:0.9},
     * ...: {@link PredictiveDistribution#point(PointLoss)}), or nothing.
     */
    private record PointColumn(Decoding decoding, PointLoss loss) {
        boolean any() {
            return decoding != null || loss != null;
        }

        /** The chunk's points, or null without the column; a refused row named by its data row. */
        double[] points(RegressionModel m, double[][] xs, List<String> names, PredictiveDistribution d,
                long chunkIndex, long rowsBefore) {
            if (loss != null) {
                try {
                    return d.point(loss);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--point " + loss.label() + " (row 0 below is data row "
                            + (rowsBefore + 1) + "): " + e.getMessage(), e);
                }
            }
            // each chunk its own stream of samples: the seed mixed with the chunk's index
            return decoding == null ? null : m.predictPoint(xs, names, decoding.withSamples(decoding.samples(),
                    decoding.seed() + 0x9E3779B97F4A7C15L * chunkIndex));
        }
    }

    /** Where the features and the observed target are in the file's rows. */
    private record Columns(int target, int[] features, List<String> names) {}

    /**
     * The file's columns checked against the model: the target ({@code --target}, or -1), and for each of the
     * model's inputs, in its order, the column that holds it (by name when the model records names; else by
     * position).
     *
     * @throws IllegalArgumentException naming a missing or unknown column, or a column count that does not match
     */
    private Columns columns(List<String> header, RegressionModel m) {
        int targetCol = target == null ? -1 : CsvLoader.columnIndex(header, target, "--target", data);
        List<String> fileFeatures = new ArrayList<>(header);
        if (targetCol >= 0) {
            fileFeatures.remove(targetCol);
        }
        if (target == null && m.targetName().isPresent() && fileFeatures.contains(m.targetName().get())) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "column '%s' of %s is the model's target: "
                    + "name it with --target %s to score it (its log density is written), or leave it out",
                    m.targetName().get(), data, m.targetName().get()));
        }
        int[] order;
        try {
            order = m.columnOrder(fileFeatures);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(data + ": " + e.getMessage()
                    + (m.featureNames().isEmpty() && target == null
                            ? "; name the target column with --target to leave it out" : ""), e);
        }
        int[] features = new int[order.length];
        for (int j = 0; j < order.length; j++) { // file feature index -> header index
            int f = order[j];
            features[j] = targetCol >= 0 && f >= targetCol ? f + 1 : f;
        }
        List<String> names = m.featureNames().isEmpty() ? fileFeatures : m.featureNames();
        return new Columns(targetCol, features, names);
    }

    /** Reads, predicts and writes every row; returns the count. */
    private long score(CsvReader in, Columns c, RegressionModel m, double[] levels, boolean special, PointColumn pc,
            BufferedWriter w, long t0) throws IOException {
        long rows = 0;
        int width = in.header().size();
        double[][] cells = new double[chunk][width];
        double[][] x = new double[chunk][c.features.length];
        double[] y = new double[chunk];
        double[] all = new double[levels.length + 1];
        all[0] = 0.5;
        System.arraycopy(levels, 0, all, 1, levels.length);
        StringBuilder sb = new StringBuilder(1 << 16);
        long chunkIndex = 0;
        for (int n; (n = in.read(cells, c.target)) > 0; chunkIndex++) {
            for (int i = 0; i < n; i++) {
                double[] row = cells[i];
                for (int j = 0; j < c.features.length; j++) {
                    x[i][j] = row[c.features[j]];
                }
                y[i] = c.target >= 0 ? row[c.target] : 0;
            }
            double[][] xs = n == chunk ? x : java.util.Arrays.copyOf(x, n);
            PredictiveDistribution d = m.predict(xs, c.names);
            double[] mean = d.mean();
            double[][] q = d.quantiles(all);
            // each chunk its own stream of samples: the seed mixed with the chunk's index
            double[] point = pc.points(m, xs, c.names, d, chunkIndex, rows);
            double[] yn = n == chunk ? y : java.util.Arrays.copyOf(y, n);
            SpecialValues sv = special ? (SpecialValues) d : null;
            double[] logp = c.target < 0 ? null : special ? sv.logLikelihood(yn) : d.logDensity(yn);
            double[][] iv = interval == null ? null : conformal ? m.conformalIntervals().orElseThrow()
                    .interval(d, interval) : d.centralInterval(interval);
            double[][] p = special ? new double[][] {sv.probabilityNaN(), sv.probabilityPositiveInfinity(),
                sv.probabilityNegativeInfinity()} : new double[0][];
            sb.setLength(0);
            for (int i = 0; i < n; i++) {
                number(sb, mean[i]);
                number(sb.append(','), q[0][i]);
                if (point != null) {
                    number(sb.append(','), point[i]);
                }
                for (int k = 1; k < q.length; k++) {
                    number(sb.append(','), q[k][i]);
                }
                for (double[] col : p) {
                    number(sb.append(','), col[i]);
                }
                if (logp != null) {
                    number(sb.append(','), logp[i]);
                }
                if (iv != null) {
                    number(sb.append(','), iv[0][i]);
                    number(sb.append(','), iv[1][i]);
                }
                sb.append('\n');
                if (sb.length() > 1 << 15) {
                    w.append(sb);
                    sb.setLength(0);
                }
            }
            w.append(sb);
            rows += n;
            if (!quiet) {
                double s = (System.nanoTime() - t0) * 1e-9;
                progress.printf(Locale.ROOT, "\rpredict: %,d rows, %,.0f rows/s", rows, rows / s);
                progress.flush();
                progressShown = true;
            }
        }
        return rows;
    }

    /** Moves the finished output over {@code out}, atomically where the file system can. */
    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private void number(StringBuilder sb, double v) {
        if (digits == 17) {
            sb.append(v);
        } else {
            DecimalFormatter.append(sb, v, digits);
        }
    }

    /**
     * The output header: {@code mean,median[,point],q<level>...[,log_density]}, or with special values {@code
     * mean,median[,point],q<level>...,p_nan,p_posinf,p_neginf[,log_likelihood]}.
     */
    static String outputHeader(double[] levels, boolean target, boolean special) {
        return outputHeader(levels, target, special, false);
    }

    /** As {@link #outputHeader(double[], boolean, boolean)} with {@code point} after {@code median} if asked for. */
    static String outputHeader(double[] levels, boolean target, boolean special, boolean point) {
        StringBuilder h = new StringBuilder(point ? "mean,median,point" : "mean,median");
        for (double l : levels) {
            h.append(",q").append(l);
        }
        if (special) {
            h.append(",p_nan,p_posinf,p_neginf");
        }
        if (target) {
            h.append(special ? ",log_likelihood" : ",log_density");
        }
        return h.toString();
    }

    /**
     * Parses {@code --quantiles}: comma-separated levels in (0, 1), or {@code none}.
     *
     * @throws IllegalArgumentException naming the option on a malformed list or a level outside (0, 1)
     */
    static double[] parseLevels(String spec) {
        Checks.require(spec != null && !spec.isBlank(), "--quantiles must list levels such as 0.05,0.95 or 'none'");
        if (spec.strip().equalsIgnoreCase("none")) {
            return new double[0];
        }
        List<Double> out = new ArrayList<>();
        for (String raw : spec.split(",")) {
            double v;
            try {
                v = Double.parseDouble(raw.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--quantiles must list levels such as 0.05,0.95, got '" + spec + "'");
            }
            Checks.require(v > 0 && v < 1, "--quantiles: levels must be in (0, 1), got %s", raw.strip());
            out.add(v);
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
