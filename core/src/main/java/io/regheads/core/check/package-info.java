/**
 * The argument checks behind every one-line {@link java.lang.IllegalArgumentException} of the library ({@link
 * io.regheads.core.check.Checks}: the message names the argument, the rule and the value) and the "did you mean"
 * suggestions for misspelt names ({@link io.regheads.core.check.Names}), for code built on regheads (an encoder, a
 * head, a loss, a tokenizer or a command line) that wants the same messages.
 */
package io.regheads.core.check;
