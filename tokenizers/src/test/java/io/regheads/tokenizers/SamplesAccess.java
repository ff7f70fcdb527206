package io.regheads.tokenizers;

import java.util.SplittableRandom;

/** Public bridge to {@link Samples} for tests in subpackages. */
public final class SamplesAccess {
    private SamplesAccess() {}

    public static double mixed(SplittableRandom rng, int base, double lo, double hi) {
        return Samples.mixed(rng, base, lo, hi);
    }
}
