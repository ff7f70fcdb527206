package io.regheads.app.cli;

import io.regheads.core.data.TargetTransform;
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
 * {@code regheads compare}: trains each head on the chosen folds of one data set and prints test NLL (y01 units),
 * RMSE, Kendall tau, CRPS, 90% interval coverage and training time; writes an interval plot and a PIT histogram per
 * head and fold (see {@link Plots}). With no arguments: the embedded airfoil data, fold 0 of its shipped split, all
 * heads. Metrics are defined in {@link HeadRun}; the point prediction is each head's own or {@code --point} (with
 * {@code --temperature}, {@code --top-k}, {@code --top-p}, {@code --samples} for the sample-based ones, see {@link
 * DecodingOptions}). Data with NaN or infinite targets trains the heads that can learn them (decoders with special
 * tokens) and is refused before any training for the others.
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
            "3:unexpected failure or out of memory (REGHEADS_HEAP sets the heap of ./regheads)"})
final class CompareCommand implements Callable<Integer> {
    /**
     * Default maximum epochs of compare: the library's ({@link TrainerConfig#defaults()}; a constant for the help
     * texts, a test keeps the two equal).
     */
    static final int DEFAULT_EPOCHS = 300;
    /** Default early-stopping patience of compare: the library's, as {@link #DEFAULT_EPOCHS}. */
    static final int DEFAULT_PATIENCE = 20;

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
    TrainingOptions training;

    @Mixin
    DecodingOptions decoding;

