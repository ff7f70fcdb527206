/**
 * Internal helpers shared by the regheads modules: <b>not part of the public API</b>. Nothing here is
 * exported for users; types and methods may change or disappear in any release.
 *
 * <p>{@link io.regheads.core.internal.Host} is the only code of the project that touches the native memory behind
 * ND4J arrays (a build check keeps it so).
 */
package io.regheads.core.internal;
