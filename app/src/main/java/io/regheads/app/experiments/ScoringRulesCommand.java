package io.regheads.app.experiments;

import io.regheads.app.experiments.ScoringRulesExperiment.Row;
import io.regheads.app.experiments.ScoringRulesExperiment.Variant;
import io.regheads.core.train.TrainerConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads scoring-rules}: heads trained by the log score (NLL) against the same heads trained by the CRPS,
 * plus the quantile head, on shipped datasets (see {@link ScoringRulesExperiment}). Prints a Markdown table (mean +-
 * standard deviation over the folds of test NLL01, CRPS, 90% interval width and coverage per dataset and variant) and
 * a summary of which training rule wins on which metric, and writes {@code scoring-rules.json}.
 *
 * <p>Example: {@code regheads scoring-rules --datasets-dir datasets --datasets airfoil,yacht --folds 0-2 --epochs
 * 40}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "scoring-rules", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Train heads by NLL and by CRPS (and the quantile head by pinball and CRPS) on shipped datasets; "
                + "report test NLL01, CRPS, 90%% interval width and coverage, and which rule wins where.")
public final class ScoringRulesCommand implements Callable<Integer> {
    static final String DEFAULT_VARIANTS = "pointwise:ce,pointwise:crps,histogram:ce,histogram:crps,mdn:ce,mdn:crps,"
            + "quantile:pinball,quantile:crps";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Mixin
    DatasetOptions datasetOptions;

    @Option(names = "--variants", paramLabel = "LIST", defaultValue = DEFAULT_VARIANTS,
            description = "head:loss pairs; the first of each head is the baseline of the summary (default: "
                    + "${DEFAULT-VALUE}).")
    String variants;

