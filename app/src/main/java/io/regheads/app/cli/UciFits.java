package io.regheads.app.cli;

import io.regheads.app.grid.TaskRunner;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import java.io.Serializable;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fits of {@code regheads uci} as tasks for a {@link TaskRunner}: {@link Fit} is a {@link UciTask} in
 * serializable form, {@link Function} the serializable function that runs it ({@link UciFit#run}) and gives its
 * {@link UciResult}. The function carries the data sets (as plain arrays), so a runner can ship it to other JVMs
 * once; heads are looked up by name in {@link HeadCatalog#standard()} where the fit runs. A failed fit comes back
 * as a {@link UciResult#FAILED} result (see {@link UciFit#run}), never as an exception, so one bad fit does not stop
 * the others on any runner.
 */
final class UciFits {
    private UciFits() {}

    /** A {@link UciTask} as plain values (the library's {@link TrainerConfig} is not serializable). */
    record Fit(String dataset, int fold, String head, String variant, String loss, Settings trainer,
            int encoderLayers, int encoderWidth) implements Serializable {
        private static final long serialVersionUID = 3L;

        static Fit of(UciTask t) {
            return new Fit(t.dataset(), t.fold(), t.head(), t.variant(), t.loss(), Settings.of(t.trainer()),
                    t.encoderLayers(), t.encoderWidth());
        }

        UciTask task() {
            return new UciTask(dataset, fold, head, variant, loss, trainer.toConfig(), encoderLayers, encoderWidth);
        }
    }

    /** Runs one {@link Fit}; holds the data sets the fits name. */
    static final class Function implements TaskRunner.Task<Fit, UciResult> {
        private static final long serialVersionUID = 2L;

        private final Map<String, Input> inputs = new LinkedHashMap<>();

        /** @param inputs the data sets, each under its label */
        Function(List<InputData> inputs) {
            Checks.notNull("inputs", inputs);
            for (InputData d : inputs) {
                this.inputs.put(d.label(), Input.of(d));
            }
        }

        /**
         * @throws IllegalArgumentException if the fit names a data set this function does not hold
         */
        @Override
        public UciResult apply(Fit fit) {
            Input in = inputs.get(fit.dataset());
            Checks.require(in != null, "fit is for data set %s, the task holds %s", fit.dataset(), inputs.keySet());
            return UciFit.run(fit.task(), in.toInputData(), HeadCatalog.standard());
        }
    }

    /** An {@link InputData} as plain arrays (the library's data classes are not serializable). */
    private record Input(String label, double[][] x, double[] y, String[] names, String target, int[] folds,
            String splitSource) implements Serializable {
        private static final long serialVersionUID = 1L;

        static Input of(InputData d) {
            int[] folds = new int[d.folds().rows()];
            Arrays.setAll(folds, d.folds()::foldOf);
            return new Input(d.label(), d.data().x(), d.data().y(), d.data().featureNames().toArray(String[]::new),
                    d.data().targetName(), folds, d.splitSource());
        }

        InputData toInputData() {
            return new InputData(label, Dataset.of(x, y, List.of(names), target), Folds.of(folds), splitSource);
        }
    }

    /** A {@link TrainerConfig} as plain values. */
    record Settings(long seed, int batchSize, int maxEpochs, double learningRate, double weightDecay,
            double clipNorm, double validationFraction, int patience) implements Serializable {
        private static final long serialVersionUID = 1L;

        static Settings of(TrainerConfig t) {
            return new Settings(t.seed(), t.batchSize(), t.maxEpochs(), t.learningRate(), t.weightDecay(), t.clipNorm(),
                    t.validationFraction(), t.patience());
        }

        TrainerConfig toConfig() {
            return new TrainerConfig(seed, batchSize, maxEpochs, learningRate, weightDecay, clipNorm, validationFraction,
                    patience);
        }
    }
}
