package io.regheads.tokenizers.text;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the numbers in a text. A number is {@code -?\d+(\.\d+)?([eE][+-]?\d+)?} that is not preceded by a letter,
 * digit, underscore or '.', and not followed by a letter, digit, underscore or by '.' plus a digit. So {@code x1},
 * {@code v1.2.3} and {@code 1st} stay text, {@code 3-2} is the numbers 3 and 2 with a '-' character between them
 * (the xVal reference reads 3 and -2), and {@code "a": -2} gives -2.
 *
 * <p>Differences from the xVal reference parser (PolymathicAI {@code preprocess.py}): spaces are kept (the reference
 * deletes all spaces first), lists are not compressed ({@code "1, 2"} keeps its ", "), and values are doubles (the
 * reference stores float16, about three significant digits and overflow above 65504). Stateless and thread-safe.
 */
final class NumberParser {
    private static final Pattern NUMBER =
            Pattern.compile("(?<![\\w.])-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?(?![\\w]|\\.\\d)");

    private NumberParser() {}

    /**
     * The numbers of a text, left to right.
     *
     * @throws IllegalArgumentException if text is null or a number overflows a double (e.g. {@code 1e400}; the
     *                                  message holds the number and its index)
     */
    public static List<NumberSpan> find(String text) {
        if (text == null) {
            throw new IllegalArgumentException("text must not be null");
        }
        List<NumberSpan> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            double v = Double.parseDouble(m.group());
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(
                        "numbers in text must be finite doubles, got " + m.group() + " at index " + m.start());
            }
            out.add(new NumberSpan(m.start(), m.end(), v));
        }
        return out;
    }
}
