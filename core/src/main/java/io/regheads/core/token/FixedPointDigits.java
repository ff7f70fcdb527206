package io.regheads.core.token;

/**
 * A tokenizer whose tokens are base-V fixed-point digits of y in [0, 1], V the vocabulary size and K the sequence
 * length: every sequence is valid ({@link #everySequenceValid()} is true), and the prefix {@code d1..dL} (token ids
 * read as digits, {@code i = (d1..dL)} in base V) covers the bins {@code i V^(K-L) .. (i + 1) V^(K-L) - 1} of width
 * {@code V^-K}, that is {@code [i V^-L, (i + 1) V^-L)} (edges rounded to doubles; the last cell ends at 1), with no
 * {@link #detachedSequence()}. So the sequences in lexicographic token order are sorted by value and partition [0,
 * 1] into equal bins: a decoder computes CDFs by summing the mass of smaller tokens, quantiles by one walk down the
 * tree, the mean by expanding prefixes of known width, and the marginal of the first k tokens is a histogram of
 * {@code V^k} equal bins, with no enumeration.
 *
 * <p><b>A marker facet.</b> It adds no method: {@link #prefixRange} (which it inherits from {@link PrefixRanges})
 * gives exactly the ranges above. A caller asks {@code tok instanceof FixedPointDigits}; a tokenizer that does not
 * implement it is assumed to have no value order. Example: normalized digits, base 10, K = 3: the prefix {@code 7 0}
 * covers bins 700..709, {@code [0.70, 0.71)}. Hamming codes spell the same bins in another order and are not fixed
 * point; nor is a repetition code of normalized digits.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface FixedPointDigits extends PrefixRanges {
}
