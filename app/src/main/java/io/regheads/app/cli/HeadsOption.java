package io.regheads.app.cli;

import picocli.CommandLine.Option;

/**
 * {@code --heads LIST}, the heads a command trains side by side (a picocli mixin of {@code compare}, {@code uci} and
 * {@code curves}). Not thread-safe (picocli fills the field).
 */
final class HeadsOption {
    @Option(names = "--heads", paramLabel = "LIST",
            description = "Comma-separated heads to train (default: pointwise, histogram, mdn, decoder, "
                    + "unnormalized-decoder, xval, quantile; also repeat-decoder, hamming-decoder when named).")
    String heads;
}
