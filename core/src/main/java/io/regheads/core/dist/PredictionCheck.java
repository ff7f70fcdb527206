package io.regheads.core.dist;

import io.regheads.core.check.Checks;
import java.util.Locale;
import java.util.Optional;

/**
 * Tells whether predictive distributions on held-out rows have collapsed: the generic check behind {@link
 * io.regheads.core.train.TrainableModel#diagnose}, for any head.
 *
 * <p>With q_p the p-quantile of row i and y_i its target, on B rows whose targets are not all equal:
 * <ul>
 *   <li><b>same for every row</b>: q_0.01, q_0.5 and q_0.99 of every row lie within {@code 1e-9 * (max y - min y)}
 *       of those of row 0. The prediction no longer depends on x, as when every unit of a ReLU encoder has died
 *       (a histogram head trained at a huge learning rate puts every row on the same bins);</li>
 *   <li><b>missing the targets</b>: with B >= {@value #MIN_ROWS_FOR_COVERAGE}, fewer than {@value
 *       #MIN_COVERAGE} of the targets lie inside their central 98% intervals [q_0.01, q_0.99] (a calibrated model
 *       holds about 98%; an untrained one, being wide, holds most).</li>
 * </ul>
 * Cost: three quantile queries on the B rows.
 *
 * <p>Example: two rows both predicted as N(0.3, 0.01^2) with targets 0.1 and 0.9 are "the same for every row";
 * N(0, 1) for targets 0.2 and -0.5 is healthy. Stateless and thread-safe.
 */
public final class PredictionCheck {
    /** Fewest rows for the coverage test (with fewer, chance decides too much). */
    public static final int MIN_ROWS_FOR_COVERAGE = 20;
    /** Share of targets inside the central 98% intervals below which the distributions count as collapsed. */
    public static final double MIN_COVERAGE = 0.1;

    private PredictionCheck() {}

    /**
     * Describes how the distributions {@code d} collapsed on rows with targets {@code y}, or empty if they look
     * usable (also when B &lt; 2 or every target is the same: nothing to tell apart).
     *
     * @param d predictive distributions of B rows
     * @param y {@code [B]} targets, finite, in the units of {@code d}
     * @return one line such as {@code "every one of the 100 rows gets the same predictive distribution (median
     *         0.41, 98% interval [0.1, 0.8]) although the targets range over [0.02, 0.97]: the prediction no longer
     *         depends on x"}
     * @throws IllegalArgumentException if an argument is null, y has the wrong length or a non-finite value
     */
    public static Optional<String> collapsed(PredictiveDistribution d, double[] y) {
        Checks.notNull("d", d);
        Checks.rowValues("y", y, d.batchSize());
        Checks.allFinite("y", y);
        int n = y.length;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (double v : y) {
            yMin = Math.min(yMin, v);
            yMax = Math.max(yMax, v);
        }
        if (n < 2 || !(yMax > yMin)) {
            return Optional.empty();
        }
        double[] lo = d.inverseCumulativeProbability(0.01);
        double[] mid = d.median();
        double[] hi = d.inverseCumulativeProbability(0.99);
        double tol = 1e-9 * (yMax - yMin);
        boolean same = true;
        int inside = 0;
        for (int i = 0; i < n; i++) {
            same &= Math.abs(lo[i] - lo[0]) <= tol && Math.abs(mid[i] - mid[0]) <= tol && Math.abs(hi[i] - hi[0]) <= tol;
            if (y[i] >= lo[i] && y[i] <= hi[i]) {
                inside++;
            }
        }
        if (same) {
            return Optional.of(String.format(Locale.ROOT, "every one of the %d rows gets the same predictive distribution "
                    + "(median %.4g, 98%% interval [%.4g, %.4g]) although the targets range over [%.4g, %.4g]: the "
                    + "prediction no longer depends on x", n, mid[0], lo[0], hi[0], yMin, yMax));
        }
        if (n >= MIN_ROWS_FOR_COVERAGE && inside < MIN_COVERAGE * n) {
            return Optional.of(String.format(Locale.ROOT, "only %d of %d targets lie inside their central 98%% "
                    + "predictive intervals (a usable model holds most): the predictive distributions have collapsed "
                    + "away from the data", inside, n));
        }
        return Optional.empty();
    }
}
