package io.regheads.tokenizers;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import java.util.Arrays;

/**
 * Binary code with K bits whose strings are ordered by number of ones, then by value: index i in {@code [0, 2^K)}
 * is the i-th string in that order. K=3 gives {@code 000, 001, 010, 100, 011, 101, 110, 111}, so index 3 is
 * {@code 100} and index 4 is {@code 011}. Bits are written most significant first (token 0 or 1, token value = bit).
 *
 * <p><b>Ranking.</b> Strings with c ones come after all {@code sum_{j<c} C(K, j)} strings with fewer ones; among
 * themselves numeric order equals colex order, whose rank is {@code sum_{j=1..c} C(p_j, j)} with
 * {@code p_1 < ... < p_c} the positions of the ones counted from the least significant bit. Unranking is the
 * greedy inverse.
 *
 * <p><b>As a number tokenizer</b> over y in [0, 1] it works like {@link NormalizedTokenizer} with B=2 and the same K
 * (bin {@code i = floor(y 2^K)}, decode to the bin centre, interval = the bin), but bin i is spelled with the i-th
 * Hamming-ordered string instead of the binary digits of i. Every K-bit string is valid (masks all true, {@link
 * #everySequenceValid()}). Token order is not value order, and a prefix does not cover a contiguous range (K=3: the
 * completions of {@code 0 1} are {@code 0 1 0} = bin 2 and {@code 0 1 1} = bin 4, with bin 3 = {@code 1 0 0}
 * between them), so it declares neither fixed-point digits nor prefix ranges.
 *
 * <p><b>Worked example</b> (K=3): y = 0.45 -> bin 3 -> {@code 1 0 0}, decoded to 0.4375, interval [0.375, 0.5);
 * y = 0.55 -> bin 4 -> {@code 0 1 1}.
 *
 * <p>K in [1, 52]. Throws {@link IllegalArgumentException} for y outside [0, 1] or NaN. Immutable and thread-safe.
 */
public final class HammingTokenizer implements NumberTokenizer {
    private final int bits;
    private final NormalizedTokenizer bins;
    private final long[][] binomial; // binomial[n][k] = C(n, k), n, k in [0, K]
    private final long[] countBefore; // countBefore[c] = sum_{j<c} C(K, j)

    /**
     * @param bits K in [1, 52]
     * @throws IllegalArgumentException if K is out of range
     */
    public HammingTokenizer(int bits) {
        this.bits = Checks.inRange("bits", bits, 1, 52);
        this.bins = new NormalizedTokenizer(new NormalizedConfig(2, bits));
        this.binomial = new long[bits + 1][bits + 1];
        for (int n = 0; n <= bits; n++) {
            binomial[n][0] = 1;
            for (int k = 1; k <= n; k++) {
                binomial[n][k] = binomial[n - 1][k - 1] + (k <= n - 1 ? binomial[n - 1][k] : 0);
            }
        }
        this.countBefore = new long[bits + 2];
        for (int c = 1; c <= bits + 1; c++) {
            countBefore[c] = countBefore[c - 1] + binomial[bits][c - 1];
        }
    }

    /** K, the number of bits. */
    public int bits() {
        return bits;
    }

    /**
     * The Hamming-ordered rank of a K-bit value (bits as an integer, most significant first in tokens).
     *
     * @throws IllegalArgumentException if value is outside {@code [0, 2^K)}
     */
    public long rank(long value) {
        Checks.require(value >= 0 && value < (1L << bits), "value must be in [0, 2^%d), got %d", bits, value);
        int c = Long.bitCount(value);
        long r = countBefore[c];
        int j = 0;
        for (int p = 0; p < bits; p++) {
            if ((value >>> p & 1) != 0) {
                j++;
                r += binomial[p][j];
            }
        }
        return r;
    }

    /**
     * The K-bit value with Hamming-ordered rank {@code index} (inverse of {@link #rank}).
     *
     * @throws IllegalArgumentException if index is outside {@code [0, 2^K)}
     */
    public long unrank(long index) {
        Checks.require(index >= 0 && index < (1L << bits), "index must be in [0, 2^%d), got %d", bits, index);
        int c = 0;
        while (countBefore[c + 1] <= index) {
            c++;
        }
        long r = index - countBefore[c];
        long value = 0;
        int p = bits - 1;
        for (int j = c; j >= 1; j--) {
            while (binomial[p][j] > r) {
                p--;
            }
            value |= 1L << p;
            r -= binomial[p][j];
            p--;
        }
        return value;
    }

    /** The K tokens of the index-th string. */
    public int[] encodeIndex(long index) {
        long v = unrank(index);
        int[] t = new int[bits];
        for (int k = 0; k < bits; k++) {
            t[k] = (int) (v >>> (bits - 1 - k) & 1);
        }
        return t;
    }

    /** The index of a K-token string. */
    public long decodeIndex(int[] tokens) {
        Checks.notNull("tokens", tokens);
        Checks.require(tokens.length == bits, "tokens must have length %d, got %d", bits, tokens.length);
        long v = 0;
        for (int k = 0; k < bits; k++) {
            Checks.require(tokens[k] == 0 || tokens[k] == 1, "tokens[%d] must be 0 or 1, got %d", k, tokens[k]);
            v = v << 1 | tokens[k];
        }
        return rank(v);
    }

    @Override
    public int sequenceLength() {
        return bits;
    }

    @Override
    public int vocabularySize() {
        return 2;
    }

    @Override
    public int[] encode(double y) {
        return encodeIndex(bins.bin(y));
    }

    @Override
    public double decode(int[] tokens) {
        return bins.decode(bins.tokensOfBin(decodeIndex(tokens)));
    }

    @Override
    public Interval interval(int[] tokens) {
        return bins.interval(bins.tokensOfBin(decodeIndex(tokens)));
    }

    @Override
    public double tokenValue(int token) {
        return Checks.inRange("token", token, 0, 1);
    }

    @Override
    public boolean[] allowed(int position, int[] prefix) {
        Checks.inRange("position", position, 0, bits - 1);
        Checks.notNull("prefix", prefix);
        boolean[] mask = new boolean[2];
        Arrays.fill(mask, true);
        return mask;
    }

    /** @return true: both bits are allowed at every position */
    @Override
    public boolean everySequenceValid() {
        return true;
    }

    /**
     * Every cell is a bin of width {@code 2^-K} (the normalized tokenizer's bound, see {@link
     * NormalizedTokenizer#narrowestCell}), whatever the prefix.
     *
     * @throws IllegalArgumentException on a null or short prefix or a length outside [0, K]
     */
    @Override
    public double narrowestCell(int[] prefix, int length) {
        Checks.notNull("prefix", prefix);
        Checks.inRange("length", length, 0, bits);
        Checks.require(prefix.length >= length, "prefix must hold at least %d tokens, got %d", length, prefix.length);
        return bins.narrowestCell(new int[bits], 0);
    }

    @Override
    public String tokenString(int token) {
        return String.valueOf(Checks.inRange("token", token, 0, 1));
    }

    @Override
    public String toString() {
        return "HammingTokenizer[bits=" + bits + "]";
    }
}
