/**
 * Helpers that several heads share and that are no part of the public API: {@link
 * io.regheads.heads.internal.NoiseLevel}, the after-fit noise level of the point heads (pointwise, xVal).
 */
package io.regheads.heads.internal;
