/**
 * The {@code regheads} command line (picocli): {@code compare} trains every head on one dataset and prints test
 * metrics with interval and PIT plots; {@code uci} runs the decoding paper's NLL protocol over the 10 folds of the
 * UCI datasets of the repository's {@code datasets/} folder and writes a markdown table beside the paper's numbers.
 *
 * <p>Heads are looked up by name in a {@link io.regheads.app.cli.HeadCatalog}, so a new
 * {@link io.regheads.core.head.HeadSpec} joins every command by one {@code register} call there. The commands that
 * train share {@link io.regheads.app.cli.TrainingOptions}: a head's settings over its preset ({@code -H KEY=VALUE},
 * {@link io.regheads.app.cli.HeadOptions}), the trainer's and the encoder's, and a settings file ({@code --config},
 * {@link io.regheads.app.cli.ConfigFile}, as {@code regheads settings} prints one); tables print 4 significant
 * digits ({@link io.regheads.app.cli.Fmt}).
 * Errors in the input (a missing or malformed CSV, a constant target, too few rows, a bad option) end the command
 * with one line on stderr and exit code 2; see {@link io.regheads.app.cli.Regheads}.
 */
package io.regheads.app.cli;