    @Option(names = "--folds", paramLabel = "LIST", defaultValue = "0-2",
            description = "Test folds of each dataset, e.g. 0-9 or 0,3 (default: ${DEFAULT-VALUE}).")
    String folds;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "40", description = "Epoch limit; early stopping "
            + "on 10%% of the training rows (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--patience", paramLabel = "N", defaultValue = "5", description = "Early-stopping patience "
            + "(default: ${DEFAULT-VALUE}).")
    int patience;

    @Option(names = "--max-train", paramLabel = "N", defaultValue = "0", description = "The most training rows per "
            + "fold: a seeded random subset of larger training folds (test folds stay whole); 0: all (default: "
            + "${DEFAULT-VALUE}).")
    int maxTrain;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/scoring-rules-<time>).")
    Path out;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<Variant> vs = Experiments.parseNames("--variants", variants).stream().map(Variant::parse).toList();
        var data = datasetOptions.load();
        int count = data.stream().mapToInt(d -> d.folds().count()).min().orElse(1);
        List<Integer> foldList = java.util.Arrays.stream(io.regheads.app.cli.InputData.parseFolds(folds, count))
                .boxed().toList();
        TrainerConfig trainer = TrainerConfig.defaults().withMaxEpochs(epochs).withPatience(patience).withSeed(seed);
        ScoringRulesExperiment.Config c = new ScoringRulesExperiment.Config(data, foldList, vs, trainer, maxTrain);
        Path dir = Figures.runDirectory(out, "scoring-rules");
        long t0 = System.nanoTime();
        List<Row> rows = ScoringRulesExperiment.run(c, line -> System.err.println(line));
        o.print(markdown(c, rows, (System.nanoTime() - t0) * 1e-9));
        Figures.json(json(c, rows), dir.resolve("scoring-rules.json"));
        o.println("numbers: " + dir.resolve("scoring-rules.json"));
        o.flush();
        return 0;
    }

    /** The table and the summary as Markdown. */
    static String markdown(ScoringRulesExperiment.Config c, List<Row> rows, double seconds) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Test folds %s; %s; encoder 2x256, at most %d epochs, early stopping (patience "
                + "%d) on 10%% of the training rows; seed %d; %.0f s in all. Mean +- sd over folds. NLL01: test NLL of y "
                + "scaled to [0,1] by the training fold's min and max; CRPS and width90 in the units of y; cov90: share "
                + "of test targets in the central 90%% interval (ideal 0.9).%n%n", c.folds(), c.maxTrain() == 0 ? "all training rows"
                : "at most " + c.maxTrain() + " training rows per fold (a seeded random subset)", c.trainer().maxEpochs(),
                c.trainer().patience(), c.trainer().seed(), seconds));
        sb.append("| dataset | variant | NLL01 | CRPS | width90 | cov90 |\n|---|---|---|---|---|---|\n");
        for (var in : c.datasets()) {
            for (Variant v : c.variants()) {
                List<Row> rs = select(rows, in.label(), v);
                sb.append("| ").append(in.label()).append(" | ").append(v.label()).append(" | ")
                        .append(cell(rs, Row::nll01, 3)).append(" | ").append(cell(rs, Row::crps, 4)).append(" | ")
                        .append(cell(rs, Row::width90, 4)).append(" | ").append(cell(rs, Row::coverage90, 3))
                        .append(" |\n");
            }
        }
        sb.append('\n').append(summary(c, rows));
        return sb.toString();
    }

    /**
     * Per head with more than one variant: against its first variant, on how many datasets each other variant has
     * the lower mean NLL01, the lower mean CRPS, the narrower interval and the coverage nearer 0.9; and the mean over
     * datasets of CRPS and width divided by the training range (the y01 scale), and of |cov90 - 0.9|. Means are over
     * the folds that trained; the last column counts the failed ones.
     */
    static String summary(ScoringRulesExperiment.Config c, List<Row> rows) {
        StringBuilder sb = new StringBuilder("| head: variant vs baseline | lower NLL01 | lower CRPS | narrower 90% | "
                + "cov90 nearer 0.9 | mean CRPS/range | mean width90/range | mean abs(cov90-0.9) | failed fits |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        Map<String, List<Variant>> byHead = new LinkedHashMap<>();
        for (Variant v : c.variants()) {
            byHead.computeIfAbsent(v.head(), h -> new ArrayList<>()).add(v);
        }
        int n = c.datasets().size();
        for (List<Variant> vs : byHead.values()) {
            Variant base = vs.get(0);
            for (Variant v : vs) {
                int nll = 0;
                int crps = 0;
                int width = 0;
                int cov = 0;
                for (var in : c.datasets()) {
                    List<Row> a = select(rows, in.label(), v);
                    List<Row> b = select(rows, in.label(), base);
                    nll += mean(a, Row::nll01) < mean(b, Row::nll01) ? 1 : 0;
                    crps += mean(a, Row::crps) < mean(b, Row::crps) ? 1 : 0;
                    width += mean(a, Row::width90) < mean(b, Row::width90) ? 1 : 0;
                    cov += Math.abs(mean(a, Row::coverage90) - 0.9) < Math.abs(mean(b, Row::coverage90) - 0.9) ? 1 : 0;
                }
                String vsBase = v == base ? " (baseline)" : String.format(Locale.ROOT, " vs %s", base.loss());
                String counts = v == base ? "- | - | - | -" : String.format(Locale.ROOT, "%d/%d | %d/%d | %d/%d | %d/%d",
                        nll, n, crps, n, width, n, cov, n);
                long failed = rows.stream().filter(r -> r.variant().equals(v) && Double.isNaN(r.crps())).count();
                sb.append(String.format(Locale.ROOT, "| %s%s | %s | %.4f | %.4f | %.3f | %d/%d |%n", v.label(), vsBase,
                        counts, overDatasets(c, rows, v, r -> r.crps() / r.range()),
                        overDatasets(c, rows, v, r -> r.width90() / r.range()),
                        overDatasets(c, rows, v, r -> Math.abs(r.coverage90() - 0.9)), failed,
                        c.datasets().size() * c.folds().size()));
            }
        }
        return sb.toString();
    }

    private static double overDatasets(ScoringRulesExperiment.Config c, List<Row> rows, Variant v,
            ToDoubleFunction<Row> f) {
        double s = 0;
        for (var in : c.datasets()) {
            s += mean(select(rows, in.label(), v), f);
        }
        return s / c.datasets().size();
    }

    private static List<Row> select(List<Row> rows, String dataset, Variant v) {
        return rows.stream().filter(r -> r.dataset().equals(dataset) && r.variant().equals(v)).toList();
    }

    /** The mean over the folds that trained (NaN if none did). */
    private static double mean(List<Row> rs, ToDoubleFunction<Row> f) {
        return rs.stream().filter(r -> !Double.isNaN(r.crps())).mapToDouble(f).average().orElse(Double.NaN);
    }

    private static String cell(List<Row> rs, ToDoubleFunction<Row> f, int digits) {
        double[] v = rs.stream().filter(r -> !Double.isNaN(r.crps())).mapToDouble(f).toArray();
        if (v.length == 0) {
            return "failed";
        }
        double[] ms = Experiments.meanStd(v);
        return String.format(Locale.ROOT, "%." + digits + "g +- %.2g", ms[0], ms[1])
                + (v.length < rs.size() ? " (" + (rs.size() - v.length) + " failed)" : "");
    }

    static Map<String, Object> json(ScoringRulesExperiment.Config c, List<Row> rows) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiment", "scoring-rules");
        m.put("config", Map.of("folds", c.folds(), "maxEpochs", c.trainer().maxEpochs(), "patience",
                c.trainer().patience(), "seed", c.trainer().seed(), "maxTrain", c.maxTrain()));
        List<Object> out = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("dataset", r.dataset());
            e.put("variant", r.variant().label());
            e.put("fold", r.fold());
            e.put("nll01", r.nll01());
            e.put("crps", r.crps());
            e.put("width90", r.width90());
            e.put("coverage90", r.coverage90());
            e.put("range", r.range());
            e.put("seconds", r.seconds());
            e.put("epochs", r.epochs());
            out.add(e);
        }
        m.put("rows", out);
        return m;
    }
}
