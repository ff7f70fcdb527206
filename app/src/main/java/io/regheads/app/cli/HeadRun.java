package io.regheads.app.cli;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Calibration;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.nn.Arena;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.LossSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.OutOfRangeReport;
import io.regheads.heads.model.RegressionModel;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Trains one head preset on one split and measures it on the test rows.
 *
 * <p>Model: {@link RegressionModel} with an MLP encoder ({@link Setup}: 2 layers x 256 unless told otherwise; x
 * standardised on the training rows, y scaled by the training min and max). Metrics on the test rows:
 * <ul>
 *   <li>{@code nll}: mean negative log density of the test y in its own units ({@link
 *       PredictiveDistribution#logDensity} of {@link RegressionModel#predict}, nothing clipped): {@code +Infinity}
 *       when some y has zero density, as a head without tails gives a y outside the training range ({@code
 *       zeroDensity} counts those rows);</li>
 *   <li>{@code validationNll}: the same NLL on the rows the trainer held out for early stopping ({@link
 *       Trainer#holdout}, the split {@link RegressionModel#fit} uses; {@link RegressionModel#evaluate}), NaN when
 *       there are none: the figure a choice among heads may use without looking at the test rows;</li>
 *   <li>{@code rmse}: root mean squared error of the head's point prediction ({@link RegressionModel#predictPoint}: the predictive
 *       mean; for the unnormalized decoder AUTO, the certified mean, else the tree-walk median; or {@code --point}),
 *       original units;</li>
 *   <li>{@code kendallTau}: Kendall's tau-b between the point prediction and y (NaN if either is constant);</li>
 *   <li>{@code crps}: mean CRPS in original units ({@link PredictiveDistribution#crps}: exact for the Gaussian
 *       heads, else a grid of 100 quantiles per row; deterministic, and robust to the rare huge values an
 *       unnormalized decoder can draw, which made a 200-sample estimate useless for it);</li>
 *   <li>{@code coverage90}: share of test rows inside the central 90% interval (5% and 95% quantiles);</li>
 *   <li>{@code width90}: mean width of that interval (95% minus 5% quantile), original units.</li>
 * </ul>
 *
 * <p>Stateless; each call builds and trains a fresh model (not thread-safe: ND4J models are trained on the
 * calling thread).
 */
public final class HeadRun {
    /** Bins of the PIT histogram. */
    public static final int PIT_BINS = 10;
    /** Test rows with an input further than this many training standard deviations from its mean are named. */
    static final double OUT_OF_RANGE_SDS = 10;

    private HeadRun() {}

    /**
     * What a run needs besides the head: the MLP encoder's hidden layers and width, whether x is standardised, the
     * trainer settings and the target transform.
     *
     * @param encoderLayers   2..5
     * @param encoderWidth    1..2048
     * @param standardizeX    standardise x on the training rows
     * @param trainer         trainer settings (seed, epochs, learning rate, early stopping)
     * @param targetTransform how y is scaled for the head
     */
    public record Setup(int encoderLayers, int encoderWidth, boolean standardizeX, TrainerConfig trainer,
            TargetTransform targetTransform) {
        /** @throws IllegalArgumentException on a null trainer or transform */
        public Setup {
            Checks.notNull("trainer", trainer);
            Checks.notNull("targetTransform", targetTransform);
        }

        /** The default encoder (2 x 256, x standardised) with these trainer settings and transform. */
        public static Setup of(TrainerConfig trainer, TargetTransform targetTransform) {
            return new Setup(TrainingOptions.DEFAULT_LAYERS, TrainingOptions.DEFAULT_WIDTH, true, trainer,
                    targetTransform);
        }

        /** The model settings for {@code spec} and {@code loss}. */
        ModelConfig model(HeadSpec spec, String loss) {
            return new ModelConfig(encoderLayers, encoderWidth, spec, loss, trainer, standardizeX, targetTransform);
        }
    }

    /**
     * The figures of one trained head on one fold, and the per-row values the plots draw.
     *
     * @param head         preset name
     * @param loss         loss expression used for training
     * @param lossNote     why the loss differs from the one asked for, or empty
     * @param fold         test fold
     * @param trainRows    training rows (including the 10% validation share used for early stopping)
     * @param testRows     test rows
     * @param nll          test NLL of y in its own units (see the class description; +Infinity if some y has zero
     *                     density)
     * @param zeroDensity  test rows whose y has zero density (each makes the NLL infinite)
     * @param validationNll NLL of y on the validation rows the trainer held out, NaN if none
     * @param rmse         test RMSE of the point prediction, original units
     * @param kendallTau   Kendall tau-b of the point prediction vs y
     * @param crps         mean CRPS, original units
     * @param coverage90   central 90% interval coverage
     * @param trainSeconds wall time of {@code fit}
     * @param epochs       epochs run
     * @param stopReason   why training stopped
     * @param y            test targets, original units
     * @param pointName    which point prediction {@code point} holds ({@code PointEstimate.label()}: "mean",
     *                     "auto", "sample-mean", ...)
     * @param point        point predictions ({@link RegressionModel#predictPoint})
     * @param lower        5% quantiles
     * @param upper        95% quantiles
     * @param pit          PIT values F(y)
     * @param model        the trained model (for further predictions, e.g. on a grid)
     * @param pointNote    why the point decoding differs from the one asked for, or empty
     * @param nonFinite    test rows whose target is NaN or +-Infinity (left out of every metric above, which
     *                     describe the finite rows; {@code y}, {@code point} and the other arrays hold those rows)
     * @param nllNonFinite mean of {@code -log P(y)} over those rows (P(NaN), P(+Inf), P(-Inf) of a head with special
     *                     tokens), NaN if there are none
     */
    public record Result(String head, String loss, String lossNote, int fold, int trainRows, int testRows, double nll,
            int zeroDensity, double validationNll, double rmse, double kendallTau, double crps, double coverage90, double trainSeconds, int epochs,
            String stopReason, double[] y, String pointName, double[] point, double[] lower, double[] upper, double[] pit,
            RegressionModel model, String pointNote, int nonFinite, double nllNonFinite) {

        /** Mean width of the central 90% interval, {@code mean(upper - lower)}, original units. */
        public double width90() {
            double s = 0;
            for (int i = 0; i < lower.length; i++) {
                s += upper[i] - lower[i];
            }
            return s / lower.length;
        }

        /** PIT histogram over {@link #PIT_BINS} equal bins. */
        public int[] pitHistogram() {
            return Calibration.pitHistogram(pit, PIT_BINS);
        }
    }

    /**
     * A head that did not train on a fold: training diverged or left an unusable model ({@link
     * TrainingResult#failed()}). The commands print it as a failed row and go on with the other heads; their exit
     * code is then {@link Regheads#EXIT_HEAD_FAILED}. Not bad input: the same data may train with other settings.
     */
    static final class FailedRun extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String head;
        final String loss;
        final int fold;
        final transient TrainingResult result;

        FailedRun(String head, String loss, int fold, String label, TrainingResult result) {
            super(head + " on fold " + fold + " of " + label + ": " + result.message());
            this.head = head;
            this.loss = loss;
            this.fold = fold;
            this.result = result;
        }

        /** DIVERGED or FAILED. */
        String stopReason() {
            return result.stopReason().name();
        }

        /** The trainer's one-line account (what, where, what to try). */
        String reason() {
            return result.message();
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
        double[] y = {spec.targetScaling().fromUnit(0.25, 0, 1), spec.targetScaling().fromUnit(0.75, 0, 1)};
        try {
            m.asTrainable().evaluate(Nd4j.createFromArray(x).castTo(DataType.FLOAT), y, Arena.create());
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
     * Trains {@code preset} on split {@code fold} of {@code input} and evaluates it, each head reporting its own
     * point estimate.
     *
     * @param requestedLoss loss expression or {@code null} for the head's default (see {@link #chooseLoss})
     * @param trainer       trainer settings (seed, epochs, learning rate, early stopping)
     * @param progress      training progress sink
     * @throws IllegalArgumentException if the fold is out of range or the training or test fold is too small
     * @throws FailedRun                if training diverged or left an unusable model
     */
    public static Result run(HeadCatalog.Preset preset, String requestedLoss, TrainerConfig trainer, InputData input,
            int fold, ProgressListener progress) {
        return run(preset, requestedLoss, Setup.of(trainer, TargetTransform.NONE), input, fold, progress, null);
    }

    /**
     * As {@link #run(HeadCatalog.Preset, String, TrainerConfig, InputData, int, ProgressListener)} with a target
     * transform ({@link ModelConfig#targetTransform()}). Test rows with an input more than {@value #OUT_OF_RANGE_SDS}
     * training standard deviations from its training mean are named in a warning to {@code progress}.
     */
    public static Result run(HeadCatalog.Preset preset, String requestedLoss, TrainerConfig trainer,
            TargetTransform target, InputData input, int fold, ProgressListener progress) {
        return run(preset, requestedLoss, Setup.of(trainer, target), input, fold, progress, null);
    }

    /**
     * As {@link #run(HeadCatalog.Preset, String, TrainerConfig, InputData, int, ProgressListener)} with the encoder,
     * trainer and target transform of {@code setup} and the point decoding of {@code decoding} ({@code null}: the
     * model's own estimate, {@link RegressionModel#pointEstimate()}). Targets that are NaN or +-Infinity train a head
     * that can learn them with its special tokens ({@code HeadSpec.learningNonFinite()}) under the NONE transform; the
     * metrics describe the finite test rows, and {@code nllNonFinite} the others.
     *
     * @throws IllegalArgumentException if the fold is out of range, the training or test fold is too small, or the
     *                                  targets hold NaN or +-Infinity and the head cannot learn them (or the
     *                                  transform is not NONE)
     * @throws FailedRun                if training diverged or left an unusable model
     */
    public static Result run(HeadCatalog.Preset preset, String requestedLoss, Setup setup, InputData input, int fold,
            ProgressListener progress, DecodingOptions decoding) {
        Checks.notNull("setup", setup);
        Checks.notNull("preset", preset);
        Checks.notNull("input", input);
        TrainerConfig trainer = setup.trainer();
        Folds.Split split = input.folds().split(input.data(), fold);
        Dataset train = split.train();
        Dataset test = split.test();
        int[] finiteTest = finiteRows(test.y());
        Checks.require(finiteTest.length >= 2, "fold %d of %s has %d test rows with a finite target; at least 2 are "
                + "needed", fold, input.label(), finiteTest.length);
        Checks.require(train.rows() >= 5, "fold %d of %s leaves %d training rows; at least 5 are needed", fold,
                input.label(), train.rows());
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : train.y()) {
            if (Double.isFinite(v)) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        Checks.require(hi > lo, "fold %d of %s: the training target is constant (%s)", fold, input.label(), lo);
        HeadSpec spec = preset.spec().get();
        if (finiteRows(input.data().y()).length < input.data().rows()) {
            spec = spec.learningNonFinite();
            Checks.require(spec.representsNonFinite(), "%s cannot learn NaN or infinite targets (%s has %d); only a "
                    + "decoder with special tokens can (the unnormalized decoder)", preset.name(), input.label(),
                    input.data().rows() - finiteRows(input.data().y()).length);
        }
        LossChoice loss = chooseLoss(spec, requestedLoss, train.features());
        ModelConfig config = setup.model(spec, loss.loss());
        RegressionModel model = RegressionModel.create(config, train.features());
        TrainingResult tr = model.fit(train, progress);
        if (tr.failed()) {
            throw new FailedRun(preset.name(), loss.loss(), fold, input.label(), tr);
        }

        double[][] allX = test.x();
        double[] allY = test.y();
        int[] special = nonFiniteRows(allY);
        double nllSpecial = Double.NaN;
        if (special.length > 0) {
            double[] ll = model.logLikelihood(rows(allX, special), values(allY, special));
            nllSpecial = Metrics.meanNll(ll);
        }
        double[][] x = rows(allX, finiteTest);
        double[] y = values(allY, finiteTest);
        OutOfRangeReport far = model.outOfRange(allX, OUT_OF_RANGE_SDS);
        if (!far.isEmpty()) {
            progress.onWarning("fold " + fold + " of " + input.label() + ": "
                    + far.message(input.data().featureNames().toArray(new String[0]), 3));
        }
        PredictiveDistribution d = model.predict(x);
        double[] logd = d.logDensity(y);
        int zero = (int) java.util.Arrays.stream(logd).filter(l -> l == Double.NEGATIVE_INFINITY).count();
        double nll = Metrics.meanNll(logd);
        double validationNll = validationNll(model, config.trainer(), train);
        boolean tokens = model.head().generatesTokens();
        Decoding dec = decoding == null ? Decoding.of(model.pointEstimate())
                : decoding.decoding(model.pointEstimate(), trainer.seed(), tokens);
        String pointNote = decoding == null ? "" : decoding.note(preset.name(), tokens);
        double[] point = model.predictPoint(x, test.featureNames(), dec);
        double rmse = Math.sqrt(Metrics.mse(point, y));
        // tau is undefined (NaN, null in JSON) when the point predictions or the test targets are all equal
        double tau = isConstant(point) || isConstant(y) ? Double.NaN : Metrics.kendallTau(point, y);
        double crps = meanCrps(d, y);
        double[] lower = d.inverseCumulativeProbability(0.05);
        double[] upper = d.inverseCumulativeProbability(0.95);
        double coverage = Calibration.coverage(lower, upper, y);
        double[] pit = Calibration.pit(d, y);
        return new Result(preset.name(), loss.loss(), loss.note(), fold, train.rows(), test.rows(), nll, zero,
                validationNll, rmse,
                tau, crps, coverage, tr.wallTime().toNanos() * 1e-9, tr.epochsRun(), tr.stopReason().name(), y,
                dec.point().label(), point, lower, upper, pit, model, pointNote, special.length, nllSpecial);
    }

    /**
     * The NLL of y on the rows the trainer held out for early stopping (the split {@link RegressionModel#fit} made:
     * it depends only on the row count and the seed), those with a finite target; NaN when there are none.
     */
    static double validationNll(RegressionModel model, TrainerConfig trainer, Dataset train) {
        Dataset v = new Trainer(trainer, ProgressListener.none()).holdout(train).validation();
        if (v == null) {
            return Double.NaN;
        }
        int[] finite = finiteRows(v.y());
        return finite.length == 0 ? Double.NaN : model.evaluate(v.subset(finite, 0, finite.length)).nll();
    }

    /** The mean of {@link PredictiveDistribution#crps} over the rows. */
    static double meanCrps(PredictiveDistribution d, double[] y) {
        double sum = 0;
        for (double c : d.crps(y)) {
            sum += c;
        }
        return sum / y.length;
    }

    private static int[] finiteRows(double[] y) {
        return java.util.stream.IntStream.range(0, y.length).filter(i -> Double.isFinite(y[i])).toArray();
    }

    private static int[] nonFiniteRows(double[] y) {
        return java.util.stream.IntStream.range(0, y.length).filter(i -> !Double.isFinite(y[i])).toArray();
    }

    private static double[][] rows(double[][] x, int[] idx) {
        double[][] out = new double[idx.length][];
        for (int i = 0; i < idx.length; i++) {
            out[i] = x[idx[i]];
        }
        return out;
    }

    private static double[] values(double[] y, int[] idx) {
        double[] out = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = y[idx[i]];
        }
        return out;
    }
}
