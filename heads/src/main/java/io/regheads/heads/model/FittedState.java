package io.regheads.heads.model;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.train.ProgressListener;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a fitted model knows of its training data besides its weights, saved with it: the x scaler, the target
 * pipeline, the training mean and population standard deviation of each feature (null when they overflow double;
 * {@link RegressionModel#outOfRange} compares new rows with them), the provenance of the fit (null if unknown),
 * the column names, the conformal intervals fitted after training (null if none) and the temperature of the
 * predictive distributions (1 unless calibrated). Also how a fit starts it ({@link #start}: the targets checked,
 * the scalers fitted) and the questions answered from it: rows in the head's units, out-of-range rows, the
 * conformal intervals. Immutable once made (the arrays are not handed out).
 */
record FittedState(StandardScaler xScaler, TargetPipeline target, double[] inputMean, double[] inputSd,
        ModelProvenance provenance, ColumnNames names, ConformalIntervals conformal, double temperature) {
    /** The model's logger: warnings about the training targets are the model's. */
    private static final Logger LOG = LoggerFactory.getLogger(RegressionModel.class);

    /**
     * The state a fit starts from: the targets {@code y} of {@code train} checked for the requested head ({@link
     * TargetPipeline#checkTargets}) and its target pipeline fitted on them ({@link TargetPipeline#fit}), the x scaler
     * fitted on {@code train} (the identity when {@link ModelConfig#standardizeX()} is off), the features' statistics
     * ({@link #statistics}) and the column names of {@code train}; no provenance, conformal intervals or temperature.
     *
     * @param progress receives each warning about the targets (one line), also logged through SLF4J (the model's
     *                 logger, WARN)
     * @throws IllegalArgumentException as {@link TargetPipeline#checkTargets} and {@link TargetPipeline#fit}
     */
    static FittedState start(Dataset train, double[] y, ModelConfig config, HeadSpec requested,
            ProgressListener progress) {
        TargetPipeline.checkTargets(y, requested, config.targetTransform());
        TargetPipeline target = TargetPipeline.fit(y, config.targetTransform(), requested,
                message -> warn(message, progress));
        StandardScaler xScaler = config.standardizeX() ? StandardScaler.fit(train) : identity(train.features());
        double[][] stats = statistics(train.x());
        return new FittedState(xScaler, target, stats[0], stats[1], null,
                ColumnNames.of(train.featureNames(), train.targetName(), train.features()), null, 1.0);
    }

    /** A warning for the user: logged through SLF4J (WARN) and given to the listener. */
    private static void warn(String message, ProgressListener progress) {
        LOG.warn(message);
        progress.onWarning(message);
    }

    private static StandardScaler identity(int features) {
        double[] mean = new double[features];
        double[] scale = new double[features];
        Arrays.fill(scale, 1.0);
        return StandardScaler.of(mean, scale);
    }

    /** {@code data} in the head's units: x standardised by the x scaler, y mapped by the target pipeline. */
    Dataset toHeadUnits(Dataset data) {
        return xScaler.transform(data).withY(target.toHead(data.y()));
    }

    /** This state with other feature statistics and provenance (after a training run made outside {@code fit}). */
    FittedState withTraining(double[] mean, double[] sd, ModelProvenance p) {
        return new FittedState(xScaler, target, mean, sd, p, names, conformal, temperature);
    }

    /** This state with the provenance of the fit. */
    FittedState withProvenance(ModelProvenance p) {
        return new FittedState(xScaler, target, inputMean, inputSd, p, names, conformal, temperature);
    }

    /** This state with conformal intervals. */
    FittedState withConformal(ConformalIntervals c) {
        return new FittedState(xScaler, target, inputMean, inputSd, provenance, names, c, temperature);
    }

    /** This state with a temperature (1: none). */
    FittedState withTemperature(double t) {
        return new FittedState(xScaler, target, inputMean, inputSd, provenance, names, conformal, t);
    }

    /**
     * The conformal intervals.
     *
     * @throws IllegalArgumentException if none are fitted
     */
    ConformalIntervals requireConformal() {
        Checks.require(conformal != null, "this model has no conformal intervals: calibrateIntervals(rows it did not "
                + "train on) first");
        return conformal;
    }

    /**
     * {@link OutOfRangeReport#of} for rows of x (checked) against the training statistics.
     *
     * @throws IllegalArgumentException if k is not > 0 and finite
     * @throws IllegalStateException    if there are no statistics (the training features' overflow double)
     */
    OutOfRangeReport outOfRange(double[][] x, double k) {
        Checks.positive("k", k);
        if (inputMean == null) {
            throw new IllegalStateException("this model has no training feature statistics (they overflow double): "
                    + "scale the features down and refit it to check inputs");
        }
        return OutOfRangeReport.of(x, inputMean, inputSd, k);
    }

    /**
     * Checks feature statistics handed in from outside a fit.
     *
     * @throws IllegalArgumentException on a null or wrong-length array, a non-finite mean or a negative or
     *                                  non-finite standard deviation (the message names the index)
     */
    static void checkStatistics(double[] mean, double[] sd, int width) {
        Checks.require(mean != null && mean.length == width, "featureMean must have %d values, got %s", width,
                mean == null ? "null" : Integer.toString(mean.length));
        Checks.require(sd != null && sd.length == width, "featureSd must have %d values, got %s", width,
                sd == null ? "null" : Integer.toString(sd.length));
        for (int j = 0; j < width; j++) {
            Checks.require(Double.isFinite(mean[j]), "featureMean[%d] must be finite, got %s", j, mean[j]);
            Checks.require(sd[j] >= 0 && Double.isFinite(sd[j]), "featureSd[%d] must be >= 0 and finite, got %s", j,
                    sd[j]);
        }
    }

    /**
     * Column means and population standard deviations of {@code x}, or null for both when they overflow double
     * (features near +-1.8e308).
     *
     * @return {@code {mean, sd}} or {@code {null, null}}
     */
    static double[][] statistics(double[][] x) {
        int d = x[0].length;
        double[] mean = new double[d];
        double[] sd = new double[d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                mean[j] += row[j];
            }
        }
        for (int j = 0; j < d; j++) {
            mean[j] /= x.length;
        }
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                double dev = row[j] - mean[j];
                sd[j] += dev * dev;
            }
        }
        boolean finite = true;
        for (int j = 0; j < d; j++) {
            sd[j] = Math.sqrt(sd[j] / x.length);
            finite &= Double.isFinite(mean[j]) && Double.isFinite(sd[j]);
        }
        return finite ? new double[][] {mean, sd} : new double[][] {null, null};
    }
}
