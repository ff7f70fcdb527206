package io.regheads.tokenizers;

import java.util.SplittableRandom;

/** Seeded generators of awkward doubles for property tests. */
final class Samples {
    private Samples() {}

    /**
     * A mix of: random bit patterns (every exponent, subnormals included), values within a few ulps of a power of
     * the base, log-uniform magnitudes in [lo, hi], and signed zeros. Never NaN or infinite.
     */
    static double mixed(SplittableRandom rng, int base, double lo, double hi) {
        hi = Math.min(hi, Double.MAX_VALUE);
        lo = Math.max(lo, Double.MIN_VALUE);
        int kind = rng.nextInt(8);
        double y;
        switch (kind) {
            case 0, 1 -> {
                do {
                    y = Double.longBitsToDouble(rng.nextLong());
                } while (!Double.isFinite(y));
            }
            case 2 -> y = Double.longBitsToDouble(rng.nextLong(1L << 52)); // subnormal
            case 3, 4 -> {
                double p = Math.pow(base, rng.nextInt((int) Math.floor(Math.log(lo) / Math.log(base)),
                        (int) Math.ceil(Math.log(hi) / Math.log(base)) + 1));
                int steps = rng.nextInt(-3, 4);
                y = p;
                for (int i = 0; i < Math.abs(steps); i++) {
                    y = steps > 0 ? Math.nextUp(y) : Math.nextDown(y);
                }
            }
            case 5 -> y = rng.nextBoolean() ? 0.0 : -0.0;
            default -> y = Math.exp(Math.log(lo) + rng.nextDouble() * (Math.log(hi) - Math.log(lo)));
        }
        if (!Double.isFinite(y)) {
            y = Double.MAX_VALUE;
        }
        return rng.nextBoolean() ? y : -y;
    }

    /** Uniform in [0, 1] with extra mass on 0, 1 and ulp-neighbours of multiples of 1/bins. */
    static double unit(SplittableRandom rng, long bins) {
        int kind = rng.nextInt(6);
        return switch (kind) {
            case 0 -> rng.nextBoolean() ? 0.0 : 1.0;
            case 1 -> {
                double e = rng.nextLong(bins + 1) / (double) bins;
                double y = rng.nextBoolean() ? e : (rng.nextBoolean() ? Math.nextUp(e) : Math.nextDown(e));
                yield Math.min(1.0, Math.max(0.0, y));
            }
            case 2 -> Double.longBitsToDouble(rng.nextLong(1L << 52)); // subnormal
            default -> rng.nextDouble();
        };
    }
}
