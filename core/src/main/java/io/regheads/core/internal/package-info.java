/**
 * Internal helpers shared by the regheads modules: <b>not part of the public API</b>. Nothing here is
 * exported for users; types and methods may change or disappear in any release.
 *
 * <p>{@link io.regheads.core.internal.Host} is the only code of the project that touches the native memory behind
 * ND4J arrays (a build check keeps it so). No class here starts a thread when it loads: {@link
 * io.regheads.core.internal.Simd}'s warm-up starts when a path that runs its kernels asks for it ({@code
 * Simd.startWarmUp()}, {@code warmUpNow()}), and {@link io.regheads.core.internal.RowParallel}'s pool on its first
 * split.
 */
package io.regheads.core.internal;
