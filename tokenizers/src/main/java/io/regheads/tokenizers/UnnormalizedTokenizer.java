package io.regheads.tokenizers;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import io.regheads.core.token.PrefixRanges;
import io.regheads.tokenizers.internal.SignificantDigits;
import java.util.Arrays;

/**
 * Sign-exponent-mantissa tokens for any real y: {@code <s><se><e1..eE><m1..mM>} standing for
 * {@code y = s * (m1.m2...mM)_B * B^(se * e)}, after the decoding-regression paper (Song and Bahri).
 *
 * <p><b>Vocabulary</b> ({@code V = B + 2}, or {@code B + 5} with special tokens): ids {@code 0..B-1} are the digits
 * (token value = digit), {@code B} is {@code +}, {@code B+1} is {@code -}, then {@code <nan>}, {@code <+inf>},
 * {@code <-inf>} if enabled (token value NaN for signs and specials). Sequence length {@code T = 2 + E + M}.
 *
 * <p><b>Rounding</b> (exact, see {@link SignificantDigits}): round to the nearest representable value, ties away
 * from zero (half-up on the magnitude), with carry into the exponent; overflow clamps to the largest magnitude;
 * below the smallest normal {@code B^eMin} the value rounds to the nearer of 0 and {@code B^eMin} (so |y| below
 * {@code B^eMin / 2} flushes to zero). The design notes show truncation ({@code 1 2 3 4} below); this class rounds
 * to nearest, which halves the worst-case error to {@code q/2} with {@code q = B^(e-M+1)}.
 *
 * <p><b>Exponent range.</b> The E exponent digits could spell {@code |e| <= B^E - 1}, but decoded values must be
 * normal, finite doubles with distinct values, so the widest range is {@code [eMin, eMax]} with
 * {@code eMin = max(-(B^E-1), smallest e with B^e >= Double.MIN_NORMAL)} and
 * {@code eMax = min(B^E-1, largest e with B^(e+1) finite)}; e.g. B=10, E=3: {@code [-307, 307]}, B=10, E=1:
 * {@code [-9, 9]}. A configuration may narrow it ({@link UnnormalizedConfig#minExponent()},
 * {@link UnnormalizedConfig#maxExponent()}, e.g. fitted to training targets by {@link UnnormalizedConfig#fittedTo})
 * and forbid the sign {@code -} ({@link UnnormalizedConfig#negatives()}); eMin and eMax below are the configured
 * ends. The masks forbid exponent digits outside the range, the exponent sign {@code -} when eMin = 0 and the sign
 * {@code -} without negatives; a negative y then encodes as zero (outside the zero cell unless tiny).
 *
 * <p><b>Canonical spelling.</b> The exponent 0 is always spelled {@code +0..0}; {@code m1 != 0} for every non-zero
 * value; zero is the single sequence {@code + + 0..0 0..0} (both signs plus, exponent 0, mantissa 0), and -0.0
 * encodes to it too (decodes to +0.0). With special tokens, NaN / +Inf / -Inf are the special token followed by
 * {@code + 0..0 0..0}. Without them, encoding NaN or an infinity throws.
 *
 * <p><b>Masks</b> ({@link #allowed}): position 0 a sign (or special); position 1 an exponent sign ({@code +} only
 * after a special); exponent digits such that the exponent stays in {@code [0, eMax]} after {@code +} and in
 * {@code [1, -eMin]} after {@code -}; m1 in {@code 1..B-1}, or also 0 when sign, exponent sign are {@code +} and the
 * exponent is 0 (the zero spelling); after {@code m1 = 0} only zeros (and after a special only zeros).
 * Every mask-following sequence decodes, and {@code encode(decode(t)) = t}.
 *
 * <p><b>Interval</b> ({@link #interval}): the rounding cell, i.e. the y that encode to the sequence, so the cells of
 * all sequences tile the line and {@code P(sequence) / width} is a proper density. Width {@code q = B^(e-M+1)}
 * inside a decade, {@code q(1 + 1/B)/2} at the first mantissa of a decade (whose lower neighbour has the finer
 * quantum {@code q/B}); zero: {@code [-B^eMin/2, B^eMin/2)}; negative values: the mirror image (closed at the other
 * end, a measure-zero difference); the largest magnitude gets the finite {@code [v - q/2, v + q/2)} although
 * values beyond it clamp into it. Special sequences have no interval (throws).
 *
 * <p><b>Worked example</b> (B=10, E=3, M=4, {@link UnnormalizedConfig#decimal()}): {@code 1.23456789e-222 ->
 * + - 2 2 2 1 2 3 5} (1234.56789 rounds half-up to 1235; truncation would give {@code 1 2 3 4}), decoding to
 * 1.235e-222; {@code 999.96 -> + + 0 0 3 1 0 0 0} (carry to 1.000e3); {@code 1000 -> + + 0 0 3 1 0 0 0} and back to
 * exactly 1000; {@code -0.5 -> - - 0 0 1 5 0 0 0}.
 *
 * <p><b>Capabilities</b>: masks are needed (not {@link #everySequenceValid()}); token order is not value order (not
 * fixed-point digits), but every prefix covers one value range ({@link PrefixRanges}: {@link #prefixRange}) apart
 * from the zero spelling ({@link #detachedSequence()}), which lets decoders walk the tree for CDFs and quantiles;
 * special tokens as configured ({@link #hasSpecialTokens()}); a lower bound on the cell widths under a prefix
 * ({@link #narrowestCell}) for density-ranked beam search.
 *
 * <p>Immutable and thread-safe.
 */
