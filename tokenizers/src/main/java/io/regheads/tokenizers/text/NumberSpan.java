package io.regheads.tokenizers.text;

/**
 * A number found in a text: characters {@code [start, end)} and their parsed value.
 *
 * @param start first character index
 * @param end   one past the last character
 * @param value the parsed, finite value
 */
record NumberSpan(int start, int end, double value) {}
