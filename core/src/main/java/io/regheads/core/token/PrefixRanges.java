package io.regheads.core.token;

/**
 * A tokenizer whose every valid prefix stands for one contiguous value range, disjoint from its siblings', except
 * at most one {@link #detachedSequence()}. Decoders use it to walk the token tree in value order when token order
 * is not value order (a sign {@code -} reverses the digits after it): CDFs and quantiles by one walk down the tree,
 * the mean by expanding prefixes of known range, with no enumeration.
 *
 * <p><b>A facet of {@link NumberTokenizer}.</b> It extends the interface, so a caller that asks {@code tok
 * instanceof PrefixRanges ranges} holds the ranges and the whole tokenizer contract in one typed reference; a
 * tokenizer implements it only if it keeps the promise below (a tokenizer that does not has no prefix ranges, and
 * decoders enumerate its valid sequences). Implemented by the normalized digits ({@link FixedPointDigits}) and the
 * sign-exponent-mantissa tokens; not by Hamming codes (the completions of {@code 0 1} are bins 2 and 4, with bin 3
 * between them) nor by repetition codes (the intervals of sequences with one vote coincide).
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface PrefixRanges extends NumberTokenizer {

    /**
     * The y-range of a prefix: {@code [min lo, max hi)} over the intervals of all mask-following <b>number</b>
     * completions of the first {@code length} tokens of {@code prefix}, leaving out the {@link #detachedSequence()};
     * {@code null} if there is no such completion (a special token such as NaN, or a prefix whose only completion is
     * the detached sequence). The completions of every non-empty prefix fill this range without gaps and sibling
     * prefixes have disjoint ranges. For {@code length = T} it is {@link #interval} of a non-detached sequence.
     *
     * <p>Example (sign-exponent-mantissa, base 10, E=1, M=3): {@code + -} gives {@code [0.5e-9, 0.9995)}.
     *
     * @param prefix tokens, at least {@code length} long, following the masks
     * @param length number of leading tokens that form the prefix, in [0, T]
     * @return the range, or null as described
     * @throws IllegalArgumentException on a null or short prefix, a length outside [0, T] or a prefix that does not
     *                                  follow the masks (implementations)
     */
    Interval prefixRange(int[] prefix, int length);

    /**
     * The one valid sequence whose interval may lie outside the ranges of its proper prefixes ({@link #prefixRange}
     * leaves it out), or {@code null} if there is none (the default). Sign-exponent-mantissa tokens detach their
     * zero spelling {@code + + 0..0 0..0}: its interval {@code [-B^eMin/2, B^eMin/2)} sits between the negative and
     * the positive values, outside the range of {@code +} and of {@code + +}.
     *
     * @return {@code [T]} a fresh array, or null
     */
    default int[] detachedSequence() {
        return null;
    }
}
