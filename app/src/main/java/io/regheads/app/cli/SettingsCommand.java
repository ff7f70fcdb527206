package io.regheads.app.cli;

import io.regheads.core.data.TargetTransform;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code regheads settings}: prints model settings in the format {@code --config FILE} reads ({@link
 * ModelConfig#toProperties()}, one {@code key=value} per line): a saved model's ({@code --model m.rgh}), or what
 * {@code train} would use for a head ({@code --head NAME}, default mdn), each with the options given applied (the
 * same options as {@code train}: {@code -H}, trainer, encoder, loss, {@code --config}). So a model's settings are
 * reused with {@code regheads settings --model m.rgh > m.properties} and {@code regheads train --config m.properties
 * ...}, and a head's keys are listed by {@code regheads settings --head histogram}.
 *
 * <p>Example output ({@code --head histogram -H bins=32}): {@code encoder.layers=2}, {@code encoder.width=256},
 * {@code head=histogram}, {@code head.version=1}, {@code head.bins=32}, {@code head.tails=false}, {@code loss=ce},
 * {@code standardizeX=true}, {@code target.version=1}, {@code target.transform=NONE}, then {@code trainer.*}.
 *
 * <p>Not thread-safe (one instance per invocation, as picocli makes it).
 */
@Command(name = "settings", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Print model settings as --config reads them: a saved model's (--model) or a head preset's "
                + "(--head), with the options given applied."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the settings were printed", "2:bad input (model file or option)"})
final class SettingsCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", paramLabel = "FILE", description = "Model file written by 'regheads train --save'.")
    Path model;

    @Option(names = "--head", paramLabel = "NAME", description = "Head preset (without --model): pointwise, "
            + "histogram, mdn, decoder, unnormalized-decoder, xval, repeat-decoder or hamming-decoder. Default: the "
            + "head of --config, else " + TrainCommand.DEFAULT_HEAD + ".")
    String head;

    @Option(names = "--target-transform", paramLabel = "NONE|ROBUST|LOG", description = "The target transform "
            + "(as train's).")
    TargetTransform targetTransform;

    @Mixin
    TrainingOptions training;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        training.check();
        HeadCatalog catalog = HeadCatalog.standard();
        ModelConfig c;
        if (model != null) {
            Checks.require(head == null && training.config == null, "--model prints a saved model's settings; "
                    + "--head and --config choose other ones, got --model with %s", head != null ? "--head" : "--config");
            Checks.require(Files.isRegularFile(model), "--model: file not found: %s", model);
            ModelConfig saved = RegressionModel.load(model).config();
            HeadCatalog.Preset own = new HeadCatalog.Preset(saved.head().name(), "saved head", null, saved::head);
            HeadSpec spec = training.headOptions(catalog).apply(own, java.util.Map.of(), null, true);
            TrainerConfig trainer = training.trainer(saved.trainer());
            c = new ModelConfig(training.encoderLayers == null ? saved.encoderLayers() : training.encoderLayers(),
                    training.encoderWidth == null ? saved.encoderWidth() : training.encoderWidth(), spec,
                    training.loss != null ? training.loss : saved.loss(), trainer, saved.standardizeX(),
                    targetTransform != null ? targetTransform : saved.targetTransform());
        } else {
            String name = TrainCommand.headName(head, training.fileHead(), catalog);
            Checks.require(!name.equals("auto"), "--head auto chooses among heads when training; name one here");
            List<HeadCatalog.Preset> chosen = catalog.select(name, "--head");
            HeadOptions options = training.headOptions(catalog);
            options.checkApplies(chosen);
            HeadSpec spec = training.configured(chosen.get(0), options, true).spec().get();
            TrainerConfig trainer = training.trainer(TrainerConfig.defaults().withMaxEpochs(
                    CompareCommand.DEFAULT_EPOCHS).withPatience(CompareCommand.DEFAULT_PATIENCE));
            c = training.model(spec, training.loss(spec), trainer, training.targetTransform(targetTransform));
        }
        lines(c).forEach(o::println);
        o.flush();
        return Regheads.EXIT_OK;
    }

    /**
     * The settings as {@code key=value} lines in a fixed order: encoder, head ({@code head}, {@code head.version},
     * then the head's settings in its own order), loss, standardizeX, target, trainer; values escaped as {@link
     * Properties#load} reads them.
     */
    static List<String> lines(ModelConfig c) {
        Properties p = c.toProperties();
        List<String> keys = new ArrayList<>(List.of("encoder.layers", "encoder.width", HeadSpec.KEY,
                HeadSpec.PREFIX + "version"));
        c.head().settings().keySet().forEach(k -> keys.add(HeadSpec.PREFIX + k));
        keys.addAll(List.of("loss", "standardizeX", "target.version", "target.transform"));
        p.stringPropertyNames().stream().filter(k -> k.startsWith(TrainerConfig.PREFIX)).sorted().forEach(keys::add);
        p.stringPropertyNames().stream().filter(k -> !keys.contains(k)).sorted().forEach(keys::add);
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            String v = p.getProperty(k);
            if (v != null) {
                out.add(k + "=" + escape(v));
            }
        }
        return out;
    }

    /** A value as a properties file writes it: backslashes doubled, leading spaces and line breaks escaped. */
    private static String escape(String v) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            switch (ch) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case ' ' -> sb.append(i == 0 ? "\\ " : " ");
                default -> sb.append(ch);
            }
        }
        return sb.toString();
    }
}
