package io.regheads.core.token;

import io.regheads.core.check.Checks;

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
 * <p><b>Capabilities.</b> Beyond the contract a tokenizer may declare structure that lets a decoder skip work;
 * callers ask the tokenizer (as torch.distributions asks {@code has_rsample}) instead of testing its class. Every
 * default is the conservative answer, always correct for any tokenizer that meets the contract:
 * <ul>
 *   <li>{@link #everySequenceValid()} (default false: masks are computed and applied);</li>
 *   <li>{@link #decodeSoft}: the number that per-position scores stand for (default the greedy choice among allowed
 *       tokens);</li>
 *   <li>{@link #hasSpecialTokens()}: NaN, +Infinity and -Infinity have spellings (default false: {@code encode}
 *       refuses them);</li>
 *   <li>{@link #narrowestCell}: a lower bound on the cell widths under a prefix, for density-ranked beam search
 *       (default 0, the bound that is always true);</li>
 *   <li>{@link #placeValues()}: what a unit of each position's token value adds (default null: none).</li>
 * </ul>
 *
 * <p><b>Facets.</b> Structure that only some tokenizers have, and that comes with its own methods, is a
 * sub-interface in this package, which a tokenizer implements when it keeps its promise; callers test it with
 * {@code instanceof} and get a typed reference (a tokenizer without it is treated as having none of that
 * structure):
 * <ul>
 *   <li>{@link PrefixRanges}: every prefix stands for one value range ({@code prefixRange}, {@code
 *       detachedSequence}), so decoders walk the token tree instead of enumerating it;</li>
 *   <li>{@link FixedPointDigits} (a {@code PrefixRanges}): base-V fixed-point digits of [0, 1], token order = value
 *       order, equal bins under every prefix;</li>
 *   <li>{@link Voting}: the sequence repeats one inner spelling, so copies vote ({@code repetitions}, {@code vote},
 *       {@code votedTokenizer}; {@link Voting#repetitionsOf} is 1 for every other tokenizer).</li>
 * </ul>
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
     * Whether every sequence of T tokens in {@code [0, V)} is valid: {@link #allowed} is true for every token at every
     * position after every prefix, so a softmax over the vocabulary needs no validity mask.
     *
     * <p>Default {@code false}: the masks are computed and applied, which is correct for every tokenizer (only
     * slower when nothing is masked). Normalized digits and Hamming codes answer {@code true}; sign-exponent-mantissa
     * tokens {@code false}.
     *
     * @return true only if no position ever masks a token
     */
    default boolean everySequenceValid() {
        return false;
    }

    /**
     * The number that per-position token probabilities stand for: position by position, the allowed token (after
     * the tokens chosen so far) with the largest score, ties to the smaller id, then {@link #decode}. A repetition
     * code ({@link Voting}) first sums each inner position's scores over its copies (a soft vote).
     *
     * <p>Default: the greedy choice above with one copy. Example (normalized, base 10, K = 2): rows {@code [0.1, 0.9,
     * 0, ...]} and {@code [0, 0, 0.6, 0.4, 0, ...]} choose {@code 1 2}, decoded to 0.125.
     *
     * @param probabilities {@code [T][V]} non-negative finite scores (probabilities, or any monotone score)
     * @return the decoded value
     * @throws IllegalArgumentException on a wrong shape, a non-finite score, or a position where no token is allowed
     */
    default double decodeSoft(double[][] probabilities) {
        int t = sequenceLength();
        int v = vocabularySize();
        Checks.notNull("probabilities", probabilities);
        Checks.require(probabilities.length == t, "probabilities must have %d rows, got %d", t, probabilities.length);
        int[] chosen = new int[t];
        for (int p = 0; p < t; p++) {
            Checks.notNull("probabilities[" + p + "]", probabilities[p]);
            Checks.require(probabilities[p].length == v, "probabilities[%d] must have length %d, got %d", p, v,
                    probabilities[p].length);
            Checks.allFinite("probabilities[" + p + "]", probabilities[p]);
            boolean[] allowed = allowed(p, chosen);
            int best = -1;
            for (int k = 0; k < v; k++) {
                if (allowed[k] && (best < 0 || probabilities[p][k] > probabilities[p][best])) {
                    best = k;
                }
            }
            Checks.require(best >= 0, "the tokenizer allows no token at position %d", p);
            chosen[p] = best;
        }
        return decode(chosen);
    }

    /**
     * Whether NaN, +Infinity and -Infinity have spellings: {@link #encode} accepts them, {@link #decode} returns them
     * and such sequences have no {@link #interval}. A decoder then learns their probabilities like any other
     * sequence's and reports them beside the distribution of the finite values.
     *
     * <p>Default {@code false}: {@code encode} refuses non-finite y. Sign-exponent-mantissa tokens built with special
     * tokens answer {@code true}, as does a repetition code of such an inner tokenizer. Example: with special tokens
     * (B = 10, E = 1, M = 3) {@code encode(NaN)} is {@code <nan> + 0 0 0 0}.
     *
     * @return true only if encode and decode handle NaN, +Infinity and -Infinity
     */
    default boolean hasSpecialTokens() {
        return false;
    }

    /**
     * A lower bound on the widths of the intervals of the number completions of a prefix (every valid full sequence
     * that starts with the first {@code length} tokens of {@code prefix} and decodes to a finite value, the {@link
     * PrefixRanges#detachedSequence()} included), for a beam search that ranks prefixes by the density a completion
     * can reach, {@code P(prefix) / narrowestCell}. {@code +Infinity} when the prefix has no number completion (a
     * special token: no density).
     *
     * <p>Default 0, a bound that is always true (a decoder then ranks prefixes by probability alone, which is the
     * density ranking when all cells have one width). Normalized digits and Hamming codes answer their common width
     * {@code B^-K}; sign-exponent-mantissa tokens the narrowest cell of the smallest exponent the prefix's range
     * reaches, e.g. B = 10, E = 1, M = 3: the prefix {@code + + 2} (values in [99.95, 999.5)) gives {@code 10^0 (1 +
     * 1/10) / 2 = 0.55}.
     *
     * @param prefix tokens, at least {@code length} long, following the masks
     * @param length number of leading tokens that form the prefix, in [0, T]
     * @return a value {@code >= 0}, possibly {@code +Infinity}
     * @throws IllegalArgumentException on a null or short prefix or a length outside [0, T]
     */
    default double narrowestCell(int[] prefix, int length) {
        Checks.notNull("prefix", prefix);
        Checks.inRange("length", length, 0, sequenceLength());
        Checks.require(prefix.length >= length, "prefix must hold at least %d tokens, got %d", length, prefix.length);
        return 0;
    }

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
