package io.regheads.app.cli;

import io.regheads.app.grid.TaskRunner;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * The fits of {@code regheads uci} as independent tasks for a {@link TaskRunner}: one {@link Fit} per dataset, head
 * and fold, the serializable {@link Function} that trains and measures one of them with {@link HeadRun#run}, and
 * its {@link Result}. The function carries the data sets and settings (so a runner can ship it to other JVMs once);
 * heads are looked up by name in {@link HeadCatalog#standard()} where the fit runs.
 */
final class UciFits {
    private UciFits() {}

    /** One fit: dataset (index into the function's inputs), head preset name, test fold. */
    record Fit(int dataset, String head, int fold) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * What {@code uci} reports of one fit (see {@link HeadRun.Result} for the meaning of each figure). A fit whose
     * training failed ({@link HeadRun.FailedRun}) has {@code failed} set, its stop reason and the trainer's message,
     * and NaN figures.
     */
    record Result(String dataset, String head, String loss, int fold, double nll01, int clipped, double rmse,
            double crps, double coverage90, int epochs, double trainSeconds, boolean failed, String stopReason,
            String message) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** Trains and measures one {@link Fit}; holds every data set and the settings. */
    static final class Function implements TaskRunner.Task<Fit, Result> {
        private static final long serialVersionUID = 1L;

        private final Input[] inputs;
        private final Settings trainer;
        private final String loss;

        Function(List<InputData> inputs, TrainerConfig trainer, String loss) {
            this.inputs = inputs.stream().map(Input::of).toArray(Input[]::new);
            this.trainer = Settings.of(trainer);
            this.loss = loss;
        }

        @Override
        public Result apply(Fit fit) {
            HeadCatalog.Preset preset = HeadCatalog.standard().select(fit.head()).get(0);
            InputData in = inputs[fit.dataset()].toInputData();
            HeadRun.Result r;
            try {
                r = HeadRun.run(preset, loss, trainer.toConfig(), in, fit.fold(), ProgressListener.none());
            } catch (HeadRun.FailedRun f) { // recorded as this fit's failure; the run goes on
                return new Result(in.label(), preset.name(), f.loss, f.fold, Double.NaN, 0, Double.NaN, Double.NaN,
                        Double.NaN, f.result.epochsRun(), f.result.wallTime().toNanos() * 1e-9, true, f.stopReason(),
                        f.reason());
            }
            return new Result(in.label(), preset.name(), r.loss(), r.fold(), r.nll01(), r.clipped(), r.rmse(), r.crps(),
                    r.coverage90(), r.epochs(), r.trainSeconds(), false, null, null);
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
    private record Settings(long seed, int batchSize, int maxEpochs, double learningRate, double weightDecay,
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
