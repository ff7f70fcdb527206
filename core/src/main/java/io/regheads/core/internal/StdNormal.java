package io.regheads.core.internal;

import org.apache.commons.numbers.gamma.Erfc;
import org.apache.commons.numbers.gamma.InverseErfc;

/**
 * The standard normal density, log-density, distribution and quantile functions, accurate in the tails
 * (through {@code erfc}, so {@code cdf(-40)} is about 3.7e-350 rounded to 0 rather than 1 - 1). Stateless and
 * thread-safe.
 */
public final class StdNormal {
    /** {@code log(sqrt(2 pi))}. */
    public static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

    private static final double INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);
    private static final double SQRT2 = Math.sqrt(2);

    private StdNormal() {}

    /** phi(z) = exp(-z^2/2) / sqrt(2 pi). */
    public static double pdf(double z) {
        return INV_SQRT_2PI * Math.exp(-0.5 * z * z);
    }

    /** log phi(z). */
    public static double logPdf(double z) {
        return -0.5 * z * z - LOG_SQRT_2PI;
    }

    /** Phi(z) = P(Z &lt;= z), computed as erfc(-z / sqrt 2) / 2. */
    public static double cdf(double z) {
        return 0.5 * Erfc.value(-z / SQRT2);
    }

    /** Phi^-1(p) for p in [0, 1]; +-Infinity at the ends. */
    public static double quantile(double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("p must be in [0, 1], got " + p);
        }
        return -SQRT2 * InverseErfc.value(2 * p);
    }
}
