package io.regheads.tokenizers;

import io.regheads.core.check.Checks;
import io.regheads.core.token.FixedPointDigits;
import io.regheads.core.token.Interval;
import java.util.Arrays;

/**
 * Fixed-point digits of y in [0, 1]: {@code d1..dK} are the base-B digits of the bin index
 * {@code i = floor(y * B^K)} (y = 1 goes to the last bin {@code B^K - 1}), after the decoding-regression paper.
 *
 * <p><b>Bins.</b> Bin i is {@code [lo_i, lo_{i+1})} with {@code lo_i = i / B^K} rounded to the nearest double (exact
 * for power-of-two bases). Encoding is exact with respect to those double edges: the double estimate
 * {@code floor(y * B^K)} is corrected by comparing y with the edges, so {@code encode(interval(t).lo())} gives t
 * back for every t. The last bin is {@code [lo_{N-1}, 1)} and also takes y = 1 (a measure-zero point).
 *
 * <p><b>Decode</b> returns the bin <em>centre</em> {@code (2i + 1) / (2 B^K)}; the authors' code returns the lower
 * edge, a systematic half-bin bias. {@code |decode(encode(y)) - y| <= B^-K / 2}. Density of y:
 * {@code P(d1..dK) * B^K}.
 *
 * <p><b>Vocabulary</b>: the B digits ({@code V = B}, token value = digit), {@code T = K}; every digit is allowed at
 * every position, so every sequence is valid and is the unique spelling of its bin.
 *
 * <p><b>Worked example</b> (B=10, K=3): {@code 0.7071 -> 7 0 7} (bin 707), decoded to 0.7075, interval
 * {@code [0.707, 0.708)}; {@code 1.0 -> 9 9 9}, decoded to 0.9995. (B=2, K=3): {@code 0.3 -> 0 1 0}, decoded to
 * 0.3125.
 *
 * <p><b>Capabilities</b>: every sequence is valid ({@link #everySequenceValid()}), the digits are fixed-point digits of
 * [0, 1] ({@link FixedPointDigits}: the prefix {@code d1..dL} covers bins {@code i B^(K-L) .. (i + 1) B^(K-L) - 1}
 * with {@code i = (d1..dL)}), so every prefix covers one range of bins ({@link #prefixRange}, no detached sequence).
 *
 * <p>Throws {@link IllegalArgumentException} for y outside [0, 1] or NaN (the message holds the value). Immutable and
 * thread-safe.
 */
public final class NormalizedTokenizer implements FixedPointDigits {
    private final NormalizedConfig config;
    private final int base;
    private final int length;
    private final long bins;
    private final double binsD;

    /** @throws IllegalArgumentException if config is null */
    public NormalizedTokenizer(NormalizedConfig config) {
        this.config = Checks.notNull("config", config);
        this.base = config.base();
        this.length = config.length();
        this.bins = config.bins();
        this.binsD = bins;
    }

    /** Convenience for {@code new NormalizedTokenizer(new NormalizedConfig(base, length))}. */
    public static NormalizedTokenizer of(int base, int length) {
        return new NormalizedTokenizer(new NormalizedConfig(base, length));
    }

    /** The configuration. */
    public NormalizedConfig config() {
        return config;
    }

    /** Number of bins {@code N = B^K}. */
    public long bins() {
        return bins;
    }

    /** Lower edge of bin i as a double: {@code i / B^K} correctly rounded. */
    public double lowerEdge(long i) {
        return i / binsD;
    }

    /**
     * The bin of y: the largest i with {@code lowerEdge(i) <= y}, and {@code N - 1} for y = 1.
     *
     * @throws IllegalArgumentException if y is not in [0, 1]
     */
    public long bin(double y) {
        Checks.inClosedRange("y", y, 0.0, 1.0);
        long i = (long) Math.floor(y * binsD);
        if (i > bins - 1) {
            i = bins - 1;
        }
        while (i > 0 && lowerEdge(i) > y) {
            i--;
        }
        while (i < bins - 1 && lowerEdge(i + 1) <= y) {
            i++;
        }
        return i;
    }

    /** The digits of bin index i. */
    public int[] tokensOfBin(long i) {
        Checks.require(i >= 0 && i < bins, "bin must be in [0, %d), got %d", bins, i);
        int[] t = new int[length];
        for (int k = length - 1; k >= 0; k--) {
            t[k] = (int) (i % base);
            i /= base;
        }
        return t;
    }

