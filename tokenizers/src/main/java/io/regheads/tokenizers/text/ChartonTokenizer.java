package io.regheads.tokenizers.text;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.tokenizers.internal.SignificantDigits;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Locale;

/**
 * The number encodings P10, P1000, B1999 and FP15 (see {@link ChartonScheme}) as a {@link NumberTokenizer}: y is
 * written {@code s ddd E x} = {@code s * ddd * 10^x} with {@code ddd} in 100..999 and x in [-8, 8].
 *
 * <p><b>Rounding</b> (exact, {@link SignificantDigits} with B=10, M=3): to the nearest representable value, ties away
 * from zero, with carry ({@code 999.5 -> 100 E+1}). Range: the largest magnitude {@code 999E+8 = 9.99e10}
 * (anything larger clamps to it), the smallest {@code 100E-8 = 1e-6}; |y| below {@code 5e-7} becomes zero, from
 * {@code 5e-7} up it becomes {@code 1e-6}. NaN and infinities throw.
 *
 * <p><b>Vocabulary</b> (ids): P10: {@code + - 0..9 E-8..E+8}; P1000: {@code + - 000..999 E-8..E+8}; B1999:
 * {@code +000, +100..+999, -100..-999, E-8..E+8}; FP15: {@code +000E+0} then {@code s ddd E x} for s in (+, -),
 * ddd in 100..999, x in -8..8 (x fastest). Token values: P10 a digit's value; P1000 the three-digit value; B1999 the
 * signed three-digit value; FP15 the whole number ({@code -602E-1} has value -60.2); NaN for signs and exponents.
 *
 * <p><b>Canonical spelling and masks</b>: the first mantissa digit (P10) or the three-digit token is non-zero except
 * in the single zero spelling ({@code + 0 0 0 E+0}), which needs the sign {@code +} and forces the zero digits and
 * {@code E+0}. Every mask-following sequence decodes and re-encodes to itself. Interval: the rounding cell, as in
 * {@link io.regheads.tokenizers.UnnormalizedTokenizer}.
 *
 * <p><b>Worked example</b>: -60.2 -> P10 {@code [-, 6, 0, 2, E-1]}, P1000 {@code [-, 602, E-1]}, B1999
 * {@code [-602, E-1]}, FP15 {@code [-602E-1]}; 3.14159 -> {@code + 3 1 4 E-2} (3.14); 30000 -> {@code + 3 0 0 E+2}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ChartonTokenizer implements NumberTokenizer {
    /** Smallest exponent x of {@code ddd * 10^x}. */
    public static final int MIN_EXP = -8;
    /** Largest exponent x of {@code ddd * 10^x}. */
    public static final int MAX_EXP = 8;
    private static final int EXPS = MAX_EXP - MIN_EXP + 1; // 17
    private static final SignificantDigits SIG = new SignificantDigits(10, 3, MIN_EXP + 2, MAX_EXP + 2);

    private final ChartonScheme scheme;
    private final int vocab;
    private final int expBase; // id of E-8 (not used by FP15)

    /** @throws IllegalArgumentException if scheme is null */
    public ChartonTokenizer(ChartonScheme scheme) {
        this.scheme = Checks.notNull("scheme", scheme);
        switch (scheme) {
            case P10 -> expBase = 12;
            case P1000 -> expBase = 1002;
            case B1999 -> expBase = 1801;
            default -> expBase = -1;
        }
        this.vocab = scheme == ChartonScheme.FP15 ? 1 + 1800 * EXPS : expBase + EXPS;
    }

    /** The token grouping. */
    public ChartonScheme scheme() {
        return scheme;
    }

    /** The largest representable magnitude, 9.99e10. */
    public static double largest() {
        return SIG.largest();
    }

    /** The smallest non-zero magnitude, 1e-6. */
    public static double smallest() {
        return SIG.smallest();
    }

    @Override
    public int sequenceLength() {
        return scheme.tokensPerNumber();
    }

    @Override
    public int vocabularySize() {
        return vocab;
    }

    /** The parts of a number: zero, or sign and ddd in [100, 999] and x in [-8, 8]. */
    private record Parts(boolean negative, int ddd, int x) {
        boolean zero() {
            return ddd == 0;
        }
    }

    @Override
    public int[] encode(double y) {
        Checks.finite("y", y);
        SignificantDigits.Rounded r = SIG.round(y);
        Parts p = r.isZero() ? new Parts(false, 0, 0) : new Parts(y < 0, (int) r.mantissa(), r.exponent() - 2);
        return spell(p);
    }

    private int[] spell(Parts p) {
        int sign = p.negative() ? 1 : 0;
        int exp = p.x() - MIN_EXP;
        return switch (scheme) {
            case P10 -> new int[] {sign, 2 + p.ddd() / 100, 2 + p.ddd() / 10 % 10, 2 + p.ddd() % 10, expBase + exp};
            case P1000 -> new int[] {sign, 2 + p.ddd(), expBase + exp};
            case B1999 -> new int[] {signedId(p), expBase + exp};
            case FP15 -> new int[] {p.zero() ? 0 : 1 + ((p.negative() ? 900 : 0) + p.ddd() - 100) * EXPS + exp};
        };
    }

    private static int signedId(Parts p) {
        if (p.zero()) {
            return 0;
        }
        return (p.negative() ? 900 : 0) + p.ddd() - 99;
    }

    /** Parses a valid sequence (masks checked) into its parts. */
    private Parts parse(int[] t) {
        Checks.notNull("tokens", t);
        if (t.length != sequenceLength()) {
            throw new IllegalArgumentException("tokens must have length " + sequenceLength() + ", got " + t.length);
        }
        for (int pos = 0; pos < t.length; pos++) {
            if (t[pos] < 0 || t[pos] >= vocab || !isAllowed(pos, t, t[pos])) {
                throw new IllegalArgumentException("tokens must follow the masks, got id " + t[pos] + " at position "
                        + pos + " in " + Arrays.toString(t));
            }
        }
        return switch (scheme) {
            case P10 -> new Parts(t[0] == 1, (t[1] - 2) * 100 + (t[2] - 2) * 10 + (t[3] - 2), t[4] - expBase + MIN_EXP);
            case P1000 -> new Parts(t[0] == 1, t[1] - 2, t[2] - expBase + MIN_EXP);
            case B1999 -> new Parts(t[0] > 900, t[0] == 0 ? 0 : (t[0] > 900 ? t[0] - 900 : t[0]) + 99,
                    t[1] - expBase + MIN_EXP);
            case FP15 -> fp15Parts(t[0]);
        };
    }

    private static Parts fp15Parts(int id) {
        if (id == 0) {
            return new Parts(false, 0, 0);
        }
        int k = id - 1;
        int exp = k % EXPS;
        int m = k / EXPS; // [0, 1800)
        return new Parts(m >= 900, m % 900 + 100, exp + MIN_EXP);
    }

    private boolean isAllowed(int pos, int[] prefix, int tok) {
        switch (scheme) {
            case P10: {
                if (pos == 0) {
                    return tok == 0 || tok == 1;
                }
                if (pos == 1) {
                    return tok >= 3 && tok <= 11 || (tok == 2 && prefix[0] == 0);
                }
                if (pos <= 3) {
                    return tok >= 2 && tok <= 11 && (prefix[1] != 2 || tok == 2);
                }
                return tok >= expBase && tok < expBase + EXPS && (prefix[1] != 2 || tok == expBase - MIN_EXP);
            }
            case P1000: {
                if (pos == 0) {
                    return tok == 0 || tok == 1;
                }
                if (pos == 1) {
                    return tok >= 102 && tok <= 1001 || (tok == 2 && prefix[0] == 0);
                }
                return tok >= expBase && tok < expBase + EXPS && (prefix[1] != 2 || tok == expBase - MIN_EXP);
            }
            case B1999: {
                if (pos == 0) {
                    return tok >= 0 && tok <= 1800;
                }
                return tok >= expBase && tok < expBase + EXPS && (prefix[0] != 0 || tok == expBase - MIN_EXP);
            }
            default:
                return tok >= 0 && tok < vocab;
        }
    }

    @Override
    public double decode(int[] tokens) {
        Parts p = parse(tokens);
        if (p.zero()) {
            return 0.0;
        }
        double v = SIG.value(p.ddd(), p.x() + 2);
        return p.negative() ? -v : v;
    }

    @Override
    public Interval interval(int[] tokens) {
        Parts p = parse(tokens);
        if (p.zero()) {
            return SIG.zeroCell();
        }
        Interval c = SIG.cell(p.ddd(), p.x() + 2);
        return p.negative() ? new Interval(-c.hi(), -c.lo()) : c;
    }

    @Override
    public double tokenValue(int token) {
        Checks.inRange("token", token, 0, vocab - 1);
        switch (scheme) {
            case P10:
                return token >= 2 && token <= 11 ? token - 2 : Double.NaN;
            case P1000:
                return token >= 2 && token <= 1001 ? token - 2 : Double.NaN;
            case B1999:
                return token <= 1800 ? (token > 900 ? -(token - 900 + 99) : (token == 0 ? 0 : token + 99))
                        : Double.NaN;
            default:
                Parts p = fp15Parts(token);
                return p.zero() ? 0.0 : (p.negative() ? -1 : 1) * SIG.value(p.ddd(), p.x() + 2);
        }
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

    private static String exponentString(int x) {
        return "E" + (x < 0 ? "-" : "+") + Math.abs(x);
    }

    @Override
    public String tokenString(int token) {
        Checks.inRange("token", token, 0, vocab - 1);
        if (scheme == ChartonScheme.FP15) {
            Parts p = fp15Parts(token);
            return (p.negative() ? "-" : "+") + String.format(Locale.ROOT, "%03d", p.ddd()) + exponentString(p.x());
        }
        if (token >= expBase) {
            return exponentString(token - expBase + MIN_EXP);
        }
        return switch (scheme) {
            case P10 -> token == 0 ? "+" : token == 1 ? "-" : String.valueOf(token - 2);
            case P1000 -> token == 0 ? "+" : token == 1 ? "-" : String.format(Locale.ROOT, "%03d", token - 2);
            default -> token == 0 ? "+000" : (token > 900 ? "-" + (token - 900 + 99) : "+" + (token + 99));
        };
    }

    /**
     * The decimal text of a valid sequence's value, exactly as spelled: {@code ddd * 10^x} without trailing zeros,
     * e.g. {@code -602 E-1 -> "-60.2"}, {@code 300 E+2 -> "30000"}, {@code 100 E-8 -> "0.000001"}, zero -> "0".
     */
    public String text(int[] tokens) {
        Parts p = parse(tokens);
        if (p.zero()) {
            return "0";
        }
        BigDecimal v = BigDecimal.valueOf(p.negative() ? -p.ddd() : p.ddd(), -p.x()).stripTrailingZeros();
        return v.toPlainString();
    }

    @Override
    public String toString() {
        return "ChartonTokenizer[" + scheme + "]";
    }
}
