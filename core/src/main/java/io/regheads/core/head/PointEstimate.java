package io.regheads.core.head;

import java.util.Locale;

/**
 * Which summary of a head's predictive distribution serves as its point prediction ({@link
 * RegressionHead#point}). A head spec names the one its model reports ({@link HeadSpec#pointEstimate()}); callers
 * with their own protocol pass one explicitly (the arithmetic benchmark decodes greedily).
 *
 * <p>For a Gaussian (pointwise and xVal heads) all four coincide: the mean.
 */
public enum PointEstimate {
    /** The predictive mean, {@code PredictiveDistribution.mean()}. */
    MEAN,
    /** The median, {@code PredictiveDistribution.median()} (the 0.5 quantile). */
    MEDIAN,
    /** The mode, {@code PredictiveDistribution.mode()} (for token heads: a beam search). */
    MODE,
    /**
     * Greedy decoding: a head that generates tokens takes the most probable allowed token position by position (a
     * width-1 beam search) and decodes the sequence (T decoder steps, the cheap approximation of the mode); every
     * other head (one position or a continuous output) answers with its {@link #MODE}.
     */
    GREEDY;

    /** The name in lower case, for tables and JSON: {@code "mean"}, {@code "median"}, {@code "mode"}, {@code "greedy"}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
