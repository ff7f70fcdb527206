package io.regheads.app.cli;

import io.regheads.core.data.TargetTransform;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code regheads compare}: trains each head on the chosen folds of one data set and prints, per fold and head, the
 * test NLL of y in its own units, the NLL on the trainer's validation rows (the head with the lowest per fold marked
 * {@code *}: the one those rows would choose), RMSE, Kendall tau, CRPS, 90% interval coverage and training time, all
 * with 4 significant digits ({@link Fmt}), a legend below the table; writes an interval plot and a PIT histogram per
 * head and fold (see {@link Plots}). With no arguments: the embedded airfoil data, fold 0 of its shipped split, all
 * heads. Metrics are defined in {@link HeadRun}; the point prediction is each head's own or {@code --point} (with
 * {@code --temperature}, {@code --top-k}, {@code --top-p}, {@code --samples} for the sample-based ones, see {@link
 * DecodingOptions}). Head and trainer settings, the encoder and a settings file come from {@link TrainingOptions}.
 * Data with NaN or infinite targets trains the heads that can learn them (decoders with special tokens) and is
 * refused before any training for the others.
 *
 * <p>Not thread-safe (one instance per invocation, as picocli makes it).
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Train every head on one data set and compare them on held-out rows.",
            "Default data: UCI airfoil self-noise (1503 rows, 5 features, CC BY 4.0; see NOTICE), fold 0 of its "
                    + "shipped 10-fold split.",
            "A head whose training fails (diverges or collapses, e.g. at a too large --lr) is marked FAILED with the "
                    + "reason; the other heads go on."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every head trained",
            "1:training failed for some head (its rows say FAILED; the other heads ran)",
            "2:bad input (file, data or option)",
            "3:unexpected failure or out of memory (more heap: REGHEADS_HEAP=8g)"})
