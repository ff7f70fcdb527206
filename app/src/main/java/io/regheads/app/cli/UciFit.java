package io.regheads.app.cli;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.Folds;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.head.Targets;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.nn.Arena;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The pure function behind {@code regheads uci}: one {@link UciTask} in, one {@link UciResult} out.
 *
 * <p>Protocol of one fit: the training rows of the fold (all other folds); x standardised and y min-max scaled with
 * their statistics; {@link RegressionModel} with the task's MLP encoder (2 x 256 by default), head and trainer, trained with
 * the task's loss (the head's default unless given); the trainer holds out {@code validationFraction} of the training rows for early stopping.
 * Then, with the kept weights, {@link #measure} on the test rows (all figures) and on those validation rows (the two
 * figures the selection compares).
 *
 * <p>A fit that throws (any runtime exception, or running out of memory or stack), diverges, or gives a non-finite
 * test figure comes back as a {@link UciResult#FAILED} result naming the data set, head, variant and fold; nothing
 * escapes, so a driver loop goes on with the next task.
 *
 * <p>Stateless; a call trains on the calling thread (ND4J), so run one task per thread.
 */
final class UciFit {
    /** Test y01 is clipped into [0, CLIP_HIGH] for the figures of bounded heads (as {@link HeadRun}). */
    static final double CLIP_HIGH = 1 - 1e-7;
    /** Rows per forward pass when computing token cross-entropies. */
    private static final int CHUNK = 1024;

    private UciFit() {}

    /**
     * The figures of a trained model on some rows.
     *
     * @param paper         per-token CE (the head's own, masked softmax) or density NLL of y01 - 0.5; see
     *                      {@link UciFigures}
     * @param paperUnmasked per-token CE with the softmax over the whole vocabulary (= paper for continuous heads)
     * @param fair          density NLL of clipped y01
     * @param positions     T for token heads, 0 for continuous heads
     * @param clipped       rows whose y01 was clipped
     * @param spikeRows     rows whose density of clipped y01 exceeds {@link UciFigures#SPIKE_DENSITY}
     * @param resolution  resolution NLL (NaN unless measured)
     * @param crps        CRPS of y01 (NaN unless measured)
     * @param rmse        RMSE of the point prediction in y01 units (NaN unless measured)
     */
    record Measured(double paper, double paperUnmasked, double fair, int positions, int clipped, int spikeRows,
            double resolution, double crps, double rmse) {}

    /**
     * Runs one task on {@code data} (whose name must be the task's data set).
     *
     * @param catalog where the task's head and variant are looked up
     * @return the result; {@link UciResult#FAILED} on any failure of the fit
     * @throws IllegalArgumentException only for a null argument or a data set of another name (a caller's error)
     */
    static UciResult run(UciTask task, InputData data, HeadCatalog catalog) {
        Checks.notNull("task", task);
        Checks.notNull("data", data);
        Checks.notNull("catalog", catalog);
        Checks.require(task.dataset().equals(data.label()), "task is for %s, data is %s", task.dataset(), data.label());
        long start = System.nanoTime();
        try {
            return fit(task, data, catalog, start);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            String msg = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            return UciResult.failed(task, msg.replace('\n', ' '), (System.nanoTime() - start) * 1e-9, load());
        }
    }

    private static UciResult fit(UciTask task, InputData data, HeadCatalog catalog, long start) {
        Folds.Split split = data.folds().split(data.data(), task.fold());
        Dataset train = split.train();
        Dataset test = split.test();
        Checks.require(test.rows() >= 2 && train.rows() >= 5, "fold %d of %s has %d training and %d test rows; at least "
                + "5 and 2 are needed", task.fold(), task.dataset(), train.rows(), test.rows());
        HeadSpec spec = catalog.variant(task.head(), task.variant()).spec().get();
        HeadRun.LossChoice loss = HeadRun.chooseLoss(spec, task.loss(), train.features());
        ModelConfig config = ModelConfig.defaults(spec).withLoss(loss.loss()).withTrainer(task.trainer())
                .withEncoder(task.encoderLayers(), task.encoderWidth());
        RegressionModel model = RegressionModel.create(config, train.features());
        TrainingResult tr = model.fit(train);
        double trainSeconds = tr.wallTime().toNanos() * 1e-9;
        if (tr.failed()) { // diverged, or left an unusable model
            return UciResult.failed(task, tr.stopReason() + ": " + tr.message().replace('\n', ' '), trainSeconds,
                    load());
        }
        long evalStart = System.nanoTime();
        // the rows the trainer validated on: its split depends only on the row count and the seed
        Dataset validation = new Trainer(task.trainer()).holdout(train).validation();
        double[] grid01 = UciFigures.distinctSorted(model.yScaler().transform(UciFigures.distinctSorted(train.y())));
        Measured t = measure(model, spec, test, grid01, true);
        Measured v = validation == null ? null : measure(model, spec, validation, grid01, false);
        double evalSeconds = (System.nanoTime() - evalStart) * 1e-9;
        String problem = !Double.isFinite(t.paper()) ? "test paper figure is " + t.paper()
                : !Double.isFinite(t.fair()) ? "test NLL is " + t.fair() : null;
        return new UciResult(task.dataset(), task.fold(), task.head(), task.variant(), task.lossLabel(),
                task.trainer().toString(),
                problem == null ? UciResult.OK : UciResult.FAILED, problem == null ? "" : problem, train.rows(),
                validation == null ? 0 : validation.rows(), test.rows(), UciFigures.distinctSorted(train.y()).length,
                t.positions(), t.paper(), t.paperUnmasked(), t.fair(), t.clipped(), t.spikeRows(), t.resolution(),
                t.crps(), t.rmse(), v == null ? Double.NaN : v.paper(), v == null ? Double.NaN : v.fair(),
                v == null ? Double.NaN : v.resolution(), tr.epochsRun(), tr.bestEpoch(),
                tr.stopReason().name(), trainSeconds, evalSeconds, load(), task.encoder());
    }

    /**
     * Measures a fitted model on {@code rows} (original units).
     *
     * @param grid01 ascending distinct training targets in y01 units (the resolution NLL's grid)
     * @param full   also CRPS and RMSE (else NaN)
     */
    static Measured measure(RegressionModel model, HeadSpec spec, Dataset rows, double[] grid01, boolean full) {
        double[][] x = rows.x();
        double[] y01 = model.yScaler().transform(rows.y());
        double[] y01c = new double[y01.length];
        int clipped = 0;
        for (int i = 0; i < y01.length; i++) {
            y01c[i] = Math.min(Math.max(y01[i], 0), CLIP_HIGH);
            clipped += y01c[i] != y01[i] ? 1 : 0;
        }
        PredictiveDistribution d = model.predictUnit(x);
        double[] logd = d.logDensity(y01c);
        double fair = UciFigures.meanNll(logd);
        int spikes = 0;
        for (double l : logd) {
            spikes += l > Math.log(UciFigures.SPIKE_DENSITY) ? 1 : 0;
        }
        double[] ce = tokenCe(model, spec, rows, y01c);
        double paper;
        double paperUnmasked;
        int positions;
        if (ce != null) {
            paper = ce[0];
            paperUnmasked = ce[1];
            positions = (int) ce[2];
        } else {
            paper = UciFigures.meanNll(d.logDensity(y01)); // = NLL of y01 - 0.5, unclipped
            paperUnmasked = paper;
            positions = 0;
        }
        double resolution = UciFigures.mean(UciFigures.resolutionNll(d, y01, grid01));
        if (!full) {
            return new Measured(paper, paperUnmasked, fair, positions, clipped, spikes, resolution, Double.NaN,
                    Double.NaN);
        }
        double crps = HeadRun.meanCrps(d, y01);
        double rmse = Math.sqrt(Metrics.mse(model.yScaler().transform(model.predictPoint(x)), y01));
        return new Measured(paper, paperUnmasked, fair, positions, clipped, spikes, resolution, crps, rmse);
    }

    /**
     * Mean per-token cross-entropies of clipped y01 on a token head (masked, unmasked) and T, or {@code null} when
     * the head's targets are not tokens (a continuous head).
     */
    private static double[] tokenCe(RegressionModel model, HeadSpec spec, Dataset rows, double[] y01c) {
        RegressionHead head = model.head();
        // the clipped targets in the head's own units (y01, y01 - 0.5, or y itself for a head on raw y)
        MinMaxScaler ys = model.yScaler();
        double[] yHead = new double[y01c.length];
        for (int i = 0; i < yHead.length; i++) {
            yHead[i] = switch (spec.targetScaling()) {
                case MIN_MAX -> y01c[i];
                case CENTRED_MIN_MAX -> y01c[i] - 0.5;
                case RAW -> ys.min() + y01c[i] * (ys.max() - ys.min());
            };
        }
        if (!(head.targets(Arrays.copyOf(yHead, 1)) instanceof Targets.Tokens)) {
            return null;
        }
        Dataset units = model.toHeadUnitsOf(rows); // x standardised
        double masked = 0;
        double unmasked = 0;
        int positions = 0;
        int n = rows.rows();
        for (int from = 0; from < n; from += CHUNK) {
            int count = Math.min(CHUNK, n - from);
            int[] order = new int[count];
            for (int i = 0; i < count; i++) {
                order[i] = from + i;
            }
            Dataset part = units.subset(order, 0, count);
            Targets.Tokens tokens = (Targets.Tokens) head.targets(Arrays.copyOfRange(yHead, from, from + count));
            INDArray phi = model.encoder().infer(part.featureMatrix(model.asTrainable().dataType()));
            HeadOutput out = head.forward(phi, tokens, Arena.create()).output();
            Checks.require(out instanceof TokenLogits, "a head with token targets must output TokenLogits, got %s",
                    out.getClass().getSimpleName());
            TokenLogits logits = (TokenLogits) out;
            positions = logits.positions();
            for (double e : UciFigures.tokenCrossEntropy(logits, tokens, false)) {
                unmasked += e;
            }
            for (double e : UciFigures.tokenCrossEntropy(logits, tokens, true)) {
                masked += e;
            }
        }
        return new double[] {masked / n, unmasked / n, positions};
    }

    /** The one-minute system load average, or -1 where the platform has none. */
    static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
