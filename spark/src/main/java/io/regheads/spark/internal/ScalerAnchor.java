package io.regheads.spark.internal;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.check.Checks;
import io.regheads.core.nn.Param;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A fresh model whose scalers hold statistics gathered elsewhere (over a cluster's partitions), and whose weights
 * are the untouched initial ones.
 *
 * <p>The library sets a model's scalers only in {@code fit} (from all its rows) or {@code load}. This class builds
 * two rows whose {@code StandardScaler.fit} gives exactly the wanted column means and scales and whose {@code
 * MinMaxScaler.fit} gives exactly the wanted label range, lets {@code fit} set the scalers from them, and then puts
 * the initial weights back (the short fit on two rows is thrown away; the caller runs the head's after-fit step once
 * the model is trained). The two rows carry the real column names, so the model records the names of the data it is
 * trained on ({@code RegressionModel.featureNames()}, {@code targetName()}) and predicts from them by name. When the
 * library gains a way to create a model with given scalers, this class goes.
 *
 * <p>Exactness: per column, the two values {@code m - s, m + s} (or {@code m, m} when the column is constant) are
 * adjusted by up to {@link #ULPS} units in the last place until {@code StandardScaler.fit} reproduces {@code m} and
 * {@code s} bit for bit; if no such pair exists the closest is used and the scaler differs by a few ulps.
 *
 * <p>Stateless and thread-safe.
 */
public final class ScalerAnchor {
    /** Largest adjustment tried per value, in units in the last place. */
    static final int ULPS = 4;

    private ScalerAnchor() {}

    /**
     * A model of {@code config} for {@code mean.length} inputs in precision {@code type} with the given scalers and
     * its initial weights.
     *
     * @param mean  column means {@code [D]} (ignored when the config does not standardise x)
     * @param scale column scales {@code [D]}, each > 0 (the standard deviation, or 1 for a constant column)
     * @param yMin  label minimum
     * @param yMax  label maximum, {@code > yMin}
     * @param names the feature column names ({@code [D]}, distinct) and the label's: what the model records
     * @throws IllegalArgumentException on a constant label, a bad statistic or bad names
     */
    public static RegressionModel anchor(ModelConfig config, DataType type, double[] mean, double[] scale, double yMin,
            double yMax, Columns names) {
        Checks.notNull("config", config);
        Checks.require(yMax > yMin, "the label must not be constant (max - min must be > 0), got min %s, max %s", yMin, yMax);
        int d = mean.length;
        Checks.require(scale.length == d, "scale must have %d elements, got %d", d, scale.length);
        double[][] x = new double[2][d];
        for (int j = 0; j < d; j++) {
            double[] pair = config.standardizeX() ? pair(mean[j], scale[j]) : new double[] {0, 0};
            x[0][j] = pair[0];
            x[1][j] = pair[1];
        }
        RegressionModel m = RegressionModel.create(config, d, type);
        List<INDArray> initial = new ArrayList<>();
        for (Param p : m.params()) {
            initial.add(p.value().dup('c'));
        }
        Checks.notNull("names", names);
        m.fit(Dataset.of(x, new double[] {yMin, yMax}, names.features(), names.label()));
        for (int i = 0; i < initial.size(); i++) {
            m.params().get(i).value().assign(initial.get(i));
        }
        MinMaxScaler ys = m.yScaler();
        Checks.require(ys.min() == yMin && ys.max() == yMax, "anchored label range must be [%s, %s], got [%s, %s]",
                yMin, yMax, ys.min(), ys.max());
        return m;
    }

    /**
     * Column names of the training data.
     *
     * @param features the feature columns, in the model's input order
     * @param label    the label column
     */
    public record Columns(List<String> features, String label) {
        public Columns {
            features = List.copyOf(features);
            Checks.notNull("label", label);
        }
    }

    /**
     * Two values whose {@code StandardScaler.fit} gives mean {@code m} and scale {@code s} exactly (or as closely as
     * the search finds).
     */
    static double[] pair(double m, double s) {
        Checks.finite("mean", m);
        Checks.positive("scale", s);
        double[] best = null;
        double bestErr = Double.POSITIVE_INFINITY;
        for (double[] start : new double[][] {{m, m}, {m - s, m + s}}) {
            for (int i = -ULPS; i <= ULPS; i++) {
                for (int k = -ULPS; k <= ULPS; k++) {
                    double a = step(start[0], i);
                    double b = step(start[1], k);
                    StandardScaler f = StandardScaler.fit(new double[][] {{a}, {b}});
                    double err = Math.abs(f.mean()[0] - m) + Math.abs(f.scale()[0] - s);
                    if (err < bestErr) {
                        bestErr = err;
                        best = new double[] {a, b};
                        if (err == 0) {
                            return best;
                        }
                    }
                }
            }
        }
        return best;
    }

    private static double step(double v, int ulps) {
        double r = v;
        for (int i = 0; i < Math.abs(ulps); i++) {
            r = ulps > 0 ? Math.nextUp(r) : Math.nextDown(r);
        }
        return r;
    }
}
