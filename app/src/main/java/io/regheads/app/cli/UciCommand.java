package io.regheads.app.cli;

import io.regheads.app.grid.TaskRunner;
import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Folds;
import io.regheads.core.internal.Checks;
import io.regheads.core.train.TrainerConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code regheads uci}: the decoding-based regression paper's NLL protocol on the UCI datasets of the
 * repository's {@code datasets/} folder. For each
 * dataset, head and fold: train on the other 9 folds (x standardised, y min-max scaled on the training fold), report
 * the test NLL of y scaled to [0, 1] by the training min and max (see {@link HeadRun}); then a markdown table with
 * mean +- std over the folds per head beside the paper's four columns ({@link #PAPER}). The fits are independent
 * tasks ({@link UciFits}) run by a {@link TaskRunner}: one after another here, or as Spark tasks with {@code --spark}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "uci", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The decoding paper's UCI NLL protocol over the 10 folds of named datasets; writes a markdown "
                + "table (mean +- std per head) beside the paper's numbers.",
            "Default trainer: the paper's (AdamW lr 1e-4, batch 128, at most 300 epochs, early stopping patience 5 "
                    + "on 10%% of the training rows)."})
final class UciCommand implements Callable<Integer> {

    /**
     * The paper's test NLL per dataset, columns MDN, unnormalized decoder, normalized decoder, Riemann (from
     * the repository's datasets/README.md, which quotes the paper).
     */
    static final Map<String, double[]> PAPER = new LinkedHashMap<>();
    static final String[] PAPER_COLUMNS = {"MDN", "Unnormalized decoder", "Normalized decoder", "Riemann"};

    static {
        PAPER.put("airfoil", new double[] {0.12, 0.40, 0.34, 1.33});
        PAPER.put("autompg", new double[] {0.21, 0.32, 0.41, 1.62});
        PAPER.put("concrete", new double[] {0.15, 0.43, 0.41, 1.67});
        PAPER.put("energy", new double[] {0.40, 0.17, 0.16, 0.38});
        PAPER.put("housing", new double[] {0.22, 0.41, 0.38, 1.56});
        PAPER.put("kin40k", new double[] {7.49, 0.19, 0.12, 0.39});
        PAPER.put("protein", new double[] {1.07, 0.34, 0.41, 1.55});
        PAPER.put("wine", new double[] {0.05, 0.24, 0.21, 1.67});
        PAPER.put("yacht", new double[] {0.21, 0.39, 0.23, 1.29});
        PAPER.put("pol", new double[] {1.49, 0.01, 0.01, 0.18});
        PAPER.put("elevators", new double[] {0.30, 0.15, 0.13, 1.12});
        PAPER.put("parkinsons", new double[] {0.59, 0.40, 0.39, 1.40});
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--datasets-dir", paramLabel = "DIR",
            description = "Folder with <name>.csv and splits/<name>/fold.txt (default: the repository's datasets/ "
                    + "folder: -D" + DatasetsDir.PROPERTY + ", as ./regheads sets it, else the first datasets/ "
                    + "folder with splits/ from the working directory upwards).")
    Path datasetsDir;

    @Option(names = "--datasets", paramLabel = "LIST", defaultValue = "yacht,autompg,energy,concrete,airfoil,wine",
            description = "Comma-separated dataset names (default: ${DEFAULT-VALUE}).")
    String datasets;

    @Option(names = "--folds", paramLabel = "LIST", defaultValue = "0-9",
            description = "Test folds, e.g. 0-9 or 0,1 (default: ${DEFAULT-VALUE}).")
    String folds;

    @Mixin
    TrainingOptions training;

    @Option(names = "--out", paramLabel = "FILE", description = "Markdown file for the table (default: "
            + "runs/uci-<yyyyMMdd-HHmmss>.md).")
    Path out;

    @Option(names = "--json", description = "Print the per-fold results as JSON on stdout instead of the table.")
    boolean json;

    @Option(names = "--quiet", description = "No per-run progress lines on stderr.")
    boolean quiet;