public final class UnnormalizedTokenizer implements PrefixRanges {
    private final UnnormalizedConfig config;
    private final int base;
    private final int expDigits;
    private final int manDigits;
    private final int plus;
    private final int minus;
    private final int nan;
    private final int posInf;
    private final int negInf;
    private final int vocab;
    private final SignificantDigits sig;
    private final long[] expSpan; // expSpan[j] = B^(E-j-1)

    /** @throws IllegalArgumentException if config is null */
    public UnnormalizedTokenizer(UnnormalizedConfig config) {
        this.config = Checks.notNull("config", config);
        this.base = config.base();
        this.expDigits = config.exponentDigits();
        this.manDigits = config.mantissaDigits();
        this.plus = base;
        this.minus = base + 1;
        this.nan = config.specialTokens() ? base + 2 : -1;
        this.posInf = config.specialTokens() ? base + 3 : -1;
        this.negInf = config.specialTokens() ? base + 4 : -1;
        this.vocab = base + (config.specialTokens() ? 5 : 2);
        this.sig = new SignificantDigits(base, manDigits, config.minExponent(), config.maxExponent());
        this.expSpan = new long[expDigits];
        long span = 1;
        for (int j = expDigits - 1; j >= 0; j--) {
            expSpan[j] = span;
            span *= base;
        }
    }

    /** Convenience for {@code new UnnormalizedTokenizer(new UnnormalizedConfig(base, e, m, false))}. */
    public static UnnormalizedTokenizer of(int base, int exponentDigits, int mantissaDigits) {
        return new UnnormalizedTokenizer(new UnnormalizedConfig(base, exponentDigits, mantissaDigits, false));
    }

    /** The configuration. */
    public UnnormalizedConfig config() {
        return config;
    }

    /** The rounding arithmetic (base, M, usable exponent range). */
    public SignificantDigits digits() {
        return sig;
    }

    /** Token id of {@code +}. */
    public int plusToken() {
        return plus;
    }

    /** Token id of {@code -}. */
    public int minusToken() {
        return minus;
    }

    @Override
    public int sequenceLength() {
        return 2 + expDigits + manDigits;
    }

    @Override
    public int vocabularySize() {
        return vocab;
    }

    @Override
    public int[] encode(double y) {
        int[] t = new int[sequenceLength()];
        if (!Double.isFinite(y)) {
            Checks.require(config.specialTokens(),
                    "y must be finite (this tokenizer has no NaN/Inf tokens), got %s", y);
            t[0] = Double.isNaN(y) ? nan : (y > 0 ? posInf : negInf);
            t[1] = plus;
            return t;
        }
        SignificantDigits.Rounded r = sig.round(y);
        if (r.isZero() || y < 0 && !config.negatives()) {
            t[0] = plus;
            t[1] = plus;
            return t;
        }
        t[0] = y < 0 ? minus : plus;
        int e = r.exponent();
        t[1] = e < 0 ? minus : plus;
        long ae = Math.abs(e);
        for (int j = expDigits - 1; j >= 0; j--) {
            t[2 + j] = (int) (ae % base);
            ae /= base;
        }
        long n = r.mantissa();
        for (int i = manDigits - 1; i >= 0; i--) {
            t[2 + expDigits + i] = (int) (n % base);
            n /= base;
        }
        return t;
    }

    @Override
    public double decode(int[] tokens) {
        validate(tokens);
        int s = tokens[0];
        if (config.specialTokens() && s >= nan) {
            return s == nan ? Double.NaN : (s == posInf ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY);
        }
        long n = mantissa(tokens);
        if (n == 0) {
            return 0.0;
        }
        double v = sig.value(n, exponent(tokens));
        return s == minus ? -v : v;
    }