    @Option(names = "--target-transform", paramLabel = "NONE|ROBUST|LOG", description = "How y is scaled for the "
            + "heads: NONE (min-max with the training fold's min and max; default), ROBUST (bounds 3 IQR below the first "
            + "and above the third quartile, inside the training range, targets beyond them clipped), LOG (log1p(y - min), then min-max: positive "
            + "right-skewed targets; predictions are mapped back exactly). With ROBUST or LOG, NLL(y01) is in the "
            + "head's units; RMSE, CRPS and cov90 stay in the units of y. The unnormalized decoder, trained on raw y, is "
            + "trained on the transformed y itself. NaN/infinite targets need NONE.")
    TargetTransform targetTransform = TargetTransform.NONE;

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
        List<HeadCatalog.Preset> presets = catalog.select(training.heads);
        HeadRun.checkLoss(training.loss);
        decoding.check();
        if (data == null && (target != null || split != null || delimiter != null)) {
            throw new IllegalArgumentException("--target, --split and --delimiter need --data");
        }
        InputData input = data == null ? InputData.embedded()
                : InputData.csv(data, target, split, training.seed, InputData.parseDelimiter(delimiter));
        int nonFinite = checkNonFinite(input, presets, targetTransform);
        int[] foldList = InputData.parseFolds(folds, input.folds().count());
        TrainerConfig trainer = training.trainer(TrainerConfig.defaults().withMaxEpochs(DEFAULT_EPOCHS).withPatience(DEFAULT_PATIENCE));
        Path dir = out != null ? out
                : Path.of("runs", "compare-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot create directory " + dir + ": " + e.getMessage(), e);
        }

        List<String> header = List.of(
                String.format(Locale.ROOT, "data: %s, %d rows, %d features, target '%s'; %s; test folds %s",
                        input.label(), input.data().rows(), input.data().features(), input.data().targetName(),
                        input.splitSource(), folds),
                "model: " + TrainingOptions.describe(trainer)
                        + (targetTransform == TargetTransform.NONE ? "" : "; target transform " + targetTransform),
                "NLL: test NLL of y scaled to [0,1] by the training fold's "
                        + (targetTransform == TargetTransform.NONE ? "min and max"
                                : targetTransform == TargetTransform.ROBUST ? "ROBUST bounds" : "min and max of log1p(y - min)")
                        + " (y01 clipped into [0, 1-1e-7]); "
                        + "RMSE, CRPS: original units; CRPS exact for pointwise, mdn and xval, else from a grid of 100 "
                        + "quantiles per row; "
                        + "cov90: share of test y inside the central 90% interval; RMSE and tau (Kendall tau-b) of the point "
                        + "prediction: " + (decoding.chosen() == null ? "each head's own (the predictive mean; "
                        + "unnormalized-decoder: auto, the certified mean, else the tree-walk median"
                        + (targetTransform == TargetTransform.LOG ? "; with the LOG target transform the median for "
                                + "every head" : "") + ")"
                        : "--point " + decoding.chosen().label())
                        + (nonFinite > 0 ? "; " + nonFinite + " NaN/infinite targets: learned with special tokens, "
                        + "left out of these metrics and scored as mean -log P(NaN/Inf) (NLL special)" : ""));
        if (!json) {
            header.forEach(o::println);
            o.printf(Locale.ROOT, "%-20s %-16s %4s %9s %9s %7s %9s %6s %8s %6s%n", "head", "loss", "fold", "NLL(y01)",
                    "RMSE", "tau", "CRPS", "cov90", "train s", "epochs");
            o.flush();
        }
        List<HeadRun.Result> results = new ArrayList<>();
        List<HeadRun.FailedRun> failures = new ArrayList<>();
        List<Object> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> pngs = new ArrayList<>();
        for (HeadCatalog.Preset p : presets) {
            for (int k : foldList) {
                ProgressListener progress = CliProgress.of(quiet, spec.commandLine().getErr());
                if (!quiet) {
                    System.err.printf(Locale.ROOT, "training %s on fold %d%n", p.name(), k);
                }
                HeadRun.Result r;
                try {
                    r = HeadRun.run(p, training.loss, trainer, targetTransform, input, k, progress, decoding);
                } catch (HeadRun.FailedRun f) {
                    failures.add(f);
                    rows.add(failedJson(f));
                    if (!json) {
                        o.printf(Locale.ROOT, "%-20s %-16s %4d FAILED (%s): %s%n", f.head, f.loss, f.fold, f.stopReason(),
                                f.reason());
                        o.flush();
                    }
                    continue;
                }
                results.add(r);
                rows.add(resultJson(r));
                for (String n : List.of(r.lossNote(), r.pointNote())) {
                    if (!n.isEmpty() && !notes.contains(n)) {
                        notes.add(n);
                    }
                }
                if (r.nonFinite() > 0) {
                    notes.add(String.format(Locale.ROOT, "%s fold %d: %d test targets NaN/infinite, NLL special "
                            + "(mean -log P) %.4f", r.head(), k, r.nonFinite(), r.nllNonFinite()));
                }
                String stem = p.name() + "-fold" + k;
                String title = String.format(Locale.ROOT, "%s, %s fold %d: NLL(y01) %.3f, cov90 %.2f", p.name(),
                        input.label(), k, r.nll01(), r.coverage90());
                Path iv = dir.resolve(stem + "-intervals.png");
                Path pit = dir.resolve(stem + "-pit.png");
                Plots.intervals(r, title, iv);
                Plots.pit(r, p.name() + ", " + input.label() + " fold " + k + ": PIT histogram", pit);
                pngs.add(iv.toString());
                pngs.add(pit.toString());
                if (!json) {
                    o.printf(Locale.ROOT, "%-20s %-16s %4d %9.4f %9.4f %7.4f %9.4f %6.3f %8.1f %6d%n", r.head(), r.loss(),
                            r.fold(), r.nll01(), r.rmse(), r.kendallTau(), r.crps(), r.coverage90(), r.trainSeconds(),
                            r.epochs());
                    o.flush();
                }
            }
        }
        Map<String, Object> jsonMap = toJson(input, trainer, header, rows, notes, pngs);
        jsonMap.put("targetTransform", targetTransform.name());
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
            double[] nll = results.stream().filter(r -> r.head().equals(p.name())).mapToDouble(HeadRun.Result::nll01).toArray();
            double[] rmse = results.stream().filter(r -> r.head().equals(p.name())).mapToDouble(HeadRun.Result::rmse).toArray();
            if (nll.length == 0) {
                o.printf(Locale.ROOT, "%-20s FAILED on every fold%n", p.name());
            } else {
                o.printf(Locale.ROOT, "%-20s NLL(y01) %s   RMSE %s%s%n", p.name(), Stats.meanStd(nll), Stats.meanStd(rmse),
                        nll.length < folds ? String.format(Locale.ROOT, " (%d of %d folds trained)", nll.length, folds) : "");
            }
        }
    }

    private static Map<String, Object> toJson(InputData input, TrainerConfig t, List<String> header, List<Object> rows,
            List<String> notes, List<String> pngs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", "compare");
        m.put("dataset", input.label());
        m.put("rows", input.data().rows());
        m.put("features", input.data().features());
        m.put("target", input.data().targetName());
        m.put("split", input.splitSource());
        m.put("trainer", t.toString());
        m.put("definitions", header.get(2));
        m.put("results", rows);
        m.put("notes", notes);
        m.put("plots", pngs);
        return m;
    }

    private static Map<String, Object> resultJson(HeadRun.Result r) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("head", r.head());
        e.put("loss", r.loss());
        e.put("fold", r.fold());
        e.put("failed", false);
        e.put("trainRows", r.trainRows());
        e.put("testRows", r.testRows());
        e.put("nllY01", r.nll01());
        e.put("clippedRows", r.clipped());
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