    @Option(names = "--spark", arity = "0..1", fallbackValue = "", paramLabel = "MASTER",
            description = {"Run the fits as Spark tasks (needs the regheads-spark module and Spark on the class path; "
                    + "see docs/spark.md): a master URL such as local[2], or no value for the master spark-submit "
                    + "sets. Same table as without it when the ND4J thread settings are the same."})
    String spark;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        List<HeadCatalog.Preset> presets = HeadCatalog.standard().select(training.heads);
        HeadRun.checkLoss(training.loss);
        TrainerConfig trainer = training.trainer(TrainerConfig.paper());
        Path datasetsDir = this.datasetsDir != null ? this.datasetsDir : DatasetsDir.locate();
        List<String> names = new ArrayList<>();
        for (String raw : datasets.split(",")) {
            String n = raw.strip();
            Checks.require(!n.isEmpty(), "--datasets must list dataset names, got '%s'", datasets);
            Checks.require(Files.isRegularFile(datasetsDir.resolve(n + ".csv")), "--datasets: %s not found in %s",
                    n + ".csv", datasetsDir);
            names.add(n);
        }
        // load everything first, so a bad name or file fails before any training
        List<InputData> inputs = new ArrayList<>();
        for (String n : names) {
            Folds f = Folds.forDataset(datasetsDir, n);
            inputs.add(new InputData(n, CsvLoader.load(datasetsDir.resolve(n + ".csv")), f, "splits/" + n + "/fold.txt"));
        }
        long started = System.nanoTime();
        int failed = 0;
        List<UciFits.Fit> fits = new ArrayList<>(); // dataset x head x fold, in table order
        List<int[]> foldLists = new ArrayList<>();
        for (int d = 0; d < inputs.size(); d++) {
            int[] foldList = InputData.parseFolds(folds, inputs.get(d).folds().count());
            foldLists.add(foldList);
            for (HeadCatalog.Preset p : presets) {
                for (int k : foldList) {
                    fits.add(new UciFits.Fit(d, p.name(), k));
                }
            }
        }
        List<UciFits.Result> results;
        try (TaskRunner runner = spark == null ? TaskRunner.sequential() : TaskRunner.open("spark", spark)) {
            results = runner.run(fits, new UciFits.Function(inputs, trainer, training.loss), r -> {
                if (r.failed()) { // always reported, listed in the JSON, left out of the means
                    System.err.printf(Locale.ROOT, "%-9s %-10s fold %d: FAILED (%s): %s%n", r.dataset(), r.head(),
                            r.fold(), r.stopReason(), r.message());
                } else if (!quiet) {
                    System.err.printf(Locale.ROOT, "%-9s %-10s fold %d: NLL(y01) %8.4f  RMSE %8.4f  %3d epochs  %5.1f s%n",
                            r.dataset(), r.head(), r.fold(), r.nll01(), r.rmse(), r.epochs(), r.trainSeconds());
                }
            });
        }
        Map<String, Map<String, double[]>> nll = new LinkedHashMap<>();
        Map<String, Map<String, double[]>> seconds = new LinkedHashMap<>();
        List<Object> perFold = new ArrayList<>();
        int next = 0;
        for (int d = 0; d < inputs.size(); d++) {
            int[] foldList = foldLists.get(d);
            Map<String, double[]> byHead = new LinkedHashMap<>();
            Map<String, double[]> timeByHead = new LinkedHashMap<>();
            for (HeadCatalog.Preset p : presets) {
                double[] v = new double[foldList.length];
                double[] s = new double[foldList.length];
                for (int i = 0; i < foldList.length; i++) {
                    UciFits.Result r = results.get(next++);
                    if (r.failed()) {
                        failed++;
                        v[i] = Double.NaN;
                        s[i] = r.trainSeconds();
                        Map<String, Object> e = new LinkedHashMap<>();
                        e.put("dataset", r.dataset());
                        e.put("head", r.head());
                        e.put("loss", r.loss());
                        e.put("fold", r.fold());
                        e.put("failed", true);
                        e.put("stopReason", r.stopReason());
                        e.put("message", r.message());
                        perFold.add(e);
                        continue;
                    }
                    v[i] = r.nll01();
                    s[i] = r.trainSeconds();
                    Map<String, Object> e = new LinkedHashMap<>();
                    e.put("dataset", r.dataset());
                    e.put("head", r.head());
                    e.put("loss", r.loss());
                    e.put("fold", r.fold());
                    e.put("nllY01", r.nll01());
                    e.put("clippedRows", r.clipped());
                    e.put("rmse", r.rmse());
                    e.put("crps", r.crps());
                    e.put("coverage90", r.coverage90());
                    e.put("epochs", r.epochs());
                    e.put("trainSeconds", r.trainSeconds());
                    perFold.add(e);
                }
                byHead.put(p.name(), v);
                timeByHead.put(p.name(), s);
            }
            nll.put(inputs.get(d).label(), byHead);
            seconds.put(inputs.get(d).label(), timeByHead);
        }
        double minutes = (System.nanoTime() - started) * 1e-9 / 60;
        String command = "./regheads " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        String md = markdown(presets, trainer, nll, seconds, command, minutes);
        Path file = out != null ? out
                : Path.of("runs", "uci-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".md");
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Files.writeString(file, md);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot write " + file + ": " + e.getMessage(), e);
        }
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("command", command);
            m.put("trainer", trainer.toString());
            m.put("results", perFold);
            m.put("markdown", file.toString());
            o.println(Json.write(m));
        } else {
            o.print(md);
            o.println();
            o.println("table written to " + file);
            if (failed > 0) {
                o.printf(Locale.ROOT, "%d runs FAILED to train (exit code %d): see stderr; the table averages the folds "
                        + "that trained%n", failed, Regheads.EXIT_HEAD_FAILED);
            }
        }
        o.flush();
        return failed == 0 ? Regheads.EXIT_OK : Regheads.EXIT_HEAD_FAILED;
    }

    /** Mean +- std over the folds that trained (NaN marks a failed fold): "failed" if none did. */
    static String cell(double[] nll) {
        double[] ok = java.util.Arrays.stream(nll).filter(v -> !Double.isNaN(v)).toArray();
        if (ok.length == 0) {
            return "failed";
        }
        return Stats.meanStd(ok) + (ok.length < nll.length ? String.format(Locale.ROOT, " (%d of %d folds; %d failed)",
                ok.length, nll.length, nll.length - ok.length) : "");
    }

    /** The markdown report: protocol, command, table of mean +- std per head beside the paper's columns. */
    static String markdown(List<HeadCatalog.Preset> presets, TrainerConfig trainer, Map<String, Map<String, double[]>> nll,
            Map<String, Map<String, double[]>> seconds, String command, double minutes) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Run %s UTC, %.1f minutes, java %s, %d processors visible:%n%n",
                LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")), minutes,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors()));
        sb.append("```\n").append(command).append("\n```\n\n");
        sb.append("Trainer: ").append(TrainingOptions.describe(trainer)).append(".\n");
        sb.append("Test NLL of y scaled to [0,1] by the training fold's min and max (test y01 clipped into "
                + "[0, 1-1e-7]), mean +- sample std over the folds; lower is better. Paper columns: the decoding "
                + "paper's test NLL as quoted in datasets/README.md (its y scaling is not stated).\n\n");
        sb.append("| dataset | folds |");
        for (HeadCatalog.Preset p : presets) {
            sb.append(' ').append(p.name()).append(p.paperColumn() == null ? "" : " (paper: " + p.paperColumn() + ")").append(" |");
        }
        for (String c : PAPER_COLUMNS) {
            sb.append(" paper ").append(c).append(" |");
        }
        sb.append('\n').append("|---|---|");
        sb.append("---|".repeat(presets.size() + PAPER_COLUMNS.length)).append('\n');
        for (Map.Entry<String, Map<String, double[]>> e : nll.entrySet()) {
            int n = e.getValue().values().iterator().next().length;
            sb.append("| ").append(e.getKey()).append(" | ").append(n).append(" |");
            for (HeadCatalog.Preset p : presets) {
                sb.append(' ').append(cell(e.getValue().get(p.name()))).append(" |");
            }
            double[] paper = PAPER.get(e.getKey());
            for (int c = 0; c < PAPER_COLUMNS.length; c++) {
                sb.append(paper == null ? " - |" : String.format(Locale.ROOT, " %.2f |", paper[c]));
            }
            sb.append('\n');
        }
        sb.append("\nMean training time per fit (s):");
        for (HeadCatalog.Preset p : presets) {
            double total = 0;
            int count = 0;
            for (Map<String, double[]> byHead : seconds.values()) {
                for (double s : byHead.get(p.name())) {
                    total += s;
                    count++;
                }
            }
            sb.append(String.format(Locale.ROOT, " %s %.1f;", p.name(), total / count));
        }
        sb.setLength(sb.length() - 1);
        sb.append(".\n");
        return sb.toString();
    }
}
