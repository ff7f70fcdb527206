package io.regheads.app.cli;

import io.regheads.core.check.Checks;

/**
 * Mean and sample standard deviation (n - 1 denominator; 0 for a single value) for the fold summaries.
 * Example: (1, 2, 3) gives mean 2, std 1. Stateless and thread-safe.
 */
final class Stats {
    private Stats() {}

    /** {@code [mean, std]} of {@code v}. @throws IllegalArgumentException if empty */
    static double[] of(double[] v) {
        Checks.notNull("v", v);
        Checks.require(v.length > 0, "v must not be empty, got length 0");
        double mean = 0;
        for (double e : v) {
            mean += e;
        }
        mean /= v.length;
        double ss = 0;
        for (double e : v) {
            ss += (e - mean) * (e - mean);
        }
        return new double[] {mean, v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0};
    }

    /**
     * {@code "mean +- std"} with 4 significant digits each ({@link Fmt#sig}), e.g. {@code "2.000 +- 1.000"}; the mean
     * alone when it is not finite ({@code "inf"}: some value is).
     */
    static String meanStd(double[] v) {
        double[] s = of(v);
        return Double.isFinite(s[0]) ? Fmt.sig(s[0]) + " +- " + Fmt.sig(s[1]) : Fmt.sig(s[0]);
    }
}