    @Override
    public Interval interval(int[] tokens) {
        validate(tokens);
        if (config.specialTokens() && tokens[0] >= nan) {
            throw new IllegalArgumentException(
                    "tokens must be a number sequence to have an interval, got special " + tokenString(tokens[0]));
        }
        long n = mantissa(tokens);
        if (n == 0) {
            return sig.zeroCell();
        }
        Interval c = sig.cell(n, exponent(tokens));
        return tokens[0] == minus ? new Interval(-c.hi(), -c.lo()) : c;
    }

    /**
     * NaN for the sign, the exponent sign and the E exponent digits; {@code B^-i} for mantissa digit i = 0..M-1
     * (the significand {@code m1.m2...mM} in units of its leading digit), e.g. B = 10, E = 1, M = 3: {@code [NaN,
     * NaN, NaN, 1, 0.1, 0.01]}.
     */
    @Override
    public double[] placeValues() {
        double[] p = new double[sequenceLength()];
        java.util.Arrays.fill(p, 0, 2 + expDigits, Double.NaN);
        double w = 1;
        for (int i = 0; i < manDigits; i++) {
            p[2 + expDigits + i] = w;
            w /= base;
        }
        return p;
    }

    @Override
    public double tokenValue(int token) {
        Checks.inRange("token", token, 0, vocab - 1);
        return token < base ? token : Double.NaN;
    }

    @Override
    public boolean[] allowed(int position, int[] prefix) {
        Checks.inRange("position", position, 0, sequenceLength() - 1);
        Checks.notNull("prefix", prefix);
        Checks.require(prefix.length >= position, "prefix must hold at least %d tokens, got %d", position,
                prefix.length);
        boolean[] mask = new boolean[vocab];
        for (int tok = 0; tok < vocab; tok++) {
            mask[tok] = isAllowed(position, prefix, tok);
        }
        return mask;
    }

    /** Whether {@code tok} may follow the (mask-following) prefix at position pos. */
    private boolean isAllowed(int pos, int[] prefix, int tok) {
        if (pos == 0) {
            return tok >= base && tok < vocab && (tok != minus || config.negatives());
        }
        boolean special = config.specialTokens() && prefix[0] >= nan;
        if (pos == 1) {
            return special ? tok == plus : (tok == plus || tok == minus && sig.minExponent() < 0);
        }
        if (tok >= base) {
            return false;
        }
        if (special) {
            return tok == 0;
        }
        if (pos < 2 + expDigits) {
            int j = pos - 2;
            long p = 0;
            for (int i = 2; i < pos; i++) {
                p = p * base + prefix[i];
            }
            long lo = prefix[1] == plus ? 0 : 1;
            long hi = prefix[1] == plus ? sig.maxExponent() : -(long) sig.minExponent();
            long low = (p * base + tok) * expSpan[j];
            long high = low + expSpan[j] - 1;
            return high >= lo && low <= hi;
        }
        int i = pos - 2 - expDigits;
        if (i == 0) {
            return tok != 0 || (prefix[0] == plus && prefix[1] == plus && exponentDigitsZero(prefix));
        }
        return prefix[2 + expDigits] != 0 || tok == 0;
    }

