package io.regheads.app.cli;

import io.regheads.app.grid.TaskRunner;
import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Folds;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code regheads uci}: the decoding paper's UCI density benchmark (Song and Bahri, "Decoding-based Regression",
 * arXiv:2501.19383, Table 2 and appendix A.4) on data sets laid out as {@code <name>.csv} with
 * {@code splits/<name>/fold.txt}.
 *
 * <p>The work is a list of independent fits ({@link #plan}: one {@link UciTask} per data set, fold, head and grid
 * variant), each a pure function ({@link UciFit#run}) giving a {@link UciResult}. A {@link TaskRunner} runs them
 * ({@link UciFits}): one after the other in this JVM, or as Spark tasks with {@code --spark}. Each result is appended
 * to the results file as soon as the runner hands it over (sequentially: as each fit ends; with Spark: when the
 * batch is collected), a rerun skips the tasks the file already holds, a progress line goes to stderr, and the
 * markdown report ({@link UciReport}) is rewritten after every data set.
 *
 * <p>Protocols: {@code preset} trains each head's catalog preset, with the head settings given ({@code -H}, a
 * settings file: the variant is then labelled by the changed settings, {@code bins=32,tails=true}), the given
 * trainer (default lr 1e-4, the paper's) and encoder; {@code paper} trains every point of each head's selection grid ({@link HeadCatalog#grid(String)}) with
 * Adam lr 5e-4, at most 300 epochs, early stopping with patience 5 on 10% of the training rows, and the report
 * selects per fold by the validation figures.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "uci", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The decoding paper's UCI benchmark over the folds of named datasets: per head and fold both the "
                + "paper-compatible figure and the fair ones (density NLL of y01, CRPS, NLL at the data's resolution); "
                + "results are appended to a results file as each fit ends (a rerun skips finished fits) and a "
                + "markdown report is written."})
final class UciCommand implements Callable<Integer> {

    /** Learning rate of {@code --protocol paper} (one of the two the paper sweeps). */
    static final double PAPER_LEARNING_RATE = 5e-4;

    /** How the heads are configured and trained. */
    enum Protocol {
        /** Each head's catalog preset, the trainer as given (default: lr 1e-4). */
        PRESET,
        /** Each head's selection grid, Adam lr 5e-4, 300 epochs, patience 5; selection by validation figures. */
        PAPER,
        /** As PAPER, with the gradient's global norm clipped at {@link #CLIP_NORM} (typed {@code paper-clipped}). */
        PAPER_CLIPPED
    }

    /** The gradient-norm clip of {@code --protocol paper-clipped}. */
    static final double CLIP_NORM = 1.0;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"--datasets-dir", "--data-dir"}, paramLabel = "DIR",
            description = "Folder with <name>.csv and splits/<name>/fold.txt (default: the repository's datasets/ "
                    + "folder: -D" + DatasetsDir.PROPERTY + ", as ./regheads sets it, else the first datasets/ "
                    + "folder with splits/ from the working directory upwards).")
    Path dataDir;

    @Option(names = "--datasets", paramLabel = "LIST", description = "Comma-separated data set names (default: every "
            + "<name>.csv in the folder that has splits/<name>/fold.txt, smallest file first).")
    String datasets;

    @Option(names = "--folds", paramLabel = "LIST", defaultValue = "0-9",
            description = "Test folds, e.g. 0-9 or 0,1 (default: ${DEFAULT-VALUE}).")
    String folds;

    @Option(names = "--protocol", paramLabel = "NAME", defaultValue = "preset",
            description = "preset (each head's catalog preset), paper (each head's selection grid, Adam lr 5e-4, "
                    + "300 epochs, patience 5; per fold the variant with the best validation figure) or paper-clipped "
                    + "(paper with the gradient's global norm clipped at 1). Default: ${DEFAULT-VALUE}.")
    String protocol;

    @Mixin
    HeadsOption heads;

    @Mixin
    TrainingOptions training;

    @Option(names = "--results", paramLabel = "FILE", defaultValue = "runs/uci.jsonl",
            description = "Results file, one JSON line per finished fit; a rerun with the same file skips the fits "
                    + "it holds (default: ${DEFAULT-VALUE}).")
    Path resultsFile;

    @Option(names = "--retry-failed", description = "Run again the fits the results file holds as failed.")
    boolean retryFailed;

    @Option(names = "--report-only", description = "Train nothing: write the report from the fits the results file "
            + "already holds (e.g. while a run is going on elsewhere).")
    boolean reportOnly;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "runs/uci.md",
            description = "Markdown report, rewritten after every data set (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--json", description = "Print the run's per-fit results as JSON on stdout instead of the report.")
    boolean json;

    @Option(names = "--quiet", description = "No progress lines on stderr (failed fits are always reported).")
    boolean quiet;

    @Option(names = "--spark", arity = "0..1", fallbackValue = "", paramLabel = "MASTER",
            description = {"Run the fits as Spark tasks (needs Spark on the class path: scripts/spark-local or "
                    + "spark-submit, see docs/spark.md): a master URL such as local[2], or no value for the master spark-submit "
                    + "sets. Same figures as without it when the ND4J thread settings are the same; results reach "
                    + "the results file when the run's fits are collected, not one by one."})
    String spark;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Protocol proto = parseProtocol(protocol);
        HeadCatalog catalog = HeadCatalog.standard();
        List<HeadCatalog.Preset> presets = catalog.select(heads.heads);
        training.check();
        HeadOptions headOptions = training.headOptions(catalog);
        headOptions.checkApplies(presets);
        Checks.require(training.targetTransform(null) == io.regheads.core.data.TargetTransform.NONE,
                "--config: uci scales y by min and max (the paper's protocol), got target.transform=%s",
                training.targetTransform(null));
        Checks.require(training.standardizeX(), "--config: uci standardises x (the paper's protocol), got "
                + "standardizeX=false");
        TrainerConfig trainer = training.trainer(switch (proto) {
            case PAPER -> TrainerConfig.paper().withLearningRate(PAPER_LEARNING_RATE);
            case PAPER_CLIPPED -> TrainerConfig.paper().withLearningRate(PAPER_LEARNING_RATE).withClipNorm(CLIP_NORM);
            case PRESET -> TrainerConfig.paper();
        });
        Path dataDir = this.dataDir != null ? this.dataDir : DatasetsDir.locate();
        List<String> names = datasetNames(dataDir, datasets);
        // load everything first, so a bad name, file or fold list fails before any training
        Map<String, InputData> inputs = new LinkedHashMap<>();
        Map<String, int[]> foldLists = new LinkedHashMap<>();
        for (String n : names) {
            Folds f = Folds.forDataset(dataDir, n);
            InputData in = new InputData(n, CsvLoader.load(dataDir.resolve(n + ".csv")), f, "splits/" + n + "/fold.txt");
            inputs.put(n, in);
            foldLists.put(n, InputData.parseFolds(folds, f.count()));
        }
        Map<String, List<String>> grids = new LinkedHashMap<>();
        Map<String, String> losses = new LinkedHashMap<>();
        for (HeadCatalog.Preset p : presets) {
            HeadSpec spec = training.configured(p, headOptions, presets.size() == 1).spec().get();
            String label = catalog.label(p.name(), spec);
            Checks.require(proto == Protocol.PRESET || label.equals(HeadCatalog.PRESET), "-H and --config head "
                    + "settings change the preset (--protocol preset); --protocol paper trains each head's own grid, "
                    + "got %s %s", p.name(), label);
            grids.put(p.name(), proto != Protocol.PRESET
                    ? catalog.grid(p.name()).stream().map(HeadCatalog.Variant::label).toList()
                    : List.of(label));
            losses.put(p.name(), training.loss(spec));
        }
        List<UciTask> tasks = plan(names, foldLists, presets, grids, losses, trainer, training.encoderLayers(),
                training.encoderWidth());
        UciResults store = UciResults.open(resultsFile);
        String command = "./regheads " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        String header = header(command, proto, training.describe(trainer), presets, grids, resultsFile);

        List<UciTask> todo = new ArrayList<>();
        for (UciTask t : tasks) {
            UciResult done = store.get(t.key());
            if (!reportOnly && (done == null || (retryFailed && !done.ok()))) {
                todo.add(t);
            }
        }
        if (!quiet) {
            err.printf(Locale.ROOT, "regheads uci: %d fits, %d already in %s, %d to run%n", tasks.size(),
                    tasks.size() - todo.size(), resultsFile, todo.size());
            err.flush();
        }
        if (!todo.isEmpty()) {
            List<InputData> needed = todo.stream().map(UciTask::dataset).distinct().map(inputs::get).toList();
            List<UciFits.Fit> fits = todo.stream().map(UciFits.Fit::of).toList();
            long started = System.nanoTime();
            int[] done = {0};
            try (TaskRunner runner = spark == null ? TaskRunner.sequential() : TaskRunner.open("spark", spark)) {
                if (!quiet) {
                    err.println("regheads uci: runner " + runner.describe());
                    err.flush();
                }
                runner.run(fits, new UciFits.Function(needed), r -> {
                    store.append(r); // at once: an interrupted run keeps every fit handed over so far
                    int i = done[0]++;
                    if (!quiet || !r.ok()) {
                        err.println(progress(i + 1, todo.size(), r, (System.nanoTime() - started) * 1e-9));
                        err.flush();
                    }
                    boolean lastOfDataset = i + 1 == todo.size() || !todo.get(i + 1).dataset().equals(r.dataset());
                    if (lastOfDataset) {
                        write(out, header + UciReport.markdown(names, presets, grids, foldLists,
                                runResults(store, tasks)));
                    }
                });
            }
        }
        List<UciResult> mine = runResults(store, tasks);
        String md = header + UciReport.markdown(names, presets, grids, foldLists, mine);
        write(out, md);
        long failed = mine.stream().filter(r -> !r.ok()).count();
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("command", command);
            m.put("protocol", proto.name().toLowerCase(Locale.ROOT));
            m.put("trainer", trainer.toString());
            m.put("results", mine.stream().map(UciResult::toMap).toList());
            m.put("markdown", out.toString());
            o.println(Json.write(m));
        } else {
            o.print(md);
            o.println("report written to " + out + ", results in " + resultsFile);
            if (failed > 0) {
                o.printf(Locale.ROOT, "%d fits FAILED (exit code %d): see the report's failure list; the tables "
                        + "leave them out%n", failed, Regheads.EXIT_HEAD_FAILED);
            }
        }
        o.flush();
        return failed == 0 ? Regheads.EXIT_OK : Regheads.EXIT_HEAD_FAILED;
    }

    /**
     * The run's fits, data set by data set, then fold, head and grid variant: independent tasks in the order the
     * command runs them.
     *
     * @param folds per data set, the test folds
     * @param grids per head name, the variant labels to train
     * @param loss  loss expression or null for each head's default
     */
    static List<UciTask> plan(List<String> datasets, Map<String, int[]> folds, List<HeadCatalog.Preset> heads,
            Map<String, List<String>> grids, String loss, TrainerConfig trainer) {
        Map<String, String> losses = new LinkedHashMap<>();
        heads.forEach(p -> losses.put(p.name(), loss));
        return plan(datasets, folds, heads, grids, losses, trainer, TrainingOptions.DEFAULT_LAYERS,
                TrainingOptions.DEFAULT_WIDTH);
    }

    /**
     * As {@link #plan(List, Map, List, Map, String, TrainerConfig)} with a loss per head (name to expression, null
     * for the head's default) and the encoder's hidden layers and width.
     */
    static List<UciTask> plan(List<String> datasets, Map<String, int[]> folds, List<HeadCatalog.Preset> heads,
            Map<String, List<String>> grids, Map<String, String> losses, TrainerConfig trainer, int encoderLayers,
            int encoderWidth) {
        List<UciTask> tasks = new ArrayList<>();
        for (String ds : datasets) {
            for (int fold : folds.get(ds)) {
                for (HeadCatalog.Preset p : heads) {
                    for (String v : grids.get(p.name())) {
                        tasks.add(new UciTask(ds, fold, p.name(), v, losses.get(p.name()), trainer, encoderLayers,
                                encoderWidth));
                    }
                }
            }
        }
        return tasks;
    }

    /** The stored results of {@code tasks}, in task order. */
    private static List<UciResult> runResults(UciResults store, List<UciTask> tasks) {
        List<UciResult> l = new ArrayList<>();
        for (UciTask t : tasks) {
            UciResult r = store.get(t.key());
            if (r != null) {
                l.add(r);
            }
        }
        return l;
    }

    static Protocol parseProtocol(String s) {
        for (Protocol p : Protocol.values()) {
            if (p.name().equalsIgnoreCase(s == null ? "" : s.strip().replace('-', '_'))) {
                return p;
            }
        }
        throw new IllegalArgumentException("--protocol must be preset, paper or paper-clipped, got '" + s + "'");
    }

    /**
     * The data sets to run: the named ones (each must have its CSV), or every {@code <name>.csv} of the folder with
     * a fold file, smallest file first.
     *
     * @throws IllegalArgumentException if the folder or a named file is missing, or the folder has no data set
     */
    static List<String> datasetNames(Path dir, String list) {
        Checks.require(Files.isDirectory(dir), "--data-dir: folder %s not found", dir);
        List<String> names = new ArrayList<>();
        if (list != null && !list.isBlank()) {
            for (String raw : list.split(",")) {
                String n = raw.strip();
                Checks.require(!n.isEmpty(), "--datasets must list dataset names, got '%s'", list);
                Checks.require(Files.isRegularFile(dir.resolve(n + ".csv")), "--datasets: %s not found in %s",
                        n + ".csv", dir);
                Checks.require(!names.contains(n), "--datasets: %s is listed twice", n);
                names.add(n);
            }
            return names;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().endsWith(".csv"))
                    .filter(f -> Files.isRegularFile(dir.resolve("splits")
                            .resolve(f.getFileName().toString().replaceFirst("\\.csv$", "")).resolve("fold.txt")))
                    .sorted(Comparator.comparingLong((Path f) -> f.toFile().length()).thenComparing(Path::toString))
                    .forEach(f -> names.add(f.getFileName().toString().replaceFirst("\\.csv$", "")));
        } catch (IOException e) {
            throw new UncheckedIOException("--data-dir: cannot list " + dir + ": " + e.getMessage(), e);
        }
        Checks.require(!names.isEmpty(), "--data-dir: %s holds no <name>.csv with splits/<name>/fold.txt", dir);
        return names;
    }

    private static String progress(int done, int total, UciResult r, double elapsed) {
        double eta = elapsed / done * (total - done);
        String figures = r.ok()
                ? "paper " + UciReport.num(r.paper()) + ", NLL01 " + UciReport.num(r.fair()) + ", CRPS01 "
                        + UciReport.num(r.crps())
                : "FAILED: " + r.message();
        return String.format(Locale.ROOT, "[%d/%d] %s fold %d %s %s: %s (%.1f s + %.1f s, %d epochs); %s elapsed, "
                + "~%s left", done, total, r.dataset(), r.fold(), r.head(), r.variant(), figures, r.trainSeconds(),
                r.evalSeconds(), r.epochs(), clock(elapsed), clock(eta));
    }

    private static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
    }

    private static String header(String command, Protocol proto, String trainer, List<HeadCatalog.Preset> heads,
            Map<String, List<String>> grids, Path results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Report of %s UTC, java %s, %d processors visible, load average %.1f:%n%n",
                LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), UciFit.load()));
        sb.append("```\n").append(command).append("\n```\n\n");
        sb.append("Protocol ").append(proto.name().toLowerCase(Locale.ROOT)).append("; model: ")
                .append(trainer).append("; each head's default loss unless --loss; results "
                        + "file ").append(results).append(".\n\nHeads and variants:");
        for (HeadCatalog.Preset p : heads) {
            sb.append(' ').append(p.name()).append(" (").append(String.join(", ", grids.get(p.name()))).append(");");
        }
        sb.setLength(sb.length() - 1);
        sb.append(".\n\n");
        return sb.toString();
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
