package io.regheads.core.nn;

import io.regheads.core.testing.GradientCheck;

/** Gradient-check tolerances shared by the layer tests. */
final class Tolerances {
    private Tolerances() {}

    /** {@link GradientCheck.Tolerance#noiseFloored()}: see there for the bound behind it. */
    static final GradientCheck.Tolerance NOISE_FLOORED = GradientCheck.Tolerance.noiseFloored();
}
