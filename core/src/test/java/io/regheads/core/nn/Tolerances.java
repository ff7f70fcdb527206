package io.regheads.core.nn;

import io.regheads.core.testing.GradientCheck;

/** Gradient-check tolerances shared by the layer tests. */
final class Tolerances {
    private Tolerances() {}

    /**
     * For objectives of size ~10 whose gradients include exact or near zeros (the attention key bias is exactly 0 by
     * softmax shift invariance; layer-norm input gradients of ~1e-5 arise from cancelling O(1) terms): the central
     * difference carries rounding noise of about 1e-16 |f| / eps = 1e-9, so the standard absolute floor of 1e-8 is
     * raised to 1e-4. Gradients above 1e-4 in magnitude are still held to 1e-5 relative error, smaller ones to 1e-9
     * absolute.
     */
    static final GradientCheck.Tolerance NOISE_FLOORED = new GradientCheck.Tolerance(1e-6, 1e-5, 1e-4);
}
