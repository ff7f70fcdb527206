package io.regheads.bench.cli;

import io.regheads.core.Checks;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.metrics.Calibration;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.nn.Arena;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.HeadSpec;
import io.regheads.heads.model.LossSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Trains one head preset on one split and measures it on the test rows.
 *
 * <p>Model: {@link RegressionModel} with an MLP encoder of 2 layers x 256 (x standardised on the training rows, y
 * min-max scaled by the training min and max). Metrics on the test rows:
 * <ul>
 *   <li>{@code nll01}: mean negative log density of {@code y01 = (y - min_train) / (max_train - min_train)}, with
 *       y01 clipped into [0, 1 - 1e-7] first (as the PyTorch peer does) so that test targets outside the training
 *       range do not give an infinite NLL for the bounded histogram head; {@code clipped} counts those rows;</li>
 *   <li>{@code rmse}: root mean squared error of the predictive mean, original units;</li>
 *   <li>{@code kendallTau}: Kendall's tau-b between predictive mean and y (NaN if either is constant);</li>
 *   <li>{@code crps}: mean CRPS in original units from {@link #CRPS_SAMPLES} samples per row (seeded);</li>
 *   <li>{@code coverage90}: share of test rows inside the central 90% interval (5% and 95% quantiles).</li>
 * </ul>
 *
 * <p>Stateless; each call builds and trains a fresh model (not thread-safe: ND4J models are trained on the
 * calling thread).
 */
public final class HeadRun {
    /** Samples per test row for the CRPS estimate. */
    public static final int CRPS_SAMPLES = 200;
    /** Bins of the PIT histogram. */
    public static final int PIT_BINS = 10;
    private static final double CLIP_HIGH = 1 - 1e-7;

    private HeadRun() {}

    /**
     * The figures of one trained head on one fold, and the per-row values the plots draw.
     *
     * @param head         preset name
     * @param loss         loss expression used for training
     * @param lossNote     why the loss differs from the one asked for, or empty
     * @param fold         test fold
     * @param trainRows    training rows (including the 10% validation share used for early stopping)
     * @param testRows     test rows
     * @param nll01        test NLL of y01 (see the class description)
     * @param clipped      test rows whose y01 fell outside [0, 1 - 1e-7] and were clipped for the NLL
     * @param rmse         test RMSE of the mean, original units
     * @param kendallTau   Kendall tau-b of mean vs y
     * @param crps         mean CRPS, original units
     * @param coverage90   central 90% interval coverage
     * @param trainSeconds wall time of {@code fit}
     * @param epochs       epochs run
     * @param stopReason   why training stopped
     * @param y            test targets, original units
     * @param mean         predictive means
     * @param lower        5% quantiles
     * @param upper        95% quantiles
     * @param pit          PIT values F(y)
     * @param model        the trained model (for further predictions, e.g. on a grid)
     */
    public record Result(String head, String loss, String lossNote, int fold, int trainRows, int testRows, double nll01,
            int clipped, double rmse, double kendallTau, double crps, double coverage90, double trainSeconds, int epochs,
            String stopReason, double[] y, double[] mean, double[] lower, double[] upper, double[] pit,
            RegressionModel model) {

        /** PIT histogram over {@link #PIT_BINS} equal bins. */
        public int[] pitHistogram() {
            return Calibration.pitHistogram(pit, PIT_BINS);
        }
    }

    private static boolean isConstant(double[] v) {
        for (double e : v) {
            if (e != v[0]) {
                return false;
            }
        }
        return true;
    }

    /** The loss a head trains with, and a note if it is not the one asked for. */
    record LossChoice(String loss, String note) {}

    /**
     * The loss for {@code spec}: {@code requested} if the head's output can take it, else the head's default.
     * {@code null} requests the default. Whether a loss applies is found by evaluating it once on a two-row batch
     * of a fresh model, so new head kinds need no table here. (The three current heads take every loss of
     * {@code LossSpec}: on a pointwise output ce is the squared error and ntl-was the absolute error; the fallback is
     * for heads whose output a loss rejects.)
     *
     * @throws IllegalArgumentException if {@code requested} is not a valid loss expression
     */
    static LossChoice chooseLoss(HeadSpec spec, String requested, int features) {
        String fallback = spec.defaultLoss();
        if (requested == null || requested.isBlank() || requested.equals(fallback)) {
            return new LossChoice(fallback, "");
        }
        checkLoss(requested);
        ModelConfig probe = new ModelConfig(2, 8, spec, requested, TrainerConfig.defaults());
        RegressionModel m = RegressionModel.create(probe, features);
        double[][] x = new double[2][features];
        x[1][0] = 1;
        double c = spec.centre();
        try {
            m.asTrainable().evaluate(Nd4j.createFromArray(x).castTo(DataType.FLOAT), new double[] {0.25 - c, 0.75 - c},
                    Arena.create());
            return new LossChoice(requested, "");
        } catch (IllegalArgumentException e) {
            return new LossChoice(fallback, requested + " does not apply to " + spec.name() + "; used " + fallback);
        }
    }

    /**
     * Parses {@code loss} (if not {@code null}) so that a typo fails before any output or training.
     *
     * @throws IllegalArgumentException naming {@code --loss} if the expression is invalid
     */
    static void checkLoss(String loss) {
        if (loss == null || loss.isBlank()) {
            return;
        }
        try {
            LossSpec.parse(loss);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--loss: " + e.getMessage(), e);
        }
    }

    /**
     * Trains {@code preset} on split {@code fold} of {@code input} and evaluates it.
     *
     * @param requestedLoss loss expression or {@code null} for the head's default (see {@link #chooseLoss})
     * @param trainer       trainer settings (seed, epochs, learning rate, early stopping)
     * @param progress      training progress sink
     * @throws IllegalArgumentException if the fold is out of range or the training or test fold is too small
     */
    public static Result run(HeadCatalog.Preset preset, String requestedLoss, TrainerConfig trainer, InputData input,
            int fold, ProgressListener progress) {
        Checks.notNull("preset", preset);
        Checks.notNull("trainer", trainer);
        Checks.notNull("input", input);
        Folds.Split split = input.folds().split(input.data(), fold);
        Dataset train = split.train();
        Dataset test = split.test();
        Checks.require(test.rows() >= 2, "fold %d of %s has %d test rows; at least 2 are needed", fold, input.label(),
                test.rows());
        Checks.require(train.rows() >= 5, "fold %d of %s leaves %d training rows; at least 5 are needed", fold,
                input.label(), train.rows());
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : train.y()) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        Checks.require(hi > lo, "fold %d of %s: the training target is constant (%s)", fold, input.label(), lo);
        HeadSpec spec = preset.spec().get();
        LossChoice loss = chooseLoss(spec, requestedLoss, train.features());
        ModelConfig config = ModelConfig.defaults(spec).withLoss(loss.loss()).withTrainer(trainer);
        RegressionModel model = RegressionModel.create(config, train.features());
        TrainingResult tr = model.fit(train, progress);
        Checks.require(!tr.diverged(), "%s on fold %d of %s: %s", preset.name(), fold, input.label(), tr.message());

        double[][] x = test.x();
        double[] y = test.y();
        MinMaxScaler ys = model.yScaler();
        double[] y01 = ys.transform(y);
        int clipped = 0;
        for (int i = 0; i < y01.length; i++) {
            double c = Math.min(Math.max(y01[i], 0), CLIP_HIGH);
            if (c != y01[i]) {
                clipped++;
                y01[i] = c;
            }
        }
        double nll01 = Metrics.meanNll(model.predictUnit(x).logDensity(y01));
        PredictiveDistribution d = model.predict(x);
        double[] mean = d.mean();
        double rmse = Math.sqrt(Metrics.mse(mean, y));
        // tau is undefined (NaN, null in JSON) when the predicted means or the test targets are all equal
        double tau = isConstant(mean) || isConstant(y) ? Double.NaN : Metrics.kendallTau(mean, y);
        double[][] samples = d.sample(RandomSource.XO_RO_SHI_RO_128_PP.create(trainer.seed() + 7919L * (fold + 1)),
                CRPS_SAMPLES);
        double crps = Metrics.meanCrps(samples, y);
        double[] lower = d.inverseCumulativeProbability(0.05);
        double[] upper = d.inverseCumulativeProbability(0.95);
        double coverage = Calibration.coverage(lower, upper, y);
        double[] pit = Calibration.pit(d, y);
        return new Result(preset.name(), loss.loss(), loss.note(), fold, train.rows(), test.rows(), nll01, clipped, rmse,
                tau, crps, coverage, tr.wallTime().toNanos() * 1e-9, tr.epochsRun(), tr.stopReason().name(), y, mean,
                lower, upper, pit, model);
    }
}
