package io.regheads.heads.histogram;

/**
 * The mean, variance and mode of a histogram distribution's rows, from the per-bin constants of {@link Bins} (each
 * bin a component: uniform on the bin, or a half-normal in a tail, with mean {@code c_i} and variance {@code v_i}):
 * <pre>
 *   mean_b = sum_i p_i c_i,   var_b = sum_i p_i (v_i + (c_i - mean_b)^2)   (centred: no cancellation)
 *   mode_b = where the component of highest peak density peaks: p_i / w_i in a bin, p_i sqrt(2 / pi) / s in a tail
 * </pre>
 * The first bin of highest density wins a tie. Package-private; stateless.
 */
final class BinMoments {
    private BinMoments() {}

    /** {@code mean_b} of each of the rows of {@code p [rows * n]}. */
    static double[] means(Bins bins, double[] p, int rows) {
        int n = bins.n;
        double[] c = bins.componentMean;
        double[] m = new double[rows];
        for (int b = 0; b < rows; b++) {
            int o = b * n;
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += p[o + i] * c[i];
            }
            m[b] = s;
        }
        return m;
    }

    /** {@code var_b} of each of the rows of {@code p [rows * n]} about their means {@code m [rows]}. */
    static double[] variances(Bins bins, double[] p, double[] m, int rows) {
        int n = bins.n;
        double[] cm = bins.componentMean;
        double[] cv = bins.componentVariance;
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            int o = b * n;
            double s = 0;
            for (int i = 0; i < n; i++) {
                double d = cm[i] - m[b];
                s += p[o + i] * (cv[i] + d * d);
            }
            out[b] = s;
        }
        return out;
    }

    /** {@code mode_b} of each of the rows of {@code p [rows * n]}. */
    static double[] modes(Bins bins, double[] p, int rows) {
        int n = bins.n;
        double[] borders = bins.borders;
        double[] out = new double[rows];
        for (int b = 0; b < rows; b++) {
            int o = b * n;
            double best = Double.NEGATIVE_INFINITY;
            double at = Double.NaN;
            for (int i = 0; i < n; i++) {
                double dens;
                if (bins.tails && i == 0) {
                    dens = p[o] * Bins.SQRT_2_OVER_PI / bins.sLeft;
                } else if (bins.tails && i == n - 1) {
                    dens = p[o + n - 1] * Bins.SQRT_2_OVER_PI / bins.sRight;
                } else {
                    dens = p[o + i] / (borders[i + 1] - borders[i]);
                }
                if (dens > best) {
                    best = dens;
                    at = bins.peakAt[i];
                }
            }
            out[b] = at;
        }
        return out;
    }
}
