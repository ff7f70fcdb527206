package io.regheads.core.internal;

import io.regheads.core.dist.PredictiveDistribution;

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
}
