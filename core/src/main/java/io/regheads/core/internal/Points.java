package io.regheads.core.internal;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.PointEstimate;

/** Point summaries of predictive distributions shared by the head and model layers. Not API. */
public final class Points {
    private Points() {}

    /**
     * The mean where it is finite, else the median, per row (the point estimate AUTO).
     *
     * @param d the distributions
     * @return {@code [B]}; the median is computed only if some mean is not finite
     */
    public static double[] meanElseMedian(PredictiveDistribution d) {
        double[] m = d.mean();
        double[] median = null;
        for (int r = 0; r < m.length; r++) {
            if (!Double.isFinite(m[r])) {
                median = median == null ? d.median() : median;
                m[r] = median[r];
            }
        }
        return m;
    }

    /**
     * The summary of {@code d} that a point estimate names: MEAN, MEDIAN, MODE (GREEDY: the mode, for a head without
     * tokens) and AUTO ({@link #meanElseMedian}).
     *
     * @throws IllegalStateException for the sample-based estimates, which are not summaries of d
     */
    public static double[] summary(PredictiveDistribution d, PointEstimate estimate) {
        return switch (estimate) {
            case MEAN -> d.mean();
            case MEDIAN -> d.median();
            case MODE, GREEDY -> d.mode();
            case AUTO -> meanElseMedian(d);
            default -> throw new IllegalStateException("not a summary of the distribution: " + estimate);
        };
    }
}
