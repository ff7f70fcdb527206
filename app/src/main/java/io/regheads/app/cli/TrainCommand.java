package io.regheads.app.cli;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.check.Checks;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.core.head.HeadSpec;
import io.regheads.heads.model.HeadSelection;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.model.ScoringRule;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code regheads train}: trains one head on all rows of a CSV file (early stopping on a validation share of them,
 * as {@code compare}) and saves the model with {@code --save}, for {@code regheads predict} or {@link
 * RegressionModel#load}.
 *
 * <p>The features are every column except the target (the last column, or {@code --target}), in file order;
 * {@code predict} reads its features in the same order. The head is a preset of {@link HeadCatalog} with any of its
 * settings changed ({@code -H KEY=VALUE}); trainer, encoder, loss and a settings file come from {@link
 * TrainingOptions}. Examples: {@code regheads train --data train.csv --target y --head mdn --save m.rgh}; {@code
 * regheads train --data d.csv --head histogram -H bins=32 -H tails=true --save m.rgh}; {@code regheads train --data
 * d.csv --config m.properties --save m2.rgh} (the settings {@code regheads settings --model m.rgh} printed).
 *
 * <p>Exit codes: 0 when the model was trained and saved; 1 when training failed (diverged or left an unusable model:
 * one line {@code regheads: <head> on <file>: FAILED (<reason>): <what to try>} on stderr, nothing saved); 2 for bad
 * input; 3 for an unexpected failure or out of memory.
 *
 * <p>Not thread-safe (one instance per invocation, as picocli makes it).
 */
@Command(name = "train", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Train one head on all rows of a CSV file and save the model (--save) for 'regheads predict'."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the model was trained and saved",
            "1:training failed (diverged or left an unusable model; nothing saved)",
            "2:bad input (file, data or option)",
            "3:unexpected failure or out of memory (more heap: REGHEADS_HEAP=8g)"})
