package io.regheads.tokenizers.text;

import io.regheads.core.check.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A text tokenizer for number-in-text models with one of the encodings P10, P1000, B1999, FP15: characters are
 * {@link CharVocabulary} ids {@code [0, 100)}; each number (found by {@link NumberParser}) becomes the
 * {@link ChartonTokenizer} tokens of its value, shifted by {@link #numberOffset()} = 100. Vocabulary size
 * {@code 100 + V(scheme)}.
 *
 * <p><b>Precision</b>: numbers keep three significant digits and the range of {@link ChartonTokenizer}
 * (1e-6..9.99e10; larger magnitudes clamp to 9.99e10, below 5e-7 they become 0); decode writes them with
 * {@link ChartonTokenizer#text}. So {@code decode(encode(s))} equals s with every number replaced by its rounded
 * value, and encoding that text again gives the same tokens.
 *
 * <p><b>Worked example</b> (P10): {@code {"a": 1.5, "b": [-2, 30000.0]}} -> {@code { " a " : space + 1 5 0 E-2 ,
 * space " b " : space [ - 2 0 0 E-2 , space + 3 0 0 E+2 ] }} and back to {@code {"a": 1.5, "b": [-2, 30000]}};
 * {@code "pi=3.14159"} decodes to {@code "pi=3.14"}.
 *
 * <p>Immutable and thread-safe.
 */
public final class TextNumberCodec {
    private final ChartonTokenizer numbers;

    /** @throws IllegalArgumentException if scheme is null */
    public TextNumberCodec(ChartonScheme scheme) {
        this.numbers = new ChartonTokenizer(scheme);
    }

    /** The number tokenizer used for the numbers. */
    public ChartonTokenizer numbers() {
        return numbers;
    }

    /** The id of number token 0. */
    public int numberOffset() {
        return CharVocabulary.SIZE;
    }

    /** Total vocabulary size. */
    public int vocabularySize() {
        return CharVocabulary.SIZE + numbers.vocabularySize();
    }

    /**
     * Tokenizes a text.
     *
     * @throws IllegalArgumentException if text is null or holds a number that overflows a double
     */
    public int[] encode(String text) {
        List<NumberSpan> spans = NumberParser.find(text);
        List<Integer> out = new ArrayList<>(text.length());
        int at = 0;
        for (NumberSpan span : spans) {
            for (int i = at; i < span.start(); i++) {
                out.add(CharVocabulary.id(text.charAt(i)));
            }
            for (int t : numbers.encode(span.value())) {
                out.add(numberOffset() + t);
            }
            at = span.end();
        }
        for (int i = at; i < text.length(); i++) {
            out.add(CharVocabulary.id(text.charAt(i)));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The text of a token sequence; every run of number tokens must consist of whole valid number sequences.
     *
     * @throws IllegalArgumentException on ids outside the vocabulary or an incomplete or invalid number
     */
    public String decode(int[] tokens) {
        Checks.notNull("tokens", tokens);
        int t = numbers.sequenceLength();
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < tokens.length) {
            int id = tokens[i];
            Checks.require(id >= 0 && id < vocabularySize(), "tokens[%d] must be in [0, %d), got %d", i,
                    vocabularySize(), id);
            if (id < numberOffset()) {
                sb.append(CharVocabulary.text(id));
                i++;
                continue;
            }
            Checks.require(i + t <= tokens.length, "a number at index %d needs %d tokens, only %d left", i, t,
                    tokens.length - i);
            int[] block = Arrays.copyOfRange(tokens, i, i + t);
            for (int k = 0; k < t; k++) {
                Checks.require(block[k] >= numberOffset(), "tokens[%d] must be a number token, got %d", i + k,
                        block[k]);
                block[k] -= numberOffset();
            }
            sb.append(numbers.text(block));
            i += t;
        }
        return sb.toString();
    }

    /** A printable form of a token: the character, or the number token's text such as {@code E-1}. */
    public String tokenString(int id) {
        Checks.inRange("id", id, 0, vocabularySize() - 1);
        return id < numberOffset() ? CharVocabulary.text(id) : numbers.tokenString(id - numberOffset());
    }
}
