package io.regheads.app.arith;

import io.regheads.app.arith.ArithmeticBenchmark.Config;
import io.regheads.app.arith.ArithmeticBenchmark.Metrics;
import io.regheads.app.arith.ArithmeticBenchmark.Result;
import io.regheads.app.arith.ArithmeticBenchmark.Variant;
import io.regheads.core.check.Checks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Results of the arithmetic benchmark over several seeds: a tab-separated file with one line per (setting, seed,
 * variant), appended as each run ends (a rerun skips the runs it holds), and the summary over seeds: mean and
 * standard error of every measure, and <b>paired</b> differences between variants.
 *
 * <p>Paired comparison: for a pair (A, B) and a measure m, the seeds where both ran give {@code d_s = m(A, s) - m(B,
 * s)} (the same training and test problems for both: the data depend on the seed only); reported are the mean of
 * d, its standard error {@code sd(d) / sqrt(n)} and a verdict: {@code A} (A better, the mean more than two standard
 * errors from 0 in A's favour), {@code B} (likewise for B) or {@code =} (within two standard errors). "Better" is
 * higher for R^2 and exact match, lower for MAE and MAPE. With fewer than 2 seeds the verdict is {@code ?}.
 *
 * <p>Example line: {@code EXPRESSIONS 2 2 3000 500 12 0 CE 0.9412 1.204 0.031 35.2 ... 61.3}.
 *
 * <p>Stateless; not for concurrent writers of one file.
 */
public final class ArithRuns {
    private ArithRuns() {}

    /** The header line of a results file. */
    public static final String HEADER = String.join("\t", "task", "minOperands", "maxOperands", "train", "test",
            "epochs", "seed", "variant", "r2In", "maeIn", "exactIn", "mapeIn", "r2Out", "maeOut", "exactOut",
            "mapeOut", "seconds");

    /**
     * One run.
     *
     * @param setting the configuration without its seed ({@link #setting(Config)})
     * @param seed    its seed
     * @param variant the model
     * @param in      in-distribution scores
     * @param out     out-of-distribution scores
     * @param seconds wall time of training and scoring
     */
    public record Run(String setting, long seed, Variant variant, Metrics in, Metrics out, double seconds) {
        /** The key a results file is unique on. */
        public String key() {
            return setting + "\t" + seed + "\t" + variant;
        }

        /** The run as one line of the file (no line end). */
        public String line() {
            return String.format(Locale.ROOT, "%s\t%d\t%s\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.6g\t%.1f",
                    setting, seed, variant, in.r2(), in.mae(), in.exact(), in.mape(), out.r2(), out.mae(),
                    out.exact(), out.mape(), seconds);
        }

        /** @throws IllegalArgumentException if the line does not have the file's 17 fields */
        static Run parse(String line) {
            String[] f = line.split("\t");
            Checks.require(f.length == 17, "a results line must have 17 tab-separated fields, got %d: '%s'", f.length,
                    line);
            String setting = String.join("\t", f[0], f[1], f[2], f[3], f[4], f[5]);
            Metrics in = new Metrics(d(f[8]), d(f[9]), d(f[10]), d(f[11]), Integer.parseInt(f[4]));
            Metrics out = new Metrics(d(f[12]), d(f[13]), d(f[14]), d(f[15]), Integer.parseInt(f[4]));
            return new Run(setting, Long.parseLong(f[6]), Variant.valueOf(f[7]), in, out, d(f[16]));
        }

        private static double d(String s) {
            return Double.parseDouble(s);
        }
    }

    /** The setting of a configuration: task, operand range, training and test sizes, epochs (tab-separated). */
    public static String setting(Config c) {
        return String.join("\t", c.task().name(), Integer.toString(c.minOperands()), Integer.toString(c.maxOperands()),
                Integer.toString(c.trainSize()), Integer.toString(c.testSize()), Integer.toString(c.epochs()));
    }

    /** A run of a benchmark result. */
    public static Run of(Config c, Result r) {
        return new Run(setting(c), c.seed(), r.variant(), r.in(), r.out(), r.seconds());
    }

    /**
     * The runs a file holds, by key (the last line per key wins); an empty map for a missing file. A last line cut
     * short by an interruption is ignored (its run is repeated).
     *
     * @throws IllegalArgumentException on any other malformed line
     * @throws UncheckedIOException     if the file cannot be read
     */
    public static Map<String, Run> read(Path file) {
        Map<String, Run> runs = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return runs;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.equals(HEADER)) {
                continue;
            }
            try {
                Run r = Run.parse(line);
                runs.put(r.key(), r);
            } catch (IllegalArgumentException e) {
                if (i < lines.size() - 1) {
                    throw new IllegalArgumentException("line " + (i + 1) + " of " + file + " is not a run: "
                            + e.getMessage(), e);
                }
            }
        }
        return runs;
    }

    /** Appends one run (and the header to a new file), flushed. */
    public static void append(Path file, Run run) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            String text = (Files.exists(file) && Files.size(file) > 0 ? "" : HEADER + "\n") + run.line() + "\n";
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** A measure of a run, with its name and direction. */
    public record Measure(String name, ToDoubleFunction<Run> value, boolean higherIsBetter) {}

    /** Exact match, R^2, MAE and MAPE, in and out of distribution (exact match first: the NTL paper's accuracy). */
    public static final List<Measure> MEASURES = List.of(
            new Measure("exact in", r -> r.in().exact(), true),
            new Measure("R2 in", r -> r.in().r2(), true),
            new Measure("MAE in", r -> r.in().mae(), false),
            new Measure("MAPE in", r -> r.in().mape(), false),
            new Measure("exact out", r -> r.out().exact(), true),
            new Measure("R2 out", r -> r.out().r2(), true),
            new Measure("MAE out", r -> r.out().mae(), false),
            new Measure("MAPE out", r -> r.out().mape(), false));

    /**
     * Mean and standard error of the values.
     *
     * @return {@code [mean, standard error]} (standard error 0 for one value)
     * @throws IllegalArgumentException if v is empty
     */
    public static double[] meanSe(double[] v) {
        Checks.require(v.length > 0, "v must not be empty, got length 0");
        double mean = 0;
        for (double e : v) {
            mean += e / v.length;
        }
        double ss = 0;
        for (double e : v) {
            ss += (e - mean) * (e - mean);
        }
        return new double[] {mean, v.length > 1 ? Math.sqrt(ss / (v.length - 1) / v.length) : 0};
    }

    /**
     * A paired comparison of A against B on one measure.
     *
     * @param a       variant A
     * @param b       variant B
     * @param measure the measure
     * @param seeds   seeds where both ran
     * @param mean    mean of {@code m(A) - m(B)}
     * @param se      its standard error
     * @param verdict "A", "B", "=" or "?" (see the class description), with A and B the variants' names
     */
    public record Paired(Variant a, Variant b, Measure measure, int seeds, double mean, double se, String verdict) {}

    /** The paired comparison of A against B on one measure over the runs of one setting. */
    public static Paired paired(List<Run> runs, Variant a, Variant b, Measure m) {
        Map<Long, Double> byA = new LinkedHashMap<>();
        Map<Long, Double> byB = new LinkedHashMap<>();
        for (Run r : runs) {
            if (r.variant() == a) {
                byA.put(r.seed(), m.value().applyAsDouble(r));
            } else if (r.variant() == b) {
                byB.put(r.seed(), m.value().applyAsDouble(r));
            }
        }
        List<Double> d = new ArrayList<>();
        for (Map.Entry<Long, Double> e : byA.entrySet()) {
            if (byB.containsKey(e.getKey())) {
                d.add(e.getValue() - byB.get(e.getKey()));
            }
        }
        if (d.isEmpty()) {
            return new Paired(a, b, m, 0, Double.NaN, Double.NaN, "?");
        }
        double[] ms = meanSe(d.stream().mapToDouble(Double::doubleValue).toArray());
        String verdict;
        if (d.size() < 2) {
            verdict = "?";
        } else if (Math.abs(ms[0]) > 2 * ms[1]) {
            verdict = (ms[0] > 0) == m.higherIsBetter() ? a.name() : b.name();
        } else {
            verdict = "=";
        }
        return new Paired(a, b, m, d.size(), ms[0], ms[1], verdict);
    }

    /**
     * The summary table of one setting: per variant, each measure's mean +- standard error over its seeds; then the
     * paired comparisons of the given pairs.
     *
     * @param runs  runs of one setting
     * @param pairs {@code [k][2]} variant pairs (A, B)
     */
    public static String summary(List<Run> runs, List<Variant[]> pairs) {
        StringBuilder sb = new StringBuilder();
        Map<Variant, List<Run>> byVariant = new LinkedHashMap<>();
        for (Run r : runs) {
            byVariant.computeIfAbsent(r.variant(), k -> new ArrayList<>()).add(r);
        }
        sb.append(String.format(Locale.ROOT, "%-16s %5s", "variant", "seeds"));
        for (Measure m : MEASURES) {
            sb.append(String.format(Locale.ROOT, " | %-19s", m.name()));
        }
        sb.append('\n');
        for (Map.Entry<Variant, List<Run>> e : byVariant.entrySet()) {
            sb.append(String.format(Locale.ROOT, "%-16s %5d", e.getKey(), e.getValue().size()));
            for (Measure m : MEASURES) {
                double[] ms = meanSe(e.getValue().stream().mapToDouble(m.value()).toArray());
                sb.append(String.format(Locale.ROOT, " | %9.4g +- %-6.2g", ms[0], ms[1]));
            }
            sb.append('\n');
        }
        for (Variant[] p : pairs) {
            if (!byVariant.containsKey(p[0]) || !byVariant.containsKey(p[1])) {
                continue;
            }
            sb.append(String.format(Locale.ROOT, "%s - %s (paired):%n", p[0], p[1]));
            for (Measure m : MEASURES) {
                Paired c = paired(runs, p[0], p[1], m);
                sb.append(String.format(Locale.ROOT, "  %-10s %+10.4g +- %-9.2g (%d seeds) better: %s%n", m.name(),
                        c.mean(), c.se(), c.seeds(), c.verdict()));
            }
        }
        return sb.toString();
    }

    /** The comparisons the results page decides its verdicts by (stated before the runs). */
    public static List<Variant[]> paperPairs() {
        return List.of(new Variant[] {Variant.XVAL, Variant.CE}, new Variant[] {Variant.CE_NTL_WAS, Variant.CE},
                new Variant[] {Variant.CE_NTL_MSE, Variant.CE}, new Variant[] {Variant.CE_NTL_WAS, Variant.CE_NTL_MSE},
                new Variant[] {Variant.GCE, Variant.CE}, new Variant[] {Variant.XVAL_MULTISCALE, Variant.XVAL});
    }
}