final class TrainCommand implements Callable<Integer> {
    /** The head trained when neither --head nor a settings file names one. */
    static final String DEFAULT_HEAD = "mdn";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--data", required = true, paramLabel = "FILE", description = "CSV file with a header row and "
            + "numeric cells. Target: the last column, or --target; the other columns are the features.")
    Path data;

    @Option(names = "--target", paramLabel = "NAME", description = "Target column of --data (default: the last).")
    String target;

    @Option(names = "--delimiter", paramLabel = "CHAR", description = "Cell delimiter of --data: one character, or "
            + "'tab' (default: detected from the header line among comma, semicolon, tab and |).")
    String delimiter;

    @Option(names = "--target-transform", paramLabel = "NONE|ROBUST|LOG", description = "How y is scaled for the "
            + "head: NONE (min-max with the training min and max; default), ROBUST (bounds 3 IQR beyond the "
            + "quartiles, targets beyond them clipped), LOG (log1p(y - min): positive right-skewed targets, "
            + "predictions mapped back exactly). Saved with the model. NaN/infinite targets need NONE.")
    TargetTransform targetTransform;

    @Option(names = "--head", paramLabel = "NAME",
            description = "Head preset: pointwise, histogram, mdn, decoder, unnormalized-decoder, xval, repeat-decoder "
                    + "or hamming-decoder (its settings: -H), or auto: the one of --candidates with the best score on "
                    + "held-out rows (--select). Default: the head of --config, else " + DEFAULT_HEAD + ".")
    String head;

    @Option(names = "--candidates", paramLabel = "LIST", defaultValue = "pointwise,histogram,mdn",
            description = "With --head auto: the heads to choose among (default: ${DEFAULT-VALUE}).")
    String candidates;

    @Option(names = "--select", paramLabel = "NLL|CRPS", defaultValue = "NLL",
            description = "With --head auto: the held-out score the head is chosen by (default: ${DEFAULT-VALUE}).")
    ScoringRule select;

    @Mixin
    TrainingOptions training;

    @Option(names = "--save", required = true, paramLabel = "FILE", description = "Where to write the model.")
    Path save;

    @Option(names = "--quiet", description = "No training progress on stderr (warnings are still shown).")
    boolean quiet;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        training.check();
        HeadCatalog catalog = HeadCatalog.standard();
        String name = headName(head, training.fileHead(), catalog);
        Checks.require(!name.contains(","), "--head names one head, got '%s'", name);
        boolean auto = name.equals("auto");
        HeadOptions headOptions = training.headOptions(catalog);
        List<HeadCatalog.Preset> chosen = catalog.select(auto ? candidates : name, auto ? "--candidates" : "--head");
        headOptions.checkApplies(chosen);
        Checks.require(Files.isRegularFile(data), "--data: file not found: %s", data);
        TrainerConfig trainer = training.trainer(TrainerConfig.defaults().withMaxEpochs(CompareCommand.DEFAULT_EPOCHS)
                .withPatience(CompareCommand.DEFAULT_PATIENCE));
        TargetTransform transform = training.targetTransform(targetTransform);
        if (auto) {
            List<HeadSpec> specs = chosen.stream().map(p -> training.configured(p, headOptions, false).spec().get())
                    .toList();
            Dataset d = load();
            return trainAuto(d, specs, trainer, transform, o);
        }
        HeadCatalog.Preset preset = training.configured(chosen.get(0), headOptions, true);
        HeadSpec headSpec = preset.spec().get();
        Dataset d = load();
        long nonFinite = java.util.Arrays.stream(d.y()).filter(v -> !Double.isFinite(v)).count();
        if (nonFinite > 0) { // as compare: only a head with NaN/+-Inf tokens can learn them
            headSpec = headSpec.learningNonFinite();
            Checks.require(headSpec.representsNonFinite(), "--head %s cannot learn NaN or infinite targets (%s has %d); "
                    + "only a decoder with special tokens can (unnormalized-decoder)", preset.name(), data, nonFinite);
        }
        HeadRun.LossChoice lossChoice = HeadRun.chooseLoss(headSpec, training.loss(headSpec), d.features());
        ModelConfig config = training.model(headSpec, lossChoice.loss(), trainer, transform);
        RegressionModel m = RegressionModel.create(config, d.features());
        ProgressListener progress = CliProgress.of(quiet, spec.commandLine().getErr());
        TrainingResult r = m.fit(d, progress);
        if (r.failed()) { // not bad input: the same data may train with other settings; nothing is saved
            spec.commandLine().getErr().printf(Locale.ROOT, "regheads: %s on %s: FAILED (%s): %s%n", preset.name(),
                    data, r.stopReason(), r.message());
            spec.commandLine().getErr().flush();
            return Regheads.EXIT_HEAD_FAILED;
        }
        m.save(save);
        o.printf(Locale.ROOT, "trained %s (loss %s) on %s: %d rows, target '%s', features %s%n", preset.name(),
                lossChoice.loss(), data, d.rows(), d.targetName(), String.join(",", d.featureNames()));
        o.println("settings: " + String.join(", ", headSpec.settings().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList()) + "; " + training.describe(trainer));
        if (!lossChoice.note().isEmpty()) {
            o.println("note: " + lossChoice.note());
        }
        o.printf(Locale.ROOT, "%d epochs (%s), %.1f s; saved %s%n", r.epochsRun(),
                r.stopReason().name().toLowerCase(Locale.ROOT), r.wallTime().toNanos() * 1e-9, save);
        o.flush();
        return Regheads.EXIT_OK;
    }

    /**
     * The head to train: {@code --head}, else the preset of the settings file's head (its settings come from the
     * file), else {@value #DEFAULT_HEAD}.
     *
     * @throws IllegalArgumentException if the file names a head no preset makes
     */
    static String headName(String option, String fileHead, HeadCatalog catalog) {
        if (option != null) {
            return option.strip();
        }
        if (fileHead == null) {
            return DEFAULT_HEAD;
        }
        HeadCatalog.Preset p = catalog.presetOf(fileHead);
        Checks.require(p != null, "--config: head=%s: %s", fileHead,
                HeadCatalog.unknown(fileHead, List.copyOf(io.regheads.heads.model.HeadRegistry.names())));
        return p.name();
    }

    private Dataset load() {
        return InputData.check(CsvLoader.load(data, target, InputData.parseDelimiter(delimiter)),
                data.getFileName().toString());
    }

    /** {@code --head auto}: every candidate on the same rows, the best on held-out rows refitted and saved. */
    private int trainAuto(Dataset d, List<HeadSpec> specs, TrainerConfig trainer, TargetTransform transform,
            PrintWriter o) {
        ModelConfig base = training.model(specs.get(0), training.loss, trainer, transform);
        HeadSelection.Result r;
        try {
            r = HeadSelection.select(base, specs, d, select, true, CliProgress.of(quiet, spec.commandLine().getErr()));
        } catch (IllegalStateException e) { // every candidate failed: as a failed training, nothing is saved
            spec.commandLine().getErr().printf(Locale.ROOT, "regheads: auto on %s: FAILED: %s%n", data, e.getMessage());
            spec.commandLine().getErr().flush();
            return Regheads.EXIT_HEAD_FAILED;
        }
        r.model().save(save);
        o.println(r.summary());
        o.printf(Locale.ROOT, "trained %s (chosen by held-out %s) on %s: %d rows, target '%s', features %s; saved %s%n",
                r.chosen().name(), select, data, d.rows(), d.targetName(), String.join(",", d.featureNames()), save);
        o.flush();
        return Regheads.EXIT_OK;
    }
}
