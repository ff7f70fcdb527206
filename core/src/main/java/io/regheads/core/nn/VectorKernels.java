package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Simd;
import java.time.Duration;

/**
 * Whether the library's array kernels (the histogram and mixture builders, the softmax reductions) run in SIMD lanes
 * through the JDK's Vector API, and a wait for their warm-up. They are used when the JVM runs with {@code
 * --add-modules jdk.incubator.vector} and the system property {@code regheads.simd} is not {@code false}, once the JIT
 * has compiled them and they passed a self-check against the scalar code; training or the first prediction starts
 * that warm-up. <b>Results are the same bits either way</b>: the switch changes speed only. For benchmarks that want
 * the steady state from their first timed call.
 */
public final class VectorKernels {
    private VectorKernels() {}

    /** True if the array kernels run in SIMD lanes now. */
    public static boolean enabled() {
        return Simd.enabled();
    }

    /**
     * Starts the warm-up if it has not been started and waits until it has decided (at once where the Vector API is
     * not available or turned off), at most {@code timeout}.
     *
     * @return {@link #enabled()} afterwards
     * @throws IllegalArgumentException if timeout is null or negative
     */
    public static boolean awaitWarmUp(Duration timeout) {
        Checks.notNull("timeout", timeout);
        Checks.require(!timeout.isNegative(), "timeout must be >= 0, got %s", timeout);
        return Simd.awaitWarmUp(timeout);
    }
}
