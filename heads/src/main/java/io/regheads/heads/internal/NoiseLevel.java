package io.regheads.heads.internal;

import io.regheads.core.check.Checks;
import io.regheads.heads.mixture.MixtureDistribution;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * The noise level s of a head trained for a point prediction (pointwise, xVal without a learned variance), which
 * reports {@code N(prediction, s^2)} per row: the one place its after-fit estimate, its saved state and its
 * distribution are computed. A point loss does not learn s; the after-fit step ({@link #fit}) sets it to the root
 * mean squared residual on held-out rows, {@code s = sqrt(max(mean((pred - y)^2), 1e-12))}, as the PyTorch
 * reference implementation does, so the head has an NLL comparable with the others'. Example: residuals 0.6 and
 * -0.8 give {@code s = sqrt((0.36 + 0.64) / 2) = 0.7071}. Before any fit s is 1.
 *
 * <p>Internal. Thread safety: s is read and written atomically (volatile); it changes only in training and
 * calibration.
 */
public final class NoiseLevel {
    /** The name of the saved noise level in a head's state: {@code noiseStd}. */
    public static final String STATE_KEY = "noiseStd";
    /** Smallest mean square that {@link #fromMeanSquare} takes, so that s stays > 0 for a perfect fit. */
    static final double MIN_MEAN_SQUARE = 1e-12;

    private volatile double std = 1.0;

    /** {@return s, the reported standard deviation} */
    public double std() {
        return std;
    }

    /**
     * Sets s.
     *
     * @throws IllegalArgumentException unless std is finite and > 0 (the message names {@code noiseStd})
     */
    public void set(double std) {
        this.std = Checks.positive(STATE_KEY, std);
    }

    /**
     * The after-fit step: {@code s = fromMeanSquare(squaredResiduals(pred, y) / B)}.
     *
     * @param pred {@code [B]} point predictions for held-out rows, B >= 1
     * @param y    {@code [B]} their labels in head units
     * @throws IllegalArgumentException if y is null, not of length B or has a non-finite value
     */
    public void fit(double[] pred, double[] y) {
        Checks.rowValues("y", y, pred.length);
        Checks.allFinite("y", y);
        set(fromMeanSquare(squaredResiduals(pred, y) / pred.length));
    }

    /**
     * {@code sum_i (pred_i - y_i)^2}, added in index order (so partial sums over parts of the rows, added up, are
     * what a data-parallel trainer divides by the row count).
     *
     * @param pred {@code [B]}
     * @param y    {@code [B]} or longer (its first B entries)
     */
    public static double squaredResiduals(double[] pred, double[] y) {
        double s = 0;
        for (int i = 0; i < pred.length; i++) {
            double r = pred[i] - y[i];
            s += r * r;
        }
        return s;
    }

    /** {@return {@code sqrt(max(meanSquare, 1e-12))}: s from the mean squared residual} */
    public static double fromMeanSquare(double meanSquare) {
        return Math.sqrt(Math.max(meanSquare, MIN_MEAN_SQUARE));
    }

    /** {@return {@code {noiseStd: s}}, the state a head saves} */
    public Map<String, Double> state() {
        return Map.of(STATE_KEY, std);
    }

    /**
     * Puts back {@link #state()}.
     *
     * @throws IllegalArgumentException if state is null, holds another entry than {@code noiseStd}, or its value is
     *                                  not finite and > 0
     */
    public void restore(Map<String, Double> state) {
        Checks.notNull("state", state);
        Checks.require(state.keySet().equals(Set.of(STATE_KEY)), "state must hold exactly %s, got %s", STATE_KEY,
                state.keySet());
        set(state.get(STATE_KEY));
    }

    /** {@return {@code N(mu[b], s^2)} per row, s read once} */
    public MixtureDistribution around(double[] mu) {
        return gaussian(mu, std);
    }

    /** {@return {@code N(mu[b], std^2)} per row} */
    public static MixtureDistribution gaussian(double[] mu, double std) {
        double[] s = new double[mu.length];
        Arrays.fill(s, std);
        return MixtureDistribution.gaussian(mu, s);
    }
}
