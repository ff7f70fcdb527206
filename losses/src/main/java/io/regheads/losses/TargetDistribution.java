package io.regheads.losses;

import io.regheads.core.check.Checks;

/**
 * The target distribution {@code r} over the number tokens that NTL-WAS-CDF compares the predicted distribution
 * with, given the label value y.
 *
 * <p>Implementations fill {@code r[0..n)} for the {@code n} valid number tokens of one position, given in
 * ascending order of value; the entries must be {@code >= 0} and sum to 1 (checked by the loss to 1e-9).
 * Implementations must be immutable and thread-safe.
 *
 * <p>Example: values {@code [0, 1, 2, 3]}, y = 2: {@link #pointMass()} gives {@code [0, 0, 1, 0]}; {@code
 * gaussian(1)} gives {@code exp(-(v - 2)^2 / 2)} normalised,
 * {@code [0.0576, 0.2583, 0.4258, 0.2583]} (rounded).
 */
public interface TargetDistribution {

    /**
     * Fills the target over the valid number tokens of one position.
     *
     * @param y      the label value, finite
     * @param values {@code [n]} token values in ascending order (the first n entries count)
     * @param n      number of valid number tokens, {@code >= 1}
     * @param r      output, the first n entries are written
     */
    void fill(double y, double[] values, int n, double[] r);

    /** A short label for loss names. */
    String label();

    /**
     * All mass on the token whose value is nearest to y (ties to the smaller value). With y equal to a token
     * value this is the one-hot label, and NTL-WAS-CDF then equals NTL-WAS.
     */
    static TargetDistribution pointMass() {
        return PointMass.INSTANCE;
    }

    /**
     * The discrete Gaussian {@code r_j ~ exp(-(v_j - y)^2 / (2 sigma^2))}, normalised over the valid number tokens
     * (as the NTL authors' GCE target, without their +1e-8 in the denominator), computed in log space so it stays
     * defined when y lies far outside the token values.
     *
     * @param sigma {@code > 0}, finite
     * @throws IllegalArgumentException if sigma is not positive and finite
     */
    static TargetDistribution gaussian(double sigma) {
        return new Gaussian(sigma);
    }

    /** See {@link #pointMass()}. */
    enum PointMass implements TargetDistribution {
        /** The only instance. */
        INSTANCE;

        @Override
        public void fill(double y, double[] values, int n, double[] r) {
            int best = 0;
            for (int j = 0; j < n; j++) {
                r[j] = 0;
                if (Math.abs(values[j] - y) < Math.abs(values[best] - y)) {
                    best = j;
                }
            }
            r[best] = 1;
        }

        @Override
        public String label() {
            return "point-mass";
        }
    }

    /**
     * See {@link TargetDistribution#gaussian(double)}.
     *
     * @param sigma {@code > 0}, finite
     */
    record Gaussian(double sigma) implements TargetDistribution {
        /**
         * @param sigma the width, positive and finite
         * @throws IllegalArgumentException unless sigma is positive and finite
         */
        public Gaussian {
            Checks.positive("sigma", sigma);
        }

        @Override
        public void fill(double y, double[] values, int n, double[] r) {
            double minSq = Double.POSITIVE_INFINITY;
            for (int j = 0; j < n; j++) {
                double d = values[j] - y;
                minSq = Math.min(minSq, d * d);
            }
            double sum = 0;
            for (int j = 0; j < n; j++) {
                double d = values[j] - y;
                r[j] = Math.exp(-(d * d - minSq) / (2 * sigma * sigma));
                sum += r[j];
            }
            for (int j = 0; j < n; j++) {
                r[j] /= sum;
            }
        }

        @Override
        public String label() {
            return "gaussian(sigma=" + sigma + ")";
        }
    }
}