    /** The bin index of a digit sequence. */
    public long binOf(int[] tokens) {
        validate(tokens);
        long i = 0;
        for (int tok : tokens) {
            i = i * base + tok;
        }
        return i;
    }

    @Override
    public int sequenceLength() {
        return length;
    }

    @Override
    public int vocabularySize() {
        return base;
    }

    @Override
    public int[] encode(double y) {
        return tokensOfBin(bin(y));
    }

    @Override
    public double decode(int[] tokens) {
        long i = binOf(tokens);
        return (2 * i + 1) / (2 * binsD);
    }

    @Override
    public Interval interval(int[] tokens) {
        long i = binOf(tokens);
        return new Interval(lowerEdge(i), i == bins - 1 ? 1.0 : lowerEdge(i + 1));
    }

    /** {@code B^-(t+1)}: digit t is worth {@code d B^-(t+1)} of y (B = 10, K = 3: 0.1, 0.01, 0.001). */
    @Override
    public double[] placeValues() {
        double[] p = new double[length];
        double w = 1;
        for (int i = 0; i < length; i++) {
            w /= base;
            p[i] = w;
        }
        return p;
    }

    @Override
    public double tokenValue(int token) {
        Checks.inRange("token", token, 0, base - 1);
        return token;
    }

    @Override
    public boolean[] allowed(int position, int[] prefix) {
        Checks.inRange("position", position, 0, length - 1);
        Checks.notNull("prefix", prefix);
        boolean[] mask = new boolean[base];
        Arrays.fill(mask, true);
        return mask;
    }

    /** @return true: every digit is allowed at every position */
    @Override
    public boolean everySequenceValid() {
        return true;
    }

    /**
     * The bins under a prefix: {@code [lowerEdge(i B^(K-L)), lowerEdge((i + 1) B^(K-L)))}, i the prefix's digits
     * read in base B, with the high end 1 for the last bin; the empty prefix gives {@code [0, 1)}. Example (B=10,
     * K=3): {@code 7 0} gives {@code [0.7, 0.71)}, the union of the intervals of {@code 7 0 0 .. 7 0 9}.
     *
     * @param prefix digits, at least {@code length} long
     * @param length in [0, K]
     * @throws IllegalArgumentException if prefix is null or too short, length is outside [0, K], or a digit is
     *                                  outside [0, B)
     */
    @Override
    public Interval prefixRange(int[] prefix, int length) {
        Checks.notNull("prefix", prefix);
        Checks.inRange("length", length, 0, this.length);
        Checks.require(prefix.length >= length, "prefix must hold at least %d tokens, got %d", length, prefix.length);
        long i = 0;
        for (int p = 0; p < length; p++) {
            Checks.require(prefix[p] >= 0 && prefix[p] < base, "prefix[%d] must be in [0, %d), got %d", p, base,
                    prefix[p]);
            i = i * base + prefix[p];
        }
        long span = 1;
        for (int p = length; p < this.length; p++) {
            span *= base;
        }
        long first = i * span;
        long end = first + span; // first bin after the prefix's bins
        return new Interval(lowerEdge(first), end == bins ? 1.0 : lowerEdge(end));
    }

    /**
     * Every cell has the width {@code B^-K}: this width less two ulps of 1 (the edges {@code i / B^K} are rounded to
     * doubles), whatever the prefix; 0 if that is not positive.
     *
     * @throws IllegalArgumentException on a null or short prefix or a length outside [0, K]
     */
    @Override
    public double narrowestCell(int[] prefix, int length) {
        Checks.notNull("prefix", prefix);
        Checks.inRange("length", length, 0, this.length);
        Checks.require(prefix.length >= length, "prefix must hold at least %d tokens, got %d", length, prefix.length);
        return Math.max(0, 1.0 / binsD - 2 * Math.ulp(1.0));
    }

    @Override
    public String tokenString(int token) {
        Checks.inRange("token", token, 0, base - 1);
        return UnnormalizedTokenizer.digitString(token, base);
    }

    private void validate(int[] tokens) {
        Checks.notNull("tokens", tokens);
        Checks.require(tokens.length == length, "tokens must have length %d, got %d", length, tokens.length);
        for (int p = 0; p < length; p++) {
            Checks.require(tokens[p] >= 0 && tokens[p] < base, "tokens[%d] must be in [0, %d), got %d", p, base,
                    tokens[p]);
        }
    }

    @Override
    public String toString() {
        return "NormalizedTokenizer[" + config + "]";
    }
}
