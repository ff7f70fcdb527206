package io.regheads.app.cli;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Evaluation;
import io.regheads.core.train.Progress;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code regheads defaults}: chooses default settings by cross-validation on the training rows only.
 *
 * <p>For each data set, outer fold k and study arm ({@link DefaultsStudy}), the rows of fold k are never read: the
 * arm's model ({@link ModelConfig#defaults} with the arm's head, loss and trainer) trains on the folds other than k
 * and k + 1 (mod the fold count), its own early stopping holding out 10% of those, and is scored on fold k + 1, the
 * selection rows: NLL of the targets clipped into the training range (as {@code uci}'s fair figure; the count of
 * rows whose unclipped target gets zero density is kept), CRPS and RMSE ({@link RegressionModel#evaluate}), all in
 * the units of y. {@link DefaultsReport} ranks the arms of each head within each (data set, fold) and averages.
 *
 * <p>Each fit is appended to a results file as one JSON line as soon as it ends; a rerun skips the fits the file holds
 * (fits are keyed by their whole configuration, so studies share equal fits). {@code --divergence} instead trains
 * each head's preset with the library's defaults ({@link ModelConfig#defaults}) on the whole training part of every
 * fold and reports the runs that diverge.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "defaults", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Chooses default settings by cross-validation on training folds only: for each dataset, outer "
                + "fold k and candidate setting, trains on the folds other than k and k+1 and scores NLL, CRPS and RMSE "
                + "on fold k+1 (fold k is never read); ranks the candidates per dataset and fold and averages the ranks. "
                + "Results are appended to a results file as each fit ends (a rerun skips finished fits)."})
final class DefaultsCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"--datasets-dir", "--data-dir"}, paramLabel = "DIR",
            description = "Folder with <name>.csv and splits/<name>/fold.txt (default: the repository's datasets/).")
    Path dataDir;

    @Option(names = "--datasets", paramLabel = "LIST", defaultValue = "all", description = "Comma-separated dataset "
            + "names, or all (every <name>.csv with a fold file, smallest first). Default: ${DEFAULT-VALUE}.")
    String datasets;

    @Option(names = "--folds", paramLabel = "LIST", defaultValue = "0-2",
            description = "Outer folds k (never read; fold k+1 is scored), e.g. 0-2 or 0,4. Default: ${DEFAULT-VALUE}.")
    String folds;

    @Option(names = "--studies", paramLabel = "LIST", defaultValue = "all",
            description = "Comma-separated studies, or all: patience, histogram-loss, histogram-bins, decoder-loss, "
                    + "mdn-optimizer, weight-decay, heads, heads-decoder. Default: ${DEFAULT-VALUE}.")
    String studies;

    @Option(names = "--epochs", paramLabel = "N", defaultValue = "100",
            description = "Cap on each fit's epochs (early stopping ends most sooner). Default: ${DEFAULT-VALUE}.")
    int epochs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed of every fit. Default: "
            + "${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--divergence", description = "Instead of the studies: train each head of --heads with the "
            + "library's defaults on the whole training part of each fold (up to --epochs epochs) and report the fits "
            + "that diverge.")
    boolean divergence;

    @Option(names = "--heads", paramLabel = "LIST", defaultValue = "mdn",
            description = "Heads of --divergence. Default: ${DEFAULT-VALUE}.")
    String heads;

    @Option(names = "--results", paramLabel = "FILE", defaultValue = "runs/defaults.jsonl",
            description = "Results file, one JSON line per fit; a rerun skips the fits it holds. Default: "
                    + "${DEFAULT-VALUE}.")
    Path resultsFile;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "runs/defaults.md",
            description = "Markdown report, rewritten after every fit. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Checks.atLeast("--epochs", epochs, 1);
        Path dir = dataDir != null ? dataDir : DatasetsDir.locate();
        List<String> names = UciCommand.datasetNames(dir, "all".equals(datasets) ? null : datasets);
        Map<String, InputData> inputs = new LinkedHashMap<>();
        Map<String, int[]> foldLists = new LinkedHashMap<>();
        for (String n : names) {
            Folds f = Folds.forDataset(dir, n);
            Checks.require(f.count() >= 3, "%s has %d folds; the selection needs at least 3", n, f.count());
            inputs.put(n, new InputData(n, CsvLoader.load(dir.resolve(n + ".csv")), f, "splits/" + n + "/fold.txt"));
            foldLists.put(n, InputData.parseFolds(folds, f.count()));
        }
        List<DefaultsStudy> chosen = divergence ? List.of(divergenceStudy(heads)) : DefaultsStudy.select(studies);
        Map<String, Map<String, Object>> store = read(resultsFile);
        String command = "./regheads " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        List<Task> todo = plan(chosen, names, foldLists, store);
        if (!quiet) {
            err.printf(Locale.ROOT, "regheads defaults: %d fits to run, results in %s%n", todo.size(), resultsFile);
            err.flush();
        }
        long started = System.nanoTime();
        for (int i = 0; i < todo.size(); i++) {
            Task t = todo.get(i);
            Map<String, Object> fresh = divergence ? divergenceFit(t, inputs.get(t.dataset)) : fit(t, inputs.get(t.dataset));
            String line = Json.write(fresh);
            append(resultsFile, line);
            Map<String, Object> r = Json.readFlat(line); // as a rerun reads it: numbers as Double, non-finite as null
            store.put(t.key, r);
            if (!quiet) {
                double elapsed = (System.nanoTime() - started) * 1e-9;
                err.printf(Locale.ROOT, "[%d/%d] %s fold %d %s %s: %s (%.1f s, %d epochs); %.0f s elapsed, ~%.0f s "
                        + "left%n", i + 1, todo.size(), t.dataset, t.fold, t.arm.head(), t.arm.label(), summary(r),
                        DefaultsReport.value(r, "trainSeconds"), (int) DefaultsReport.value(r, "epochs"), elapsed, elapsed / (i + 1) * (todo.size() - i - 1));
                err.flush();
            }
            write(out, report(command, chosen, names, foldLists, store));
        }
        String md = report(command, chosen, names, foldLists, store);
        write(out, md);
        o.print(md);
        o.println("report written to " + out + ", results in " + resultsFile);
        o.flush();
        return Regheads.EXIT_OK;
    }

    private String report(String command, List<DefaultsStudy> chosen, List<String> names, Map<String, int[]> foldLists,
            Map<String, Map<String, Object>> store) {
        return divergence
                ? DefaultsReport.divergence(command, chosen.get(0), names, foldLists, store, seed, epochs)
                : DefaultsReport.markdown(command, chosen, names, foldLists, store, seed, epochs);
    }

    /** One fit to run: a study arm on a data set's outer fold, with its key in the results file. */
    record Task(String dataset, int fold, DefaultsStudy.Arm arm, String key) {}

    private List<Task> plan(List<DefaultsStudy> chosen, List<String> names, Map<String, int[]> foldLists,
            Map<String, Map<String, Object>> store) {
        List<Task> todo = new ArrayList<>();
        Set<String> planned = new HashSet<>(store.keySet());
        for (DefaultsStudy s : chosen) {
            for (String n : names) {
                for (int k : foldLists.get(n)) {
                    for (DefaultsStudy.Arm a : s.arms()) {
                        String key = key(a, n, k);
                        if (planned.add(key)) {
                            todo.add(new Task(n, k, a, key));
                        }
                    }
                }
            }
        }
        return todo;
    }

    /** The results-file key of an arm's fit: divergence fits (whole training part) are keyed apart. */
    String key(DefaultsStudy.Arm a, String dataset, int fold) {
        return (divergence ? "divergence|" : "") + a.key(dataset, fold, seed, epochs);
    }

    /**
     * The arms of {@code --divergence}: each head's catalog preset with {@link ModelConfig#defaults} (default loss and
     * trainer). Each head gets one arm (ranks are not taken).
     */
    static DefaultsStudy divergenceStudy(String heads) {
        List<DefaultsStudy.Arm> arms = new ArrayList<>();
        for (HeadCatalog.Preset p : HeadCatalog.standard().select(heads)) {
            ModelConfig c = ModelConfig.defaults(p.spec().get());
            arms.add(new DefaultsStudy.Arm(p.name(), "defaults", p.spec(), c.loss(), c.trainer()));
        }
        return new DefaultsStudy("divergence", "each head with the library's defaults", arms);
    }

    /** Rows of outer fold k's training part, without fold k + 1 (returned apart, as the selection rows). */
    static Dataset[] innerSplit(InputData in, int fold) {
        Folds f = in.folds();
        int inner = (fold + 1) % f.count();
        return new Dataset[] {in.data().subset(rowsNotIn(f, fold, inner)), in.data().subset(f.testRows(inner))};
    }

    private static int[] rowsNotIn(Folds f, int a, int b) {
        int[] rows = new int[f.rows()];
        int n = 0;
        for (int i = 0; i < f.rows(); i++) {
            if (f.foldOf(i) != a && f.foldOf(i) != b) {
                rows[n++] = i;
            }
        }
        return Arrays.copyOf(rows, n);
    }

    private Map<String, Object> fit(Task t, InputData in) {
        Dataset[] split = innerSplit(in, t.fold);
        Map<String, Object> r = base(t, split[0].rows(), split[1].rows());
        try {
            RegressionModel m = RegressionModel.create(config(t.arm), split[0].features());
            TrainingResult tr = m.fit(split[0]);
            trained(r, tr);
            if (tr.failed()) {
                return r;
            }
            Dataset sel = split[1];
            Evaluation e = m.evaluate(sel);
            double lo = m.yScaler().min();
            double hi = m.yScaler().max();
            double[] y = sel.y();
            double[] clipped = new double[y.length];
            for (int i = 0; i < y.length; i++) {
                clipped[i] = Math.min(Math.max(y[i], lo), hi - (hi - lo) * (1 - UciFit.CLIP_HIGH));
            }
            double[] ll = m.logLikelihood(sel.x(), clipped);
            double[] raw = m.logLikelihood(sel.x(), y);
            double nll = 0;
            int zero = 0;
            for (int i = 0; i < y.length; i++) {
                nll -= ll[i];
                zero += raw[i] == Double.NEGATIVE_INFINITY ? 1 : 0;
            }
            r.put("nll", nll / y.length);
            r.put("crps", e.crps());
            r.put("rmse", e.rmse());
            r.put("zeroDensity", zero);
            if (!Double.isFinite(nll)) {
                r.put("status", "FAILED");
                r.put("message", "selection NLL is " + nll / y.length);
            }
        } catch (RuntimeException e) {
            r.put("status", "FAILED");
            r.put("message", (e.getClass().getSimpleName() + ": " + e.getMessage()).replace('\n', ' '));
        }
        return r;
    }

    /** The model of an arm: {@link ModelConfig#defaults} with the arm's head, loss and trainer (seed, epoch cap). */
    private ModelConfig config(DefaultsStudy.Arm a) {
        return ModelConfig.defaults(a.spec().get()).withLoss(a.loss()).withTrainer(a.trainer(seed, epochs));
    }

    private Map<String, Object> divergenceFit(Task t, InputData in) {
        Folds.Split split = in.folds().split(in.data(), t.fold);
        Map<String, Object> r = base(t, split.train().rows(), 0);
        double[] worst = {Double.NEGATIVE_INFINITY, Double.NaN};
        ProgressListener spikes = new ProgressListener() {
            @Override
            public void onStep(Progress p) {
                if (Double.isNaN(worst[1])) {
                    worst[1] = p.trainLoss(); // the first step's loss, before any update
                }
                worst[0] = Math.max(worst[0], p.trainLoss());
            }
        };
        try {
            RegressionModel m = RegressionModel.create(config(t.arm), split.train().features());
            trained(r, m.fit(split.train(), spikes));
        } catch (RuntimeException e) {
            r.put("status", "FAILED");
            r.put("message", (e.getClass().getSimpleName() + ": " + e.getMessage()).replace('\n', ' '));
        }
        r.put("firstStepLoss", worst[1]);
        r.put("maxStepLoss", worst[0]);
        return r;
    }

    private Map<String, Object> base(Task t, int trainRows, int selectionRows) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("key", t.key);
        r.put("dataset", t.dataset);
        r.put("fold", t.fold);
        r.put("head", t.arm.head());
        r.put("label", t.arm.label());
        r.put("loss", t.arm.loss());
        r.put("trainer", t.arm.trainer(seed, epochs).toString());
        r.put("trainRows", trainRows);
        r.put("selectionRows", selectionRows);
        r.put("status", "OK");
        r.put("message", "");
        r.put("epochs", 0);
        r.put("bestEpoch", 0);
        r.put("stopReason", "");
        r.put("trainSeconds", 0.0);
        r.put("load", UciFit.load());
        return r;
    }

    private static void trained(Map<String, Object> r, TrainingResult tr) {
        r.put("epochs", tr.epochsRun());
        r.put("bestEpoch", tr.bestEpoch());
        r.put("stopReason", tr.stopReason().name());
        r.put("trainSeconds", tr.wallTime().toNanos() * 1e-9);
        if (tr.failed()) {
            r.put("status", "FAILED");
            r.put("message", tr.message().replace('\n', ' '));
        }
    }

    private static String summary(Map<String, Object> r) {
        if (!"OK".equals(r.get("status"))) {
            return "FAILED: " + r.get("message");
        }
        if (!r.containsKey("nll")) {
            return String.valueOf(r.get("stopReason"));
        }
        return String.format(Locale.ROOT, "NLL %.4f, CRPS %.4g, RMSE %.4g", DefaultsReport.value(r, "nll"),
                DefaultsReport.value(r, "crps"), DefaultsReport.value(r, "rmse"));
    }

    /** The fits a results file holds, by key (the last line of a key wins; a cut-off last line is skipped). */
    static Map<String, Map<String, Object>> read(Path file) {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return m;
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.isEmpty()) {
                    continue;
                }
                try {
                    Map<String, Object> r = Json.readFlat(line);
                    m.put((String) r.get("key"), r);
                } catch (IllegalArgumentException e) {
                    Checks.require(i == lines.size() - 1, "--results: line %d of %s is malformed: %s", i + 1, file,
                            e.getMessage());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("--results: cannot read " + file + ": " + e.getMessage(), e);
        }
        return m;
    }

    private static void append(Path file, String line) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Files.writeString(file, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("--results: cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path file, String text) {
        try {
            if (file.toAbsolutePath().getParent() != null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
            }
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