    private boolean exponentDigitsZero(int[] t) {
        for (int i = 2; i < 2 + expDigits; i++) {
            if (t[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private void validate(int[] tokens) {
        Checks.notNull("tokens", tokens);
        if (tokens.length != sequenceLength()) {
            throw new IllegalArgumentException(
                    "tokens must have length " + sequenceLength() + ", got " + tokens.length);
        }
        for (int p = 0; p < tokens.length; p++) {
            int tok = tokens[p];
            if (tok < 0 || tok >= vocab) {
                throw new IllegalArgumentException(
                        "tokens[" + p + "] must be in [0, " + vocab + "), got " + tok);
            }
            if (!isAllowed(p, tokens, tok)) {
                throw new IllegalArgumentException("tokens must follow the masks, got " + tokenString(tok)
                        + " at position " + p + " in " + Arrays.toString(tokens));
            }
        }
    }

    private long mantissa(int[] t) {
        long n = 0;
        for (int i = 0; i < manDigits; i++) {
            n = n * base + t[2 + expDigits + i];
        }
        return n;
    }

    private int exponent(int[] t) {
        long e = 0;
        for (int i = 0; i < expDigits; i++) {
            e = e * base + t[2 + i];
        }
        return (int) (t[1] == minus ? -e : e);
    }

    /**
     * The zero spelling {@code + + 0..0 0..0}: the one sequence whose cell {@link SignificantDigits#zeroCell()} is
     * not next to the cells of the other completions of its proper prefixes ({@code +}, {@code + +}, ...).
     *
     * @return {@code [T]} a fresh array
     */
    public int[] zeroSequence() {
        int[] z = new int[sequenceLength()];
        z[0] = plus;
        z[1] = plus;
        return z;
    }

    /**
     * Whether the first {@code length} tokens of {@code prefix} agree with {@link #zeroSequence()} (true for
     * {@code length = 0}).
     *
     * @throws IllegalArgumentException if prefix is null, shorter than length, or length is outside [0, T]
     */
    public boolean isZeroPrefix(int[] prefix, int length) {
        checkPrefix(prefix, length);
        for (int p = 0; p < length; p++) {
            if (prefix[p] != (p < 2 ? plus : 0)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The y-range of a prefix: {@code [min lo, max hi)} over the cells ({@link #interval}) of all mask-following
     * <b>non-zero number</b> completions of the first {@code length} tokens of {@code prefix}; {@code null} if there
     * is none (a prefix starting with a special token, or one whose only completion is the zero spelling).
     *
     * <p>Since the cells tile the line and value order inside a fixed pair of signs is the lexicographic order of
     * the exponent digits (reversed after an exponent sign {@code -}) followed by the mantissa digits (all reversed
     * after a sign {@code -}), the non-zero completions of every non-empty prefix fill their range without gaps, and
     * the ranges of sibling prefixes do not overlap. The zero sequence is the one exception: its cell
     * {@code [-B^eMin/2, B^eMin/2)} lies outside the range of its proper non-empty prefixes (see
     * {@link #isZeroPrefix}), which is why it is left out here; for the empty prefix it is exactly the gap between
     * the negative and the positive values. For {@code length = T} this is {@link #interval} of a non-zero
     * sequence.
     *
     * <p>Cost: O(T V) mask evaluations (two greedy completions per sign pair), no enumeration.
     *
     * <p>Example (B=10, E=1, M=3, exponents -9..9): {@code +} gives {@code [0.5e-9, 9.995e9)}; {@code + -} gives
     * {@code [0.5e-9, 0.9995)}; {@code + + 0} gives {@code [0.9995, 9.995)}; {@code - + 0 1} gives
     * {@code [-1.995, -0.9995)}.
     *
     * @param prefix tokens, at least {@code length} long, following the masks
     * @param length number of leading tokens that form the prefix, in [0, T]
     * @throws IllegalArgumentException if prefix is null or too short, length is outside [0, T], or the prefix does
     *                                  not follow the masks
     */
    @Override
    public Interval prefixRange(int[] prefix, int length) {
        return rangeFrom(maskFollowing(prefix, length), length);
    }

    /** @return {@link #zeroSequence()}, the one sequence {@link #prefixRange} leaves out */
    @Override
    public int[] detachedSequence() {
        return zeroSequence();
    }

    /** @return {@code config().specialTokens()}: NaN, +Inf and -Inf are spelled {@code <nan> + 0..0 0..0}, ... */
    @Override
    public boolean hasSpecialTokens() {
        return config.specialTokens();
    }

    /**
     * A lower bound on the cell widths of the number completions of a prefix: {@code q (1 + 1/B) / 2} with {@code q
     * = B^(e - M + 1)} the quantum of the smallest exponent e among the completions (the narrowest cell of a decade
     * is its first one, of width {@code q/2 + q/(2B)}; every other cell of the decade has width q, and larger
     * exponents have wider cells), less a relative 1e-12 for the rounding of the cell edges to doubles. The smallest
     * exponent is {@code minExponent} for a prefix of fewer than two tokens, otherwise that of the smallest-magnitude
     * completion (the exponent digits of a prefix that ends inside them completed downwards in magnitude); on the
     * zero path ({@link #isZeroPrefix}) at most the zero cell's width {@code B^minExponent}. Exact cases: a full
     * number sequence gives its own width, a prefix whose only completion is the zero spelling the zero cell's width;
     * a special token gives {@code +Infinity} (no number completion).
     *
     * <p>Example (B=10, E=1, M=3, exponents -9..9): {@code + + 2} (values in [99.95, 999.5)) gives {@code 10^0 * 1.1 /
     * 2 = 0.55}; {@code + -} (exponents -9..-1) gives {@code 10^-11 * 0.55}; {@code + +} (exponents 0..9, and zero)
     * gives the zero cell's width {@code 10^-9}.
     *
     * @throws IllegalArgumentException if prefix is null or too short, length is outside [0, T], or the prefix does
     *                                  not follow the masks
     */
    @Override
    public double narrowestCell(int[] prefix, int length) {
        int[] seq = maskFollowing(prefix, length);
        if (length >= 1 && config.specialTokens() && seq[0] >= nan) {
            return Double.POSITIVE_INFINITY;
        }
        if (length == sequenceLength()) {
            return interval(seq).width();
        }
        int m1 = 2 + expDigits;
        if (length > m1 && seq[m1] == 0) {
            return sig.zeroCell().width(); // only the zero spelling remains
        }
        int e = length < 2 ? sig.minExponent() : exponent(extreme(seq, length, seq[1] == minus, false));
        double bound = sig.quantum(e) * (1 + 1.0 / base) / 2 * (1 - 1e-12);
        return isZeroPrefix(seq, length) ? Math.min(bound, sig.zeroCell().width()) : bound;
    }

    /** A copy of prefix, of length T, once its first length tokens are checked to be in range and follow the masks. */
    private int[] maskFollowing(int[] prefix, int length) {
        checkPrefix(prefix, length);
        int[] seq = Arrays.copyOf(prefix, sequenceLength());
        for (int p = 0; p < length; p++) {
            if (!isAllowed(p, seq, seq[p])) {
                throw new IllegalArgumentException("prefix must follow the masks, got " + tokenString(seq[p])
                        + " at position " + p + " in " + Arrays.toString(Arrays.copyOf(prefix, length)));
            }
        }
        return seq;
    }

    private Interval rangeFrom(int[] seq, int length) {
        if (length < 2) { // branch over the (at most four) number sign pairs
            Interval out = null;
            for (int tok = plus; tok <= minus; tok++) {
                if (isAllowed(length, seq, tok)) {
                    seq[length] = tok;
                    out = union(out, rangeFrom(seq, length + 1));
                }
            }
            return out;
        }
        if (config.specialTokens() && seq[0] >= nan) {
            return null;
        }
        int m1 = 2 + expDigits;
        if (length > m1 && seq[m1] == 0) {
            return null; // only the zero spelling remains
        }
        // magnitude grows with the exponent digits after '+', shrinks after '-'; grows with the mantissa digits
        boolean expUp = seq[1] == plus;
        int[] small = extreme(seq, length, !expUp, false);
        int[] large = extreme(seq, length, expUp, true);
        Interval a = interval(small);
        Interval b = interval(large);
        return new Interval(Math.min(a.lo(), b.lo()), Math.max(a.hi(), b.hi()));
    }

    /** The greedy completion: largest (or smallest) allowed exponent digits, then mantissa digits; m1 != 0. */
    private int[] extreme(int[] prefix, int length, boolean largestExponent, boolean largestMantissa) {
        int[] s = prefix.clone();
        int m1 = 2 + expDigits;
        for (int p = length; p < s.length; p++) {
            boolean up = p < m1 ? largestExponent : largestMantissa;
            int chosen = -1;
            for (int tok = 0; tok < base; tok++) {
                if ((p != m1 || tok != 0) && isAllowed(p, s, tok) && (chosen < 0 || up)) {
                    chosen = tok;
                }
            }
            s[p] = chosen;
        }
        return s;
    }

    private static Interval union(Interval a, Interval b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : new Interval(Math.min(a.lo(), b.lo()), Math.max(a.hi(), b.hi()));
    }

    private void checkPrefix(int[] prefix, int length) {
        Checks.notNull("prefix", prefix);
        Checks.inRange("length", length, 0, sequenceLength());
        Checks.require(prefix.length >= length, "prefix must hold at least %d tokens, got %d", length, prefix.length);
        for (int p = 0; p < length; p++) {
            if (prefix[p] < 0 || prefix[p] >= vocab) {
                throw new IllegalArgumentException("prefix[" + p + "] must be in [0, " + vocab + "), got " + prefix[p]);
            }
        }
    }

    @Override
    public String tokenString(int token) {
        Checks.inRange("token", token, 0, vocab - 1);
        if (token < base) {
            return digitString(token, base);
        }
        if (token == plus) {
            return "+";
        }
        if (token == minus) {
            return "-";
        }
        return token == nan ? "<nan>" : (token == posInf ? "<+inf>" : "<-inf>");
    }

    /** A digit as text: {@code 0-9a-z} for bases up to 36, {@code <d>} above. */
    static String digitString(int d, int base) {
        return base <= 36 ? String.valueOf(Character.forDigit(d, base)) : "<" + d + ">";
    }

    @Override
    public String toString() {
        return "UnnormalizedTokenizer[" + config + ", exponents=[" + sig.minExponent() + ", " + sig.maxExponent()
                + "]]";
    }
}
