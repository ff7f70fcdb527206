package io.regheads.core.internal;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import org.apache.commons.numbers.gamma.RegularizedBeta;

/**
 * The Harrell-Davis quantile estimator at 1/2 (a smooth median of a sample): {@code sum_i W_i x_(i)} over the sorted
 * sample with {@code W_i = I_{i/n}(a, a) - I_{(i-1)/n}(a, a)}, {@code a = (n + 1) / 2} (I the regularized incomplete
 * beta function). Stateless.
 */
public final class HarrellDavis {
    private HarrellDavis() {}

    /**
     * The weights {@code W_1..W_n}; they sum to 1 and are symmetric. Example: n = 2 gives {@code [0.5, 0.5]}.
     *
     * @throws IllegalArgumentException if n &lt; 1
     */
    public static double[] weights(int n) {
        Checks.atLeast("n", n, 1);
        double a = (n + 1) / 2.0;
        double[] w = new double[n];
        double prev = 0;
        for (int i = 1; i <= n; i++) {
            double cur = i == n ? 1 : RegularizedBeta.value((double) i / n, a, a);
            w[i - 1] = cur - prev;
            prev = cur;
        }
        return w;
    }

    /**
     * The median of each column of {@code samples [n][B]} (n draws of B rows).
     *
     * @return {@code [B]}
     * @throws IllegalArgumentException if samples is null, empty or ragged
     */
    public static double[] columnMedians(double[][] samples) {
        Checks.notNull("samples", samples);
        Checks.require(samples.length > 0, "samples must hold at least one draw, got 0");
        int b = Checks.notNull("samples[0]", samples[0]).length;
        double[] w = weights(samples.length);
        double[] out = new double[b];
        double[] col = new double[samples.length];
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < samples.length; j++) {
                Checks.require(samples[j] != null && samples[j].length == b, "samples must be [n][%d]", b);
                col[j] = samples[j][r];
            }
            Arrays.sort(col);
            for (int j = 0; j < col.length; j++) {
                out[r] += w[j] * col[j];
            }
        }
        return out;
    }
}
