package io.regheads.tokenizers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.token.Interval;
import io.regheads.tokenizers.internal.SignificantDigits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class UnnormalizedTokenizerTest {

    /** Parses "+ - 2 2 2 1 2 3 5" with the tokenizer's own token strings. */
    private static int[] tokens(UnnormalizedTokenizer tok, String text) {
        String[] parts = text.trim().split(" ");
        int[] t = new int[parts.length];
        outer:
        for (int i = 0; i < parts.length; i++) {
            for (int v = 0; v < tok.vocabularySize(); v++) {
                if (tok.tokenString(v).equals(parts[i])) {
                    t[i] = v;
                    continue outer;
                }
            }
            throw new AssertionError("no token " + parts[i]);
        }
        return t;
    }

    @Test
    void workedExampleRoundsHalfUp() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(UnnormalizedConfig.decimal());
        // by hand: 1.23456789e-222 = 1234.56789 * 10^-225 -> mantissa 1235, exponent -222
        assertArrayEquals(tokens(tok, "+ - 2 2 2 1 2 3 5"), tok.encode(1.23456789e-222));
        assertEquals(1.235e-222, tok.decode(tok.encode(1.23456789e-222)), 0.0);
        assertArrayEquals(tokens(tok, "+ + 0 0 3 1 0 0 0"), tok.encode(999.96));
        assertArrayEquals(tokens(tok, "+ + 0 0 3 1 0 0 0"), tok.encode(1000));
        assertEquals(1000.0, tok.decode(tok.encode(1000)), 0.0);
        assertArrayEquals(tokens(tok, "- - 0 0 1 5 0 0 0"), tok.encode(-0.5));
        assertArrayEquals(tokens(tok, "+ + 0 0 0 0 0 0 0"), tok.encode(-0.0));
        assertEquals(12, tok.vocabularySize());
        assertEquals(9, tok.sequenceLength());
        // near-ties decided exactly (Python Decimal of the doubles): 1.2345 is 1.23449999... -> 1.234,
        // 2.6745 is 2.67450000...0995 -> 2.675
        assertArrayEquals(tokens(tok, "+ + 0 0 0 1 2 3 4"), tok.encode(1.2345));
        assertArrayEquals(tokens(tok, "+ + 0 0 0 2 6 7 5"), tok.encode(2.6745));
        // exact decimal tie 0.125 (dyadic) with M=2: half-up -> 0.13
        UnnormalizedTokenizer two = UnnormalizedTokenizer.of(10, 1, 2);
        assertArrayEquals(tokens(two, "+ - 1 1 3"), two.encode(0.125));
        assertArrayEquals(tokens(two, "- - 1 1 3"), two.encode(-0.125));
    }

    @Test
    void baseSixteenCarriesAndPrintsHexDigits() {
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(16, 1, 2);
        // 255.5 = 0xff.8: two hex digits at exponent 1 give 0xff.8 / 16 = 15.97 -> rounds to 16 = B^M -> carry
        assertArrayEquals(tokens(tok, "+ + 2 1 0"), tok.encode(255.5));
        assertArrayEquals(tokens(tok, "+ + 1 f f"), tok.encode(255.4));
        assertEquals(255.0, tok.decode(tokens(tok, "+ + 1 f f")), 0.0);
        assertEquals("a", tok.tokenString(10));
    }

    /** Exact ties (n + 1/2) * B^s, representable as doubles, round away from zero, with carry at the top. */
    @Test
    void exactTiesRoundAwayFromZero() {
        for (int base : new int[] {2, 3, 10, 12}) {
            UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(base, 3, 3); // exponents up to 7 even for B=2
            SignificantDigits sd = tok.digits();
            for (long n = sd.lowMantissa(); n < sd.highMantissa(); n++) {
                for (int s = -3; s <= 4; s++) {
                    // (2n + 1) / 2 * B^s: exact in double for these small sizes when s >= 0 or B is a power of 2
                    if (s < 0 && base != 2) {
                        continue;
                    }
                    double y = (2 * n + 1) / 2.0 * Math.pow(base, s);
                    long expectN = n + 1;
                    int expectE = s + 2;
                    if (expectN == sd.highMantissa()) {
                        expectN = sd.lowMantissa();
                        expectE++;
                    }
                    double expected = expectN * Math.pow(base, expectE - 2);
                    assertEquals(expected, tok.decode(tok.encode(y)), 0.0, "base " + base + " tie " + y);
                    assertEquals(-expected, tok.decode(tok.encode(-y)), 0.0, "base " + base + " tie " + -y);
                }
            }
        }
    }

    @Test
    void exactPowersOfTheBaseRoundTrip() {
        for (int base : new int[] {2, 3, 10, 16}) {
            UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(base, 3, 4);
            SignificantDigits sd = tok.digits();
            for (int e = sd.minExponent(); e <= sd.maxExponent(); e++) {
                // the correctly rounded double nearest to base^e: parsed for base 10, exact for powers of two,
                // and for base 3 from exact rational arithmetic
                double p = switch (base) {
                    case 10 -> Double.parseDouble("1e" + e);
                    case 2, 16 -> Math.scalb(1.0, e * (base == 2 ? 1 : 4));
                    default -> new java.math.BigDecimal(ExactRational.of(1, 3, e).num()).divide(
                            new java.math.BigDecimal(ExactRational.of(1, 3, e).den()),
                            java.math.MathContext.DECIMAL128).doubleValue();
                };
                int[] t = tok.encode(p);
                assertEquals(p, tok.decode(t), 0.0, "base " + base + " e " + e);
                assertEquals(1, t[2 + 3], "leading mantissa digit of " + p);
                assertEquals(e, (t[1] == tok.minusToken() ? -1 : 1) * ((t[2] * base + t[3]) * base + t[4]));
            }
        }
    }

    @Test
    void rangeFollowsDoublesWhenExponentDigitsAllowMore() {
        SignificantDigits sd = new UnnormalizedTokenizer(UnnormalizedConfig.decimal()).digits();
        assertEquals(-307, sd.minExponent());
        assertEquals(307, sd.maxExponent());
        SignificantDigits small = UnnormalizedTokenizer.of(10, 1, 4).digits();
        assertEquals(-9, small.minExponent());
        assertEquals(9, small.maxExponent());
        assertEquals(9.999e9, small.largest(), 0.0);
        assertEquals(1e-9, small.smallest(), 0.0);
    }

    @Test
    void overflowClampsAndUnderflowRoundsToNearest() {
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(10, 1, 4);
        assertEquals(9.999e9, tok.decode(tok.encode(1e300)), 0.0);
        assertEquals(-9.999e9, tok.decode(tok.encode(-9.9995e9)), 0.0);
        assertEquals(9.999e9, tok.decode(tok.encode(Math.nextDown(9.9995e9))), 0.0);
        // the double 0.5e-9 is 5.00000000000000031e-10 (Python Decimal), just above half the smallest value
        assertEquals(1e-9, tok.decode(tok.encode(0.5e-9)), 0.0);
        assertEquals(0.0, tok.decode(tok.encode(Math.nextDown(0.5e-9))), 0.0);
        assertEquals(0.0, tok.decode(tok.encode(Double.MIN_VALUE)), 0.0);
        assertEquals(1e-9, tok.decode(tok.encode(0.99e-9)), 0.0);
    }

    /**
     * A range fitted to targets: exponents of the rounded non-zero targets (margin added, 0 included), negatives only
     * if a target is negative; the masks forbid the rest; values beyond clamp, negatives without the sign encode as
     * zero (outside the zero cell, so a decoder gives them no density).
     */
    @Test
    void fittedRangeMasksUnseenExponentsAndSigns() {
        UnnormalizedConfig wide = new UnnormalizedConfig(10, 1, 3, false);
        assertEquals(-9, wide.minExponent());
        assertEquals(9, wide.maxExponent());
        assertTrue(wide.negatives());
        UnnormalizedConfig airfoil = wide.fittedTo(new double[] {103.4, 140.9, 120, Double.NaN}, 0);
        assertEquals(new UnnormalizedConfig(10, 1, 3, false, 0, 2, false), airfoil);
        assertEquals(new UnnormalizedConfig(10, 1, 3, false, -1, 3, false), wide.fittedTo(new double[] {103.4, 140.9}, 1));
        // 9.9996 rounds to 10.0 (exponent 1); -0.02 has exponent -2; zero is ignored
        assertEquals(new UnnormalizedConfig(10, 1, 3, false, -2, 1, true),
                wide.fittedTo(new double[] {-0.02, 9.9996, 0.0}, 0));
        assertEquals(-9, wide.fittedTo(new double[] {2e-9}, 3).minExponent()); // clipped to the widest range
        assertEquals(-3, wide.fittedTo(new double[] {1e-30}, 3).minExponent()); // rounds to zero: ignored
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(airfoil);
        int plus = tok.plusToken();
        int minus = tok.minusToken();
        assertFalse(tok.allowed(0, new int[0])[minus]);
        assertTrue(tok.allowed(0, new int[0])[plus]);
        assertFalse(tok.allowed(1, new int[] {plus})[minus]); // eMin = 0: no negative exponents
        boolean[] e1 = tok.allowed(2, new int[] {plus, plus});
        assertTrue(e1[0] && e1[1] && e1[2] && !e1[3] && !e1[9]);
        assertEquals(999.0, tok.decode(tok.encode(5e4)), 0.0); // overflow clamps to 9.99e2
        assertEquals(0.0, tok.decode(tok.encode(-3.0)), 0.0);
        assertFalse(tok.interval(tok.encode(-3.0)).contains(-3.0));
        assertEquals(0.0, tok.decode(tok.encode(0.4)), 0.0); // below B^0 / 2 flushes to zero
        assertEquals(1.0, tok.decode(tok.encode(0.6)), 0.0);
        // the lowest exponent's first cell reaches down to the flush boundary B^0 / 2
        assertEquals(new Interval(0.5, 9.995), tok.prefixRange(new int[] {plus, plus, 0}, 3));
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedConfig(10, 1, 3, false, 1, 2, true));
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedConfig(10, 1, 3, false, -10, 2, true));
        assertThrows(IllegalArgumentException.class, () -> wide.fittedTo(new double[] {Double.NaN}, 0));
        assertThrows(IllegalArgumentException.class, () -> wide.fittedTo(new double[] {1}, -1));
    }

    static Stream<Arguments> configs() {
        return Stream.of(
                Arguments.of(new UnnormalizedConfig(10, 3, 4, false)),
                Arguments.of(new UnnormalizedConfig(10, 1, 4, false)),
                Arguments.of(new UnnormalizedConfig(3, 1, 2, false)),
                Arguments.of(new UnnormalizedConfig(16, 2, 3, true)),
                Arguments.of(new UnnormalizedConfig(2, 4, 8, false)),
                Arguments.of(new UnnormalizedConfig(7, 4, 6, false)));
    }

    /**
     * 10^6 seeded doubles per config: the decoded value is within half the resolution of y (a few ulps of slack for
     * the double products of non-exact powers), the spelling re-encodes to itself, and the interval holds y.
     */
    @ParameterizedTest
    @MethodSource("configs")
    void millionRandomDoublesRoundTrip(UnnormalizedConfig config) {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(config);
        SignificantDigits sd = tok.digits();
        double largest = sd.largest();
        double smallest = sd.smallest();
        SplittableRandom rng = new SplittableRandom(20261122L + config.hashCode());
        double q = sd.quantum(sd.maxExponent());
        // the extremes and their neighbours first: largest, the clamp boundary largest + q/2, smallest, the
        // underflow boundary smallest/2, and the double extremes
        double[] edges = {largest, largest + q / 2, smallest, smallest / 2, Double.MAX_VALUE, Double.MIN_VALUE,
            Double.MIN_NORMAL, 0.0};
        double[] fixed = new double[edges.length * 6];
        for (int k = 0; k < edges.length; k++) {
            double v = edges[k];
            double up = Math.min(Math.nextUp(v), Double.MAX_VALUE);
            double down = Math.nextDown(Math.max(v, Double.MIN_VALUE));
            double[] around = {v, up, down, -v, -up, -down};
            System.arraycopy(around, 0, fixed, 6 * k, 6);
        }
        for (int i = 0; i < 1_000_000; i++) {
            double y = i < fixed.length ? fixed[i] : Samples.mixed(rng, config.base(), smallest / 4, largest * 4);
            int[] t = tok.encode(y);
            double d = tok.decode(t);
            double a = Math.abs(y);
            if (a >= largest) {
                assertEquals(Math.copySign(largest, y), d, 0.0, () -> "clamp " + y);
                continue;
            }
            double halfRes;
            if (d == 0 || Math.abs(d) == smallest) {
                halfRes = smallest / 2; // the gap between zero and the smallest normal
            } else {
                int e = (int) Math.floor(Math.log(Math.abs(d)) / Math.log(config.base()) + 1e-9);
                halfRes = 0.5 * Math.pow(config.base(), e - config.mantissaDigits() + 1);
            }
            double slack = 4 * Math.ulp(a);
            assertTrue(Math.abs(d - y) <= halfRes + slack, () -> "y=" + y + " decoded " + d);
            if (d != 0) {
                assertEquals(Math.signum(y), Math.signum(d), () -> "sign of " + y);
            }
            assertArrayEquals(t, tok.encode(d), () -> "re-encode of " + d + " from " + y);
            Interval cell = tok.interval(t);
            assertTrue(cell.lo() - slack <= y && y <= cell.hi() + slack, () -> "interval " + cell + " for " + y);
        }
    }

    /** 20 000 seeded doubles per config checked against a naive exact nearest-neighbour reference. */
    @ParameterizedTest
    @MethodSource("configs")
    void encodeIsTheExactNearestValue(UnnormalizedConfig config) {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(config);
        SignificantDigits sd = tok.digits();
        int base = config.base();
        int m = config.mantissaDigits();
        long low = sd.lowMantissa();
        long high = sd.highMantissa();
        SplittableRandom rng = new SplittableRandom(7L + config.hashCode());
        for (int i = 0; i < 20_000; i++) {
            double y = Samples.mixed(rng, base, sd.smallest() / 4, sd.largest() * 4);
            int[] t = tok.encode(y);
            ExactRational ay = ExactRational.ofDouble(y);
            // read the tokens back independently
            long n = 0;
            for (int k = 0; k < m; k++) {
                n = n * base + t[2 + config.exponentDigits() + k];
            }
            int e = 0;
            for (int k = 0; k < config.exponentDigits(); k++) {
                e = e * base + t[2 + k];
            }
            if (t[1] == tok.minusToken()) {
                e = -e;
            }
            ExactRational v = n == 0 ? ExactRational.of(0, base, 0) : ExactRational.of(n, base, e - m + 1);
            // neighbours: the previous and next representable magnitudes
            List<ExactRational> others = new ArrayList<>();
            if (n == 0) {
                others.add(ExactRational.of(low, base, sd.minExponent() - m + 1));
            } else {
                if (n + 1 < high) {
                    others.add(ExactRational.of(n + 1, base, e - m + 1));
                } else if (e < sd.maxExponent()) {
                    others.add(ExactRational.of(low, base, e + 1 - m + 1));
                }
                if (n > low) {
                    others.add(ExactRational.of(n - 1, base, e - m + 1));
                } else if (e > sd.minExponent()) {
                    others.add(ExactRational.of(high - 1, base, e - 1 - m + 1));
                } else {
                    others.add(ExactRational.of(0, base, 0));
                }
            }
            ExactRational dv = ay.distance(v);
            for (ExactRational o : others) {
                int c = dv.compareTo(ay.distance(o));
                boolean ok = c < 0 || (c == 0 && v.compareTo(o) > 0); // ties away from zero
                assertTrue(ok, () -> "y=" + y + " encoded " + Arrays.toString(t) + " but a neighbour is nearer");
            }
        }
    }

    private static List<int[]> enumerate(UnnormalizedTokenizer tok) {
        List<int[]> out = new ArrayList<>();
        walk(tok, new int[tok.sequenceLength()], 0, out);
        return out;
    }

    private static void walk(UnnormalizedTokenizer tok, int[] prefix, int pos, List<int[]> out) {
        if (pos == prefix.length) {
            out.add(prefix.clone());
            return;
        }
        boolean[] mask = tok.allowed(pos, prefix);
        for (int v = 0; v < mask.length; v++) {
            if (mask[v]) {
                prefix[pos] = v;
                walk(tok, prefix, pos + 1, out);
            }
        }
    }

    @Test
    void everyMaskFollowingSequenceDecodesAndReEncodesToItself() {
        for (UnnormalizedConfig c : List.of(new UnnormalizedConfig(3, 1, 2, false), new UnnormalizedConfig(3, 1, 2,
                true), new UnnormalizedConfig(10, 1, 2, false), new UnnormalizedConfig(2, 2, 3, false),
                new UnnormalizedConfig(10, 1, 2, false).withRange(-2, 1, false),
                new UnnormalizedConfig(2, 2, 3, true).withRange(0, 2, true))) {
            UnnormalizedTokenizer tok = new UnnormalizedTokenizer(c);
            List<int[]> all = enumerate(tok);
            // count by hand: zero + 2 signs * (exponents 0..eMax and 1..-eMin) * (B-1) B^(M-1) mantissas (+3 specials)
            long exps = tok.digits().maxExponent() + 1L - tok.digits().minExponent();
            long mants = (long) (c.base() - 1) * (long) Math.pow(c.base(), c.mantissaDigits() - 1);
            assertEquals(1 + (c.negatives() ? 2 : 1) * exps * mants + (c.specialTokens() ? 3 : 0), all.size(),
                    c.toString());
            List<Interval> cells = new ArrayList<>();
            for (int[] t : all) {
                double d = tok.decode(t);
                if (Double.isNaN(d)) {
                    assertArrayEquals(t, tok.encode(Double.NaN));
                    continue;
                }
                assertArrayEquals(t, tok.encode(d), () -> "sequence " + Arrays.toString(t) + " -> " + d);
                if (Double.isFinite(d)) {
                    cells.add(tok.interval(t));
                }
            }
            // the cells tile [-(max + q/2), max + q/2) without gaps or overlaps
            cells.sort(Comparator.comparingDouble(Interval::lo));
            for (int k = 1; k < cells.size(); k++) {
                assertEquals(cells.get(k - 1).hi(), cells.get(k).lo(), 1e-12 * Math.abs(cells.get(k).lo()),
                        c + " cells " + cells.get(k - 1) + " " + cells.get(k));
            }
        }
    }

    /**
     * Brute force: for every mask-following prefix of small configurations, the cells of its non-zero number
     * completions, sorted, tile exactly {@code prefixRange} (no gap), and sibling ranges do not overlap.
     */
    @Test
    void prefixRangesEqualTheUnionOfTheCompletionCells() {
        for (UnnormalizedConfig c : List.of(new UnnormalizedConfig(3, 1, 2, false), new UnnormalizedConfig(3, 1, 2,
                true), new UnnormalizedConfig(2, 2, 3, false), new UnnormalizedConfig(4, 1, 1, false),
                new UnnormalizedConfig(10, 1, 2, false), new UnnormalizedConfig(10, 1, 2, false).withRange(-2, 1, false),
                new UnnormalizedConfig(2, 2, 3, true).withRange(0, 2, true))) {
            UnnormalizedTokenizer tok = new UnnormalizedTokenizer(c);
            List<int[]> all = enumerate(tok);
            int t = tok.sequenceLength();
            int[] zero = tok.zeroSequence();
            assertEquals(0.0, tok.decode(zero));
            int checked = 0;
            for (int len = 0; len <= t; len++) {
                // distinct prefixes of this length, each with its completions' cells (zero left out)
                java.util.Map<String, List<Interval>> byPrefix = new java.util.LinkedHashMap<>();
                java.util.Map<String, int[]> prefixes = new java.util.HashMap<>();
                for (int[] s : all) {
                    String key = Arrays.toString(Arrays.copyOf(s, len));
                    prefixes.putIfAbsent(key, s);
                    List<Interval> cells = byPrefix.computeIfAbsent(key, k -> new ArrayList<>());
                    double v = tok.decode(s);
                    if (Double.isFinite(v) && !Arrays.equals(s, zero)) {
                        cells.add(tok.interval(s));
                    }
                }
                java.util.Map<String, List<Interval>> siblings = new java.util.HashMap<>();
                for (java.util.Map.Entry<String, List<Interval>> e : byPrefix.entrySet()) {
                    int[] s = prefixes.get(e.getKey());
                    List<Interval> cells = e.getValue();
                    Interval r = tok.prefixRange(s, len);
                    boolean zeroPrefix = true;
                    for (int p = 0; p < len; p++) {
                        zeroPrefix &= s[p] == zero[p];
                    }
                    assertEquals(zeroPrefix, tok.isZeroPrefix(s, len));
                    if (cells.isEmpty()) {
                        assertEquals(null, r, c + " prefix " + e.getKey());
                        continue;
                    }
                    if (len == 0 && c.negatives()) { // the root: the zero cell sits between the negative and positive values
                        cells.add(tok.interval(zero));
                    }
                    cells.sort(Comparator.comparingDouble(Interval::lo));
                    String where = c + " prefix " + e.getKey();
                    assertEquals(cells.get(0).lo(), r.lo(), 0.0, where);
                    assertEquals(cells.get(cells.size() - 1).hi(), r.hi(), 0.0, where);
                    for (int k = 1; k < cells.size(); k++) {
                        assertEquals(cells.get(k - 1).hi(), cells.get(k).lo(), 1e-12 * Math.abs(cells.get(k).lo()),
                                where + " gap");
                    }
                    if (len > 0) {
                        String parent = Arrays.toString(Arrays.copyOf(s, len - 1));
                        for (Interval o : siblings.computeIfAbsent(parent, k -> new ArrayList<>())) {
                            assertTrue(r.hi() <= o.lo() || o.hi() <= r.lo(), where + " overlaps sibling " + o);
                        }
                        siblings.get(parent).add(r);
                    }
                    checked++;
                }
            }
            assertTrue(checked > all.size(), c + ": checked " + checked);
        }
    }

    @Test
    void prefixRangeWorkedExamples() {
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(10, 1, 3); // exponents -9..9
        // by hand: smallest normal 1e-9, its cell starts at half of it (the zero cell's end); largest 9.99e9 with
        // quantum 1e7; 1.00 has the lower neighbour 0.999 (quantum 1e-3), so its cell starts at 1 - 0.0005
        assertRange(0.5e-9, 9.995e9, tok.prefixRange(tokens(tok, "+"), 1));
        assertRange(0.5e-9, 0.9995, tok.prefixRange(tokens(tok, "+ -"), 2));
        assertRange(0.9995, 9.995, tok.prefixRange(tokens(tok, "+ + 0"), 3));
        assertRange(-1.995, -0.9995, tok.prefixRange(tokens(tok, "- + 0 1"), 4));
        assertRange(-9.995e9, 9.995e9, tok.prefixRange(new int[0], 0));
        assertEquals(null, tok.prefixRange(tokens(tok, "+ + 0 0"), 4)); // only the zero spelling is left
        assertEquals(tok.interval(tokens(tok, "- - 3 2 5 0")), tok.prefixRange(tokens(tok, "- - 3 2 5 0"), 6));
        assertTrue(tok.isZeroPrefix(tokens(tok, "+ + 0"), 3));
        assertTrue(!tok.isZeroPrefix(tokens(tok, "+ + 0 1"), 4));
        UnnormalizedTokenizer sp = new UnnormalizedTokenizer(UnnormalizedConfig.tiny().withSpecialTokens(true));
        assertEquals(null, sp.prefixRange(tokens(sp, "<nan>"), 1));
        assertThrows(IllegalArgumentException.class, () -> tok.prefixRange(tokens(tok, "+ - 0"), 3)); // e = -0
        assertThrows(IllegalArgumentException.class, () -> tok.prefixRange(new int[2], 3));
        assertThrows(IllegalArgumentException.class, () -> tok.prefixRange(null, 0));
        assertThrows(IllegalArgumentException.class, () -> tok.isZeroPrefix(new int[] {99}, 1));
    }

    private static void assertRange(double lo, double hi, Interval r) {
        assertEquals(lo, r.lo(), 1e-12 * Math.abs(lo), "lo of " + r);
        assertEquals(hi, r.hi(), 1e-12 * Math.abs(hi), "hi of " + r);
    }

    @Test
    void sequencesOutsideTheMasksAreRejected() {
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(3, 1, 2);
        int v = tok.vocabularySize();
        int valid = 0;
        int[] t = new int[5];
        for (int code = 0; code < Math.pow(v, 5); code++) {
            int c = code;
            for (int p = 4; p >= 0; p--) {
                t[p] = c % v;
                c /= v;
            }
            try {
                tok.decode(t);
                valid++;
            } catch (IllegalArgumentException expected) {
                assertTrue(expected.getMessage().contains("tokens"), expected.getMessage());
            }
        }
        assertEquals(61, valid); // 1 zero + 2 signs * 5 exponents (+0..2, -1..2) * 6 mantissas
        // a leading zero digit with a non-zero exponent would be a second spelling of zero
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> tok.decode(new int[] {3, 3, 1, 0, 0}));
        assertTrue(ex.getMessage().contains("position 3"), ex.getMessage());
        // "-0" exponent is not canonical
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[] {3, 4, 0, 1, 0}));
    }

    @Test
    void specialTokens() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(UnnormalizedConfig.decimal().withSpecialTokens(true));
        assertEquals(15, tok.vocabularySize());
        assertEquals("<nan>", tok.tokenString(tok.encode(Double.NaN)[0]));
        assertTrue(Double.isNaN(tok.decode(tok.encode(Double.NaN))));
        assertEquals(Double.POSITIVE_INFINITY, tok.decode(tok.encode(Double.POSITIVE_INFINITY)));
        assertEquals(Double.NEGATIVE_INFINITY, tok.decode(tok.encode(Double.NEGATIVE_INFINITY)));
        assertThrows(IllegalArgumentException.class, () -> tok.interval(tok.encode(Double.NaN)));
        double[] values = tok.tokenValues();
        for (int d = 0; d < 10; d++) {
            assertEquals(d, values[d], 0.0);
        }
        for (int s = 10; s < 15; s++) {
            assertTrue(Double.isNaN(values[s]));
        }
    }

    @Test
    void invalidInputNamesTheValue() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(UnnormalizedConfig.decimal());
        IllegalArgumentException nan = assertThrows(IllegalArgumentException.class, () -> tok.encode(Double.NaN));
        assertTrue(nan.getMessage().contains("NaN"), nan.getMessage());
        IllegalArgumentException inf = assertThrows(IllegalArgumentException.class,
                () -> tok.encode(Double.NEGATIVE_INFINITY));
        assertTrue(inf.getMessage().contains("-Infinity"), inf.getMessage());
        IllegalArgumentException b = assertThrows(IllegalArgumentException.class,
                () -> new UnnormalizedConfig(1, 3, 4, false));
        assertTrue(b.getMessage().contains("base") && b.getMessage().contains("got 1"), b.getMessage());
        IllegalArgumentException m = assertThrows(IllegalArgumentException.class,
                () -> new UnnormalizedConfig(10, 3, 0, false));
        assertTrue(m.getMessage().contains("got 0"), m.getMessage());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new UnnormalizedConfig(10, 0, 4, false));
        assertTrue(e.getMessage().contains("got 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedConfig(10, 3, 14, false));
        IllegalArgumentException len = assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[3]));
        assertTrue(len.getMessage().contains("got 3"), len.getMessage());
        assertThrows(IllegalArgumentException.class, () -> tok.allowed(9, new int[9]));
    }
}
