package io.regheads.core.head;

import java.util.Locale;

/**
 * Which summary of a head's predictive distribution serves as its point prediction ({@link
 * RegressionHead#point}). A head spec names the one its model reports ({@link HeadSpec#pointEstimate()}); callers
 * with their own protocol pass one explicitly (the arithmetic benchmark decodes greedily).
 *
 * <p>For a Gaussian (pointwise and xVal heads) the mean, median, mode, greedy and AUTO estimates coincide; the
 * sample-based ones estimate the same value from {@link Decoding#samples()} draws.
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
    GREEDY,
    /**
     * The mean of sampled values ({@link Decoding#samples()} per row, drawn as {@link Decoding} says: a head that
     * generates tokens applies temperature, top-k and top-p at every position and decodes each sampled sequence).
     */
    SAMPLE_MEAN,
    /** The Harrell-Davis median of sampled values (as {@link #SAMPLE_MEAN} draws them). */
    SAMPLE_MEDIAN,
    /**
     * The mean where the head can certify it (finite, and, for a decoder, its tree expansion within the error
     * budget), else the median: the default of heads whose mean can be dominated by far tails (the unnormalized
     * decoder). Heads with a closed-form mean answer with the mean wherever it is finite.
     */
    AUTO;

    /**
     * The name in lower case with hyphens, for tables, JSON and the command line: {@code "mean"}, {@code "median"},
     * {@code "mode"}, {@code "greedy"}, {@code "sample-mean"}, {@code "sample-median"}, {@code "auto"}.
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * The estimate with this {@link #label()} (case-insensitive; {@code _} accepted for {@code -}).
     *
     * @throws IllegalArgumentException naming the known labels if there is none
     */
    public static PointEstimate ofLabel(String label) {
        io.regheads.core.check.Checks.notNull("label", label);
        String l = label.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (PointEstimate e : values()) {
            if (e.label().equals(l)) {
                return e;
            }
        }
        java.util.List<String> known = new java.util.ArrayList<>();
        for (PointEstimate e : values()) {
            known.add(e.label());
        }
        throw new IllegalArgumentException("point estimate must be one of " + known + ", got '" + label + "'");
    }
}
