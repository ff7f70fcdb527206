package io.regheads.core.data;

import io.regheads.core.check.Checks;

/**
 * Per-column standardisation of features: {@code z = (x - mean) / scale}, fitted on training rows only.
 *
 * <p>{@code mean} is the column mean and {@code scale} the population standard deviation (divide by N, as
 * scikit-learn's {@code StandardScaler}) over the rows given to {@link #fit}. A column with zero variance on the
 * training rows (standard deviation {@code <= 1e-12 * max(1, max |x|)}, i.e. constant up to rounding) gets
 * {@code scale = 1}, so it maps to {@code x - mean} (zero on the training rows) instead of dividing by zero.
 *
 * <p>Example: column values (1, 2, 3) give mean 2, scale sqrt(2/3) = 0.8165, and 3 maps to 1.2247.
 *
 * <p>Immutable and thread-safe.
 */
public final class StandardScaler {
    private final double[] mean;
    private final double[] scale;

    private StandardScaler(double[] mean, double[] scale) {
        this.mean = mean;
        this.scale = scale;
    }

    /**
     * A scaler with known statistics (e.g. read back from a saved model).
     *
     * @param mean  {@code [D]} finite
     * @param scale {@code [D]} finite and > 0
     * @throws IllegalArgumentException on a length mismatch or a value outside these domains
     */
    public static StandardScaler of(double[] mean, double[] scale) {
        Checks.allFinite("mean", mean);
        Checks.notNull("scale", scale);
        Checks.require(mean.length == scale.length && mean.length > 0,
                "mean and scale must have the same non-zero length, got %d and %d", mean.length, scale.length);
        for (int j = 0; j < scale.length; j++) {
            Checks.require(scale[j] > 0 && Double.isFinite(scale[j]), "scale[%d] must be > 0 and finite, got %s", j, scale[j]);
        }
        return new StandardScaler(mean.clone(), scale.clone());
    }

    /** Fits on all rows of {@code train} (pass the training split, never the test rows). */
    public static StandardScaler fit(Dataset train) {
        Checks.notNull("train", train);
        return fit(train.x());
    }

    /**
     * Fits on the rows of {@code x} {@code [N][D]}.
     *
     * @throws IllegalArgumentException if x is empty, ragged or non-finite, or a column's mean or standard deviation
     *                                  overflows double (values near +-1.8e308)
     */
    public static StandardScaler fit(double[][] x) {
        Checks.notNull("x", x);
        Checks.require(x.length > 0, "x must have at least one row, got 0 rows");
        int d = Checks.notNull("x[0]", x[0]).length;
        Checks.require(d > 0, "x must have at least one column, got 0 columns");
        double[] mean = new double[d];
        double[] maxAbs = new double[d];
        for (int i = 0; i < x.length; i++) {
            Checks.require(x[i] != null && x[i].length == d, "x must be rectangular with %d columns, row %d differs", d, i);
            for (int j = 0; j < d; j++) {
                Checks.require(Double.isFinite(x[i][j]), "x must be finite everywhere, got %s at row %d, column %d",
                        x[i][j], i, j);
                mean[j] += x[i][j];
                maxAbs[j] = Math.max(maxAbs[j], Math.abs(x[i][j]));
            }
        }
        double[] scale = new double[d];
        for (int j = 0; j < d; j++) {
            mean[j] /= x.length;
            double ss = 0; // two-pass variance: sum of squared deviations from the mean
            for (double[] row : x) {
                double dev = row[j] - mean[j];
                ss += dev * dev;
            }
            double sd = Math.sqrt(ss / x.length);
            Checks.require(Double.isFinite(mean[j]) && Double.isFinite(sd), "x column %d has values too large for a mean "
                    + "and standard deviation in double (largest magnitude %s, standard deviation %s); scale the column "
                    + "down before fitting", j, maxAbs[j], sd);
            scale[j] = sd <= 1e-12 * Math.max(1, maxAbs[j]) ? 1.0 : sd;
        }
        return new StandardScaler(mean, scale);
    }

    /** Number of columns D. */
    public int features() {
        return mean.length;
    }

    /** Column means, {@code [D]} (copy). */
    public double[] mean() {
        return mean.clone();
    }

    /** Column scales, {@code [D]} (copy): the standard deviation, or 1 for zero-variance columns. */
    public double[] scale() {
        return scale.clone();
    }

    /** {@code (row - mean) / scale}, {@code [D] -> [D]}. */
    public double[] transform(double[] row) {
        checkRow(row);
        double[] out = new double[row.length];
        for (int j = 0; j < out.length; j++) {
            out[j] = (row[j] - mean[j]) / scale[j];
        }
        return out;
    }

    /** {@code z * scale + mean}, {@code [D] -> [D]}. */
    public double[] inverseTransform(double[] z) {
        checkRow(z);
        double[] out = new double[z.length];
        for (int j = 0; j < out.length; j++) {
            out[j] = z[j] * scale[j] + mean[j];
        }
        return out;
    }

    /** Every row transformed, {@code [N][D] -> [N][D]}. */
    public double[][] transform(double[][] x) {
        Checks.notNull("x", x);
        double[][] out = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            out[i] = transform(x[i]);
        }
        return out;
    }

    /** Every row inverse-transformed, {@code [N][D] -> [N][D]}. */
    public double[][] inverseTransform(double[][] z) {
        Checks.notNull("z", z);
        double[][] out = new double[z.length][];
        for (int i = 0; i < z.length; i++) {
            out[i] = inverseTransform(z[i]);
        }
        return out;
    }

    /** A data set with standardised features and the same targets and names. */
    public Dataset transform(Dataset data) {
        Checks.notNull("data", data);
        return data.withX(transform(data.x()));
    }

    private void checkRow(double[] row) {
        Checks.notNull("row", row);
        Checks.require(row.length == mean.length, "row must have %d columns, got %d", mean.length, row.length);
    }

    @Override
    public String toString() {
        return "StandardScaler[" + mean.length + " columns]";
    }
}