final class CompareCommand implements Callable<Integer> {
    /**
     * Default maximum epochs of compare: the library's ({@link TrainerConfig#defaults()}; a constant for the help
     * texts, a test keeps the two equal).
     */
    static final int DEFAULT_EPOCHS = 300;
    /** Default early-stopping patience of compare: the library's, as {@link #DEFAULT_EPOCHS}. */
    static final int DEFAULT_PATIENCE = 20;
    /** Marks the head with the lowest validation NLL of a fold. */
    static final String CHOSEN = "*";
    private static final String ROW = "%-20s %-16s %4s %10s %10s %10s %8s %10s %6s %8s %6s%n";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data", paramLabel = "FILE", description = "CSV file with a header row and numeric cells "
            + "(default: the embedded airfoil data). Target: the last column, or --target.")
    Path data;

    @Option(names = "--target", paramLabel = "NAME", description = "Target column of --data (default: the last).")
    String target;

    @Option(names = "--delimiter", paramLabel = "CHAR", description = "Cell delimiter of --data: one character, or "
            + "'tab' (default: detected from the header line among comma, semicolon, tab and |).")
    String delimiter;

    @Option(names = "--split", paramLabel = "FILE", description = "Fold file for --data: one fold number per data "
            + "row (as datasets/splits/<name>/fold.txt). Without it --data is split into 10 random folds "
            + "with --seed.")
    Path split;

    @Option(names = "--folds", paramLabel = "LIST", defaultValue = "0",
            description = "Test folds, e.g. 0, 0-9, 0,3,5 (default: ${DEFAULT-VALUE}); one model per head and fold.")
    String folds;

    @Mixin
    HeadsOption heads;

    @Mixin
    TrainingOptions training;

    @Mixin
    DecodingOptions decoding;

    @Option(names = "--target-transform", paramLabel = "NONE|ROBUST|LOG", description = "How y is scaled for the "
            + "heads: NONE (min-max with the training fold's min and max; default), ROBUST (bounds 3 IQR below the first "
            + "and above the third quartile, inside the training range, targets beyond them clipped), LOG (log1p(y - min), then min-max: positive "
            + "right-skewed targets; predictions are mapped back exactly). The NLL, RMSE, CRPS and cov90 stay in "
            + "the units of y. The unnormalized decoder, trained on raw y, is "
            + "trained on the transformed y itself. NaN/infinite targets need NONE.")
    TargetTransform targetTransform;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory for the PNG plots and results.json "
            + "(default: runs/compare-<yyyyMMdd-HHmmss>).")
    Path out;

    @Option(names = "--json", description = "Print the results as JSON on stdout instead of the table.")
    boolean json;

    @Option(names = "--quiet", description = "No training progress on stderr.")
    boolean quiet;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        HeadCatalog catalog = HeadCatalog.standard();
        List<HeadCatalog.Preset> chosen = catalog.select(heads.heads);
        training.check();
        HeadOptions headOptions = training.headOptions(catalog);
        headOptions.checkApplies(chosen);
        List<HeadCatalog.Preset> presets = new ArrayList<>();
        for (HeadCatalog.Preset p : chosen) {
            presets.add(training.configured(p, headOptions, chosen.size() == 1));
        }
        decoding.check(false);
        if (data == null && (target != null || split != null || delimiter != null)) {
            throw new IllegalArgumentException("--target, --split and --delimiter need --data");
        }
        TargetTransform transform = training.targetTransform(targetTransform);
        InputData input = data == null ? InputData.embedded()
                : InputData.csv(data, target, split, training.seed(), InputData.parseDelimiter(delimiter));
        int nonFinite = checkNonFinite(input, presets, transform);
        int[] foldList = InputData.parseFolds(folds, input.folds().count());
        TrainerConfig trainer = training.trainer(TrainerConfig.defaults().withMaxEpochs(DEFAULT_EPOCHS)
                .withPatience(DEFAULT_PATIENCE));
        HeadRun.Setup setup = training.setup(trainer, transform);
        Path dir = out != null ? out
                : Path.of("runs", "compare-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot create directory " + dir + ": " + e.getMessage(), e);
        }

        String yName = input.data().targetName();
        List<String> header = new ArrayList<>();
        header.add(String.format(Locale.ROOT, "data: %s, %d rows, %d features, target '%s'; %s; test folds %s",
                input.label(), input.data().rows(), input.data().features(), yName, input.splitSource(), folds));
        header.add("model: " + training.describe(trainer)
                + (transform == TargetTransform.NONE ? "" : "; target transform " + transform));
        String changed = changedHeads(chosen, presets);
        if (!changed.isEmpty()) {
            header.add("head settings: " + changed);
        }
        List<String> legend = legend(yName, nonFinite);
        if (!json) {
            header.forEach(o::println);
            o.printf(Locale.ROOT, ROW, "head", "loss", "fold", "NLL", "val NLL", "RMSE", "tau", "CRPS", "cov90",
                    "train s", "epochs");
            o.flush();
        }
        List<HeadRun.Result> results = new ArrayList<>();
        List<HeadRun.FailedRun> failures = new ArrayList<>();
        List<Object> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> pngs = new ArrayList<>();
        for (int k : foldList) {
            List<Object> fold = new ArrayList<>(); // this fold's results and failures, in head order
            for (HeadCatalog.Preset p : presets) {
                ProgressListener progress = CliProgress.of(quiet, spec.commandLine().getErr());
                if (!quiet) {
                    System.err.printf(Locale.ROOT, "training %s on fold %d%n", p.name(), k);
                }
                try {
                    fold.add(HeadRun.run(p, training.loss(p.spec().get()), setup, input, k, progress, decoding));
                } catch (HeadRun.FailedRun f) {
                    fold.add(f);
                }
            }
            HeadRun.Result best = chosenByValidation(fold);
            for (Object entry : fold) {
                if (entry instanceof HeadRun.FailedRun f) {
                    failures.add(f);
                    rows.add(failedJson(f));
                    if (!json) {
                        o.printf(Locale.ROOT, "%-20s %-16s %4d FAILED (%s): %s%n", f.head, f.loss, f.fold,
                                f.stopReason(), f.reason());
                    }
                    continue;
                }
                HeadRun.Result r = (HeadRun.Result) entry;
                results.add(r);
                rows.add(resultJson(r, r == best));
                for (String n : List.of(r.lossNote(), r.pointNote())) {
                    if (!n.isEmpty() && !notes.contains(n)) {
                        notes.add(n);
                    }
                }
                if (r.zeroDensity() > 0) {
                    notes.add(String.format(Locale.ROOT, "%s fold %d: %d of %d test y have zero density (NLL inf): "
                            + "outside the training range for a head without tails%s", r.head(), k, r.zeroDensity(),
                            r.y().length, r.head().equals("histogram") ? "; -H tails=true gives the histogram tails"
                                    : ""));
                }
                if (r.nonFinite() > 0) {
                    notes.add(String.format(Locale.ROOT, "%s fold %d: %d test targets NaN/infinite, NLL special "
                            + "(mean -log P) %s", r.head(), k, r.nonFinite(), Fmt.sig(r.nllNonFinite())));
                }
                String stem = r.head() + "-fold" + k;
                String title = String.format(Locale.ROOT, "%s, %s fold %d: NLL %s, cov90 %.2f", r.head(),
                        input.label(), k, Fmt.sig(r.nll()), r.coverage90());
                Path iv = dir.resolve(stem + "-intervals.png");
                Path pit = dir.resolve(stem + "-pit.png");
                Plots.intervals(r, title, yName, iv);
                Plots.pit(r, r.head() + ", " + input.label() + " fold " + k + ": PIT histogram", pit);
                pngs.add(iv.toString());
                pngs.add(pit.toString());
                if (!json) {
                    o.printf(Locale.ROOT, ROW, r.head(), r.loss(), r.fold(), Fmt.sig(r.nll()),
                            Fmt.sig(r.validationNll()) + (r == best ? CHOSEN : " "), Fmt.sig(r.rmse()),
                            Fmt.sig(r.kendallTau()), Fmt.sig(r.crps()), String.format(Locale.ROOT, "%.3f",
                                    r.coverage90()), String.format(Locale.ROOT, "%.1f", r.trainSeconds()),
                            Integer.toString(r.epochs()));
                }
            }
            o.flush();
        }
        Map<String, Object> jsonMap = toJson(input, trainer, header, legend, rows, notes, pngs);
        jsonMap.put("targetTransform", transform.name());
        String jsonText = Json.write(jsonMap);
        try {
            Files.writeString(dir.resolve("results.json"), jsonText + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve("results.json"), e);
        }
        if (json) {
            o.println(jsonText);
        } else {
            if (foldList.length > 1) {
                printSummary(o, presets, results, foldList.length);
            }
            legend.forEach(o::println);
            notes.forEach(n -> o.println("note: " + n));
            if (!failures.isEmpty()) {
                o.printf(Locale.ROOT, "%d of %d runs FAILED to train (exit code %d); the others are reported as usual%n",
                        failures.size(), failures.size() + results.size(), Regheads.EXIT_HEAD_FAILED);
            }
            o.println("plots and results.json: " + dir);
        }
        o.flush();
        return failures.isEmpty() ? Regheads.EXIT_OK : Regheads.EXIT_HEAD_FAILED;
    }

    /**
     * The result of a fold with the lowest validation NLL (NaN counts as missing; ties keep the head order), or
     * null when no head has one: the head a choice by the validation rows would make.
     */
    static HeadRun.Result chosenByValidation(List<?> fold) {
        HeadRun.Result best = null;
        for (Object e : fold) {
            if (e instanceof HeadRun.Result r && !Double.isNaN(r.validationNll())
                    && (best == null || r.validationNll() < best.validationNll())) {
                best = r;
            }
        }
        return best;
    }

    /** The lines below the table that say what each column means. */
    private List<String> legend(String yName, int nonFinite) {
        String point = decoding.chosen() != null ? "--point " + decoding.chosen().label()
                : "each head's own, the mean (unnormalized-decoder: certified mean, else median"
                        + (training.targetTransform(targetTransform) == TargetTransform.LOG
                                ? "; every head: the median under LOG" : "") + ")";
        List<String> l = new ArrayList<>();
        l.add(String.format(Locale.ROOT, "NLL      mean -log density of test y, in the units of '%s' (inf: some y has "
                + "zero density)", yName));
        l.add("val NLL  the same on the training rows early stopping held out; " + CHOSEN + " marks each fold's "
                + "lowest: the head those rows choose");
        l.add("RMSE     of the point prediction: " + point);
        l.add("tau      Kendall tau-b between the point prediction and y");
        l.add("CRPS     continuous ranked probability score (exact for pointwise, mdn, xval; else 100 quantiles "
                + "per row)");
        l.add("cov90    share of test y inside the central 90% interval; train s, epochs: training time and "
                + "epochs run");
        if (nonFinite > 0) {
            l.add(nonFinite + " NaN/infinite targets: learned with special tokens, left out of these metrics and "
                    + "scored as mean -log P(NaN/Inf) (notes)");
        }
        return l;
    }

    /** The heads whose settings differ from their presets', as {@code name key=value,...}; or empty. */
    private static String changedHeads(List<HeadCatalog.Preset> presets, List<HeadCatalog.Preset> configured) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < presets.size(); i++) {
            HeadSpec before = presets.get(i).spec().get();
            HeadSpec after = configured.get(i).spec().get();
            if (!before.equals(after)) {
                List<String> kv = new ArrayList<>();
                after.settings().forEach((k, v) -> {
                    if (!v.equals(before.settings().get(k))) {
                        kv.add(k + "=" + v);
                    }
                });
                out.add(presets.get(i).name() + " " + String.join(", ", kv));
            }
        }
        return String.join("; ", out);
    }

    /**
     * The number of NaN or infinite targets in the data; with any, every selected head must be able to learn them
     * (the check happens before any training).
     *
     * @throws IllegalArgumentException naming the heads that cannot
     */
    private static int checkNonFinite(InputData input, List<HeadCatalog.Preset> presets, TargetTransform target) {
        int n = 0;
        int first = -1;
        double[] y = input.data().y();
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                n++;
                first = first < 0 ? i : first;
            }
        }
        if (n > 0 && target != TargetTransform.NONE) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "--target-transform must be NONE for %s, "
                    + "which has %d NaN or infinite targets (first at data row %d, %s), got %s", input.label(), n,
                    first, y[first], target));
        }
        if (n > 0) {
            List<String> cannot = new ArrayList<>();
            for (HeadCatalog.Preset p : presets) {
                if (!p.spec().get().learningNonFinite().representsNonFinite()) {
                    cannot.add(p.name());
                }
            }
            if (!cannot.isEmpty()) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "%s has %d NaN or infinite targets "
                        + "(first at data row %d, %s); %s cannot learn them: only a decoder with special tokens can "
                        + "(--heads unnormalized-decoder)", input.label(), n, first, y[first], String.join(", ", cannot)));
            }
        }
        return n;
    }

    /** Mean +- std per head over the folds that trained (heads without any are listed as failed). */
    private static void printSummary(PrintWriter o, List<HeadCatalog.Preset> presets, List<HeadRun.Result> results,
            int folds) {
        o.println("mean +- std over folds:");
        for (HeadCatalog.Preset p : presets) {
            double[] nll = results.stream().filter(r -> r.head().equals(p.name())).mapToDouble(HeadRun.Result::nll).toArray();
            double[] rmse = results.stream().filter(r -> r.head().equals(p.name())).mapToDouble(HeadRun.Result::rmse).toArray();
            if (nll.length == 0) {
                o.printf(Locale.ROOT, "%-20s FAILED on every fold%n", p.name());
            } else {
                o.printf(Locale.ROOT, "%-20s NLL %s   RMSE %s%s%n", p.name(), Stats.meanStd(nll), Stats.meanStd(rmse),
                        nll.length < folds ? String.format(Locale.ROOT, " (%d of %d folds trained)", nll.length, folds) : "");
            }
        }
    }

    private static Map<String, Object> toJson(InputData input, TrainerConfig t, List<String> header,
            List<String> legend, List<Object> rows, List<String> notes, List<String> pngs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "compare");
        m.put("dataset", input.label());
        m.put("rows", input.data().rows());
        m.put("features", input.data().features());
        m.put("target", input.data().targetName());
        m.put("split", input.splitSource());
        m.put("trainer", t.toString());
        m.put("model", header.get(1).substring("model: ".length()));
        m.put("definitions", String.join("\n", legend));
        m.put("results", rows);
        m.put("notes", notes);
        m.put("plots", pngs);
        return m;
    }

    private static Map<String, Object> resultJson(HeadRun.Result r, boolean chosen) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("head", r.head());
        e.put("loss", r.loss());
        e.put("fold", r.fold());
        e.put("failed", false);
        e.put("trainRows", r.trainRows());
        e.put("testRows", r.testRows());
        e.put("nll", r.nll());
        e.put("zeroDensityRows", r.zeroDensity());
        e.put("validationNll", r.validationNll());
        e.put("chosenByValidation", chosen);
        e.put("rmse", r.rmse());
        e.put("kendallTau", r.kendallTau());
        e.put("pointEstimate", r.pointName());
        e.put("nonFiniteTestRows", r.nonFinite());
        e.put("nllNonFinite", r.nllNonFinite());
        e.put("crps", r.crps());
        e.put("coverage90", r.coverage90());
        e.put("width90", r.width90());
        e.put("trainSeconds", r.trainSeconds());
        e.put("epochs", r.epochs());
        e.put("stopReason", r.stopReason());
        e.put("pitHistogram", r.pitHistogram());
        return e;
    }

    /** A head that failed to train: no metrics, the stop reason and the trainer's message. */
    private static Map<String, Object> failedJson(HeadRun.FailedRun f) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("head", f.head);
        e.put("loss", f.loss);
        e.put("fold", f.fold);
        e.put("failed", true);
        e.put("stopReason", f.stopReason());
        e.put("message", f.reason());
        e.put("epochs", f.result.epochsRun());
        e.put("trainSeconds", f.result.wallTime().toNanos() * 1e-9);
        return e;
    }
}
