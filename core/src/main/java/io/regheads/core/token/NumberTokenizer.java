package io.regheads.core.token;

/**
 * A bijection-up-to-resolution between real numbers and fixed-length token sequences, plus the masks that keep
 * generation on valid sequences.
 *
 * <p><b>Contract.</b> For every y in the tokenizer's domain, {@code encode(y)} follows the masks of {@link
 * #allowed} at every position; every sequence that follows the masks decodes to a finite number (or a special
 * value if the tokenizer has special tokens); every representable value has exactly one such spelling; {@code
 * interval(encode(y))} contains y (up to the tokenizer's rounding, which each implementation documents); {@code
 * |decode(encode(y)) - y|} is at most half the resolution at y.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface NumberTokenizer {

    /** Number of tokens per number, T. */
    int sequenceLength();

    /** Vocabulary size V (token ids are {@code 0..V-1}). */
    int vocabularySize();

    /**
     * The tokens for y.
     *
     * @return {@code [T]} token ids
     * @throws IllegalArgumentException if y is outside the domain (the message holds the value)
     */
    int[] encode(double y);

    /**
     * The number a full sequence stands for (the representative point of its interval).
     *
     * @param tokens {@code [T]} token ids
     * @throws IllegalArgumentException on a wrong length or an invalid sequence
     */
    double decode(int[] tokens);

    /** The numeric value of a token (a digit's value), or NaN for non-number tokens (signs, specials). */
    double tokenValue(int token);

    /** The values of all tokens, {@code [V]}. */
    default double[] tokenValues() {
        double[] v = new double[vocabularySize()];
        for (int i = 0; i < v.length; i++) {
            v[i] = tokenValue(i);
        }
        return v;
    }

    /**
     * Which tokens may come at {@code position} after {@code prefix}.
     *
     * @param position in {@code [0, T)}
     * @param prefix   the tokens at positions {@code 0..position-1} (at least {@code position} long; extra entries
     *                 are ignored)
     * @return {@code [V]}, true where allowed
     */
    boolean[] allowed(int position, int[] prefix);

    /** The y-range {@code [lo, hi)} of a full valid sequence, for densities. */
    Interval interval(int[] tokens);

    /** A printable form of a token, e.g. {@code "+"}, {@code "7"}, {@code "<nan>"}. */
    String tokenString(int token);

    /**
     * The place value of each position, {@code [T]}: what one unit of a token value at position t adds to the
     * magnitude it spells (base-B fraction digits: {@code B^-(t+1)}; mantissa digits: {@code B^-i} relative to the
     * leading one), NaN at positions that are no magnitude digits (signs, exponent digits); {@code null} when the
     * positions have no place values (the default, e.g. Hamming codes). Number-token losses use it (see {@code
     * TokenLogits.places}).
     *
     * @return a fresh array or null
     */
    default double[] placeValues() {
        return null;
    }
}
