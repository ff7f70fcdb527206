package io.regheads.tokenizers.text;

import io.regheads.core.check.Checks;

/**
 * The character-level vocabulary for the non-number parts of a text: ids {@code 0 [PAD]}, {@code 1 [UNK]},
 * {@code 2 [NUM]}, {@code 3 '\t'}, {@code 4 '\n'}, then the 95 printable ASCII characters {@code ' '..'~'} as ids
 * {@code 5..99}; {@link #SIZE} = 100.
 *
 * <p>Any other character (non-ASCII, other control characters) maps to {@code [UNK]}, which decodes to
 * {@code U+FFFD}; texts made of tabs, newlines and printable ASCII round-trip exactly. Stateless and thread-safe.
 */
public final class CharVocabulary {
    /** Padding. */
    public static final int PAD = 0;
    /** Unknown character. */
    public static final int UNK = 1;
    /** The xVal number placeholder. */
    public static final int NUM = 2;
    /** Number of ids. */
    public static final int SIZE = 100;
    private static final int FIRST_PRINTABLE = 5;

    private CharVocabulary() {}

    /** The id of a character ({@link #UNK} if it is not in the vocabulary). */
    public static int id(char c) {
        if (c == '\t') {
            return 3;
        }
        if (c == '\n') {
            return 4;
        }
        if (c >= ' ' && c <= '~') {
            return FIRST_PRINTABLE + (c - ' ');
        }
        return UNK;
    }

    /**
     * The text of an id: the character, {@code U+FFFD} for [UNK], "[NUM]" for the placeholder, "" for [PAD].
     *
     * @throws IllegalArgumentException if id is outside {@code [0, 100)}
     */
    public static String text(int id) {
        Checks.inRange("id", id, 0, SIZE - 1);
        return switch (id) {
            case PAD -> "";
            case UNK -> "\uFFFD";
            case NUM -> "[NUM]";
            case 3 -> "\t";
            case 4 -> "\n";
            default -> String.valueOf((char) (' ' + id - FIRST_PRINTABLE));
        };
    }
}
