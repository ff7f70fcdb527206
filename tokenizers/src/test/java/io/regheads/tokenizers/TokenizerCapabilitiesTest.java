package io.regheads.tokenizers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.token.FixedPointDigits;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.core.token.PrefixRanges;
import io.regheads.core.token.Voting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Each capability of {@link NumberTokenizer} and each facet ({@link PrefixRanges}, {@link FixedPointDigits}, {@link
 * Voting}) on each tokenizer, against brute force over every sequence (or every prefix) of small configurations: what
 * a tokenizer declares must be what its masks and intervals do.
 */
class TokenizerCapabilitiesTest {

    /** Small instances of every tokenizer: all sequences can be listed. */
    static Stream<NumberTokenizer> tokenizers() {
        return Stream.of(NormalizedTokenizer.of(3, 2), NormalizedTokenizer.of(2, 3), new HammingTokenizer(3),
                new UnnormalizedTokenizer(UnnormalizedConfig.tiny()),
                new UnnormalizedTokenizer(UnnormalizedConfig.tiny().withSpecialTokens(true)),
                new RepeatedTokenizer(NormalizedTokenizer.of(3, 2), 2),
                new RepeatedTokenizer(new UnnormalizedTokenizer(UnnormalizedConfig.tiny()), 2),
                new RepeatedTokenizer(new UnnormalizedTokenizer(UnnormalizedConfig.tiny().withSpecialTokens(true)), 2),
                new RepeatedTokenizer(new RepeatedTokenizer(NormalizedTokenizer.of(2, 2), 2), 2));
    }

    /** Every valid sequence, in lexicographic token order. */
    private static List<int[]> valid(NumberTokenizer tok) {
        List<int[]> out = new ArrayList<>();
        walk(tok, new int[tok.sequenceLength()], 0, out);
        return out;
    }

    private static void walk(NumberTokenizer tok, int[] prefix, int pos, List<int[]> out) {
        if (pos == prefix.length) {
            out.add(prefix.clone());
            return;
        }
        boolean[] a = tok.allowed(pos, prefix);
        for (int k = 0; k < a.length; k++) {
            if (a[k]) {
                prefix[pos] = k;
                walk(tok, prefix, pos + 1, out);
            }
        }
    }

    /** Whether allowed() is all true after every prefix in [0, V)^pos, pos < T (stops at the first false). */
    private static boolean allAllowed(NumberTokenizer tok, int[] prefix, int pos) {
        if (pos == prefix.length) {
            return true;
        }
        boolean[] a = tok.allowed(pos, prefix);
        for (int k = 0; k < a.length; k++) {
            if (!a[k]) {
                return false;
            }
        }
        for (int k = 0; k < a.length; k++) {
            prefix[pos] = k;
            if (!allAllowed(tok, prefix, pos + 1)) {
                return false;
            }
        }
        return true;
    }

    /** The interval of a sequence, or null for one without a value (a special token). */
    private static Interval cell(NumberTokenizer tok, int[] s) {
        return Double.isFinite(tok.decode(s)) ? tok.interval(s) : null;
    }

    @ParameterizedTest
    @MethodSource("tokenizers")
    void everySequenceValidIsWhatTheMasksDo(NumberTokenizer tok) {
        boolean brute = allAllowed(tok, new int[tok.sequenceLength()], 0);
        assertEquals(brute, tok.everySequenceValid(), tok.toString());
        if (brute) {
            assertEquals(Math.pow(tok.vocabularySize(), tok.sequenceLength()), valid(tok).size(), 0.0);
        }
    }

    @Test
    void everySequenceValidOnTheKnownTokenizers() {
        assertTrue(NormalizedTokenizer.of(10, 4).everySequenceValid());
        assertTrue(new HammingTokenizer(5).everySequenceValid());
        assertFalse(UnnormalizedTokenizer.of(10, 1, 3).everySequenceValid());
        assertTrue(new RepeatedTokenizer(new HammingTokenizer(4), 3).everySequenceValid());
        assertFalse(new RepeatedTokenizer(UnnormalizedTokenizer.of(10, 1, 3), 3).everySequenceValid());
    }

    /**
     * Brute force of {@link FixedPointDigits}: every sequence valid, and in lexicographic token order the i-th
     * sequence's interval is {@code [i V^-T, (i + 1) V^-T)} (to 1e-15), so they tile [0, 1].
     */
    private static boolean bruteFixedPoint(NumberTokenizer tok) {
        if (!allAllowed(tok, new int[tok.sequenceLength()], 0)) {
            return false;
        }
        List<int[]> all = valid(tok);
        double n = all.size();
        double previousHi = 0;
        for (int i = 0; i < all.size(); i++) {
            Interval c = cell(tok, all.get(i));
            if (c == null || Math.abs(c.lo() - i / n) > 1e-15 || Math.abs(c.hi() - (i + 1) / n) > 1e-15
                    || c.lo() != previousHi) {
                return false;
            }
            previousHi = c.hi();
        }
        return previousHi == 1.0;
    }

    @ParameterizedTest
    @MethodSource("tokenizers")
    void fixedPointIsWhatTheIntervalsDo(NumberTokenizer tok) {
        assertEquals(bruteFixedPoint(tok), tok instanceof FixedPointDigits, tok.toString());
        if (tok instanceof FixedPointDigits digits) {
            assertTrue(tok.everySequenceValid(), "fixed point implies every sequence valid");
            assertNull(digits.detachedSequence(), "fixed point has no detached sequence");
        }
    }

    /**
     * The uniform bins of {@link FixedPointDigits}: the prefix {@code d1..dL} covers the bins {@code i V^(K-L) .. (i +
     * 1) V^(K-L) - 1}, i = (d1..dL) in base V, so its range is {@code [i V^-L, (i + 1) V^-L)} (to 1e-15).
     */
    @Test
    void fixedPointPrefixesCoverEqualBins() {
        List<FixedPointDigits> fixed = tokenizers().filter(t -> t instanceof FixedPointDigits)
                .map(t -> (FixedPointDigits) t).toList();
        assertEquals(2, fixed.size(), "the normalized tokenizers of tokenizers()");
        for (FixedPointDigits tok : fixed) {
            int v = tok.vocabularySize();
            for (int len = 0; len <= tok.sequenceLength(); len++) {
                double cells = Math.pow(v, len);
                for (int[] p : prefixes(valid(tok), len)) {
                    long i = 0;
                    for (int d = 0; d < len; d++) {
                        i = i * v + p[d];
                    }
                    Interval range = tok.prefixRange(p, len);
                    String what = tok + " prefix " + Arrays.toString(p);
                    assertEquals(i / cells, range.lo(), 1e-15, what);
                    assertEquals((i + 1) / cells, range.hi(), 1e-15, what);
                }
            }
        }
    }

    @Test
    void fixedPointOnTheKnownTokenizers() {
        assertTrue(fixedPoint(NormalizedTokenizer.of(10, 3)));
        assertFalse(fixedPoint(new HammingTokenizer(3))); // 0 1 1 (bin 4) comes before 1 0 0 (bin 3)
        assertFalse(fixedPoint(UnnormalizedTokenizer.of(10, 1, 3)));
        assertFalse(fixedPoint(new RepeatedTokenizer(NormalizedTokenizer.of(10, 3), 2)));
    }

    /** Whether a tokenizer declares fixed-point digits (a method, so final classes can be asked). */
    private static boolean fixedPoint(NumberTokenizer tok) {
        return tok instanceof FixedPointDigits;
    }

    /** Whether a tokenizer declares prefix ranges. */
    private static boolean prefixRanges(NumberTokenizer tok) {
        return tok instanceof PrefixRanges;
    }

    /**
     * The brute-force prefix range: whether the number completions of a prefix (the detached sequence left out),
     * sorted, tile one range without gap or overlap, and that range (null if there are no completions).
     */
    private record Tiling(boolean tiles, Interval range) {}

    private static Tiling completions(NumberTokenizer tok, List<int[]> all, int[] prefix, int length) {
        int[] detached = tok instanceof PrefixRanges ranges ? ranges.detachedSequence() : null;
        List<Interval> cells = new ArrayList<>();
        for (int[] s : all) {
            if (Arrays.equals(s, 0, length, prefix, 0, length) && !Arrays.equals(s, detached)) {
                Interval c = cell(tok, s);
                if (c != null) {
                    cells.add(c);
                }
            }
        }
        if (cells.isEmpty()) {
            return new Tiling(true, null);
        }
        cells.sort(Comparator.comparingDouble(Interval::lo));
        for (int i = 1; i < cells.size(); i++) {
            if (cells.get(i).lo() != cells.get(i - 1).hi()) {
                return new Tiling(false, null);
            }
        }
        return new Tiling(true, new Interval(cells.get(0).lo(), cells.get(cells.size() - 1).hi()));
    }

    /** The distinct prefixes of the given length of the valid sequences. */
    private static List<int[]> prefixes(List<int[]> all, int length) {
        java.util.Map<String, int[]> out = new java.util.LinkedHashMap<>();
        for (int[] s : all) {
            int[] p = Arrays.copyOf(s, length);
            out.putIfAbsent(Arrays.toString(p), p);
        }
        return new ArrayList<>(out.values());
    }

    @ParameterizedTest
    @MethodSource("tokenizers")
    void prefixRangesAreTheUnionOfTheCompletionCells(NumberTokenizer tok) {
        PrefixRanges ranges = tok instanceof PrefixRanges r ? r : null;
        List<int[]> all = valid(tok);
        boolean everyPrefixTiles = true;
        for (int len = 1; len <= tok.sequenceLength() && everyPrefixTiles; len++) {
            for (int[] p : prefixes(all, len)) {
                Tiling t = completions(tok, all, p, len);
                if (!t.tiles()) {
                    everyPrefixTiles = false;
                    break;
                }
                if (ranges != null) {
                    assertEquals(t.range(), ranges.prefixRange(p, len), tok + " prefix " + Arrays.toString(p));
                }
            }
        }
        assertEquals(everyPrefixTiles, ranges != null, tok.toString());
    }

    @Test
    void prefixRangesOnTheKnownTokenizers() {
        assertTrue(prefixRanges(NormalizedTokenizer.of(10, 3)));
        assertTrue(prefixRanges(UnnormalizedTokenizer.of(10, 1, 3)));
        assertFalse(prefixRanges(new HammingTokenizer(3))); // 0 1 covers bins 2 and 4, not 3
        assertFalse(prefixRanges(new RepeatedTokenizer(NormalizedTokenizer.of(10, 3), 2)));
    }

    @Test
    void prefixRangeWorkedExamples() {
        NormalizedTokenizer n = NormalizedTokenizer.of(10, 3);
        assertEquals(new Interval(0.7, 0.71), n.prefixRange(new int[] {7, 0}, 2));
        assertEquals(new Interval(0.0, 1.0), n.prefixRange(new int[0], 0));
        assertEquals(new Interval(0.9, 1.0), n.prefixRange(new int[] {9, 9, 9}, 1));
        assertEquals(n.interval(new int[] {9, 9, 9}), n.prefixRange(new int[] {9, 9, 9}, 3));
        assertNull(n.detachedSequence());
        assertThrows(IllegalArgumentException.class, () -> n.prefixRange(new int[] {10}, 1));
        assertThrows(IllegalArgumentException.class, () -> n.prefixRange(new int[] {1}, 2));
        assertThrows(IllegalArgumentException.class, () -> n.prefixRange(new int[4], 4));
    }

    @Test
    void theDetachedSequenceIsTheZeroSpellingOutsideItsPrefixesRanges() {
        UnnormalizedTokenizer u = new UnnormalizedTokenizer(UnnormalizedConfig.tiny()); // B=3, E=1, M=2
        int[] z = u.detachedSequence();
        int plus = u.plusToken();
        assertArrayEquals(new int[] {plus, plus, 0, 0, 0}, z);
        assertEquals(0.0, u.decode(z), 0.0);
        for (int len = 1; len < z.length; len++) {
            Interval range = u.prefixRange(z, len);
            Interval own = u.interval(z);
            assertTrue(range == null || own.hi() <= range.lo() || own.lo() >= range.hi(),
                    "zero cell " + own + " outside the range " + range + " of its prefix of length " + len);
        }
        z[0] = u.minusToken(); // a fresh array each call
        assertEquals(plus, u.detachedSequence()[0]);
    }

    @Test
    void repetitionsCountTheCopies() {
        assertEquals(1, Voting.repetitionsOf(NormalizedTokenizer.of(10, 3)));
        assertEquals(1, Voting.repetitionsOf(new HammingTokenizer(4)));
        assertEquals(1, Voting.repetitionsOf(UnnormalizedTokenizer.of(10, 1, 3)));
        assertEquals(3, new RepeatedTokenizer(NormalizedTokenizer.of(10, 3), 3).repetitions());
        assertEquals(6, new RepeatedTokenizer(new RepeatedTokenizer(NormalizedTokenizer.of(10, 3), 2), 3).repetitions());
        assertEquals(1, new RepeatedTokenizer(NormalizedTokenizer.of(10, 3), 1).repetitions());
        assertEquals(3, Voting.repetitionsOf(new RepeatedTokenizer(NormalizedTokenizer.of(10, 3), 3)));
        assertThrows(IllegalArgumentException.class, () -> Voting.repetitionsOf(null));
    }

    @Test
    void softDecodingTakesTheBestAllowedTokenPositionByPosition() {
        // normalized base 10, K = 2 (the interface's worked example): 1 then 2 -> bin 12 -> centre 0.125
        double[][] p = new double[2][10];
        p[0][0] = 0.1;
        p[0][1] = 0.9;
        p[1][2] = 0.6;
        p[1][3] = 0.4;
        assertEquals(0.125, NormalizedTokenizer.of(10, 2).decodeSoft(p), 0.0);
        // a repetition with one copy votes over one block: the same answer
        assertEquals(0.125, new RepeatedTokenizer(NormalizedTokenizer.of(10, 2), 1).decodeSoft(p), 0.0);

        // sign-exponent-mantissa B=3, E=1, M=2 (exponents -1..1): ids 0..2 digits, 3 '+', 4 '-'
        UnnormalizedTokenizer u = new UnnormalizedTokenizer(UnnormalizedConfig.tiny());
        double[][] q = {
            {0.9, 0, 0, 0.04, 0.06},  // digit 0 is not allowed first: '-' beats '+'
            {0, 0, 0, 0.7, 0.3},      // exponent sign '+'
            {0.2, 0.5, 0.3, 0, 0},    // exponent digit: 2 is beyond eMax = 1 (masked), 1 beats 0
            {0.8, 0.1, 0.1, 0, 0},    // m1: 0 is masked (not the zero spelling); 1 and 2 tie -> the smaller id
            {0.1, 0.2, 0.7, 0, 0}};   // m2: 2
        // - + 1 1 2 = -(1.2)_3 * 3^1 = -(1 + 2/3) * 3 = -5
        assertEquals(-5.0, u.decodeSoft(q), 0.0);
        assertEquals(u.decode(new int[] {4, 3, 1, 1, 2}), u.decodeSoft(q), 0.0);

        // the Hamming code uses the default too: bits 1 0 0 = index 3 -> bin 3 of 8 -> 0.4375
        double[][] h = {{0.2, 0.8}, {0.6, 0.4}, {0.9, 0.1}};
        assertEquals(0.4375, new HammingTokenizer(3).decodeSoft(h), 0.0);

        assertThrows(IllegalArgumentException.class, () -> u.decodeSoft(new double[4][5]));
        assertThrows(IllegalArgumentException.class, () -> u.decodeSoft(new double[5][4]));
        double[][] bad = new double[5][5];
        bad[2][1] = Double.NaN;
        assertThrows(IllegalArgumentException.class, () -> u.decodeSoft(bad));
    }

    // ------------------------------------------------------------------ special tokens, votes, narrowest cells

    /** Whether a value is one of NaN, +Inf, -Inf and equal to another (NaN equals NaN). */
    private static boolean same(double a, double b) {
        return Double.compare(a, b) == 0 || a == b;
    }

    /**
     * Brute force of {@link NumberTokenizer#hasSpecialTokens()}: some valid sequence decodes to NaN, one to +Inf and
     * one to -Inf exactly when the tokenizer says so; then encode spells each of them as such a sequence, otherwise
     * it refuses them.
     */
    @ParameterizedTest
    @MethodSource("tokenizers")
    void specialTokensAreWhatTheSequencesDecodeTo(NumberTokenizer tok) {
        boolean nan = false;
        boolean pos = false;
        boolean neg = false;
        for (int[] s : valid(tok)) {
            double v = tok.decode(s);
            nan |= Double.isNaN(v);
            pos |= v == Double.POSITIVE_INFINITY;
            neg |= v == Double.NEGATIVE_INFINITY;
        }
        assertEquals(nan && pos && neg, tok.hasSpecialTokens(), tok.toString());
        assertEquals(nan || pos || neg, tok.hasSpecialTokens(), "all three or none: " + tok);
        for (double y : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            if (tok.hasSpecialTokens()) {
                assertTrue(same(y, tok.decode(tok.encode(y))), tok + " spells " + y);
            } else {
                assertThrows(IllegalArgumentException.class, () -> tok.encode(y), tok + " refuses " + y);
            }
        }
    }

    /**
     * Brute force of {@link Voting#vote} and {@link Voting#votedTokenizer()}: for every valid sequence the vote is a
     * fresh valid sequence of the voted tokenizer (which repeats nothing) with the same value and interval; a
     * tokenizer that does not vote spells each value once, so there every sequence stands for itself; distinct votes
     * (distinct sequences) have disjoint intervals.
     */
    @ParameterizedTest
    @MethodSource("tokenizers")
    void votesAreTheSpellingsTheSequencesStandFor(NumberTokenizer tok) {
        Voting voting = tok instanceof Voting w ? w : null;
        NumberTokenizer voted = voting != null ? voting.votedTokenizer() : tok;
        assertEquals(1, Voting.repetitionsOf(voted), tok.toString());
        java.util.Map<String, Interval> cells = new java.util.TreeMap<>();
        for (int[] s : valid(tok)) {
            int[] v = voting != null ? voting.vote(s) : s;
            if (voting != null) {
                assertTrue(same(tok.decode(s), voted.decode(v)), tok + " " + Arrays.toString(s));
                assertNotSame(s, v);
            }
            Interval c = cell(tok, s);
            if (c != null) {
                assertEquals(c, voted.interval(v), tok + " " + Arrays.toString(s));
                Interval before = cells.put(Arrays.toString(v), c);
                assertTrue(before == null || before.equals(c));
            }
        }
        List<Interval> distinct = new ArrayList<>(cells.values());
        distinct.sort(Comparator.comparingDouble(Interval::lo));
        for (int i = 1; i < distinct.size(); i++) {
            assertTrue(distinct.get(i).lo() >= distinct.get(i - 1).hi(), tok + ": " + distinct.get(i - 1) + " and "
                    + distinct.get(i) + " overlap");
        }
        if (voting != null) {
            assertThrows(IllegalArgumentException.class, () -> voting.vote(new int[tok.sequenceLength() + 1]));
        }
    }

    @Test
    void votesOnTheKnownTokenizers() {
        RepeatedTokenizer r = new RepeatedTokenizer(NormalizedTokenizer.of(10, 2), 3);
        assertArrayEquals(new int[] {4, 7}, r.vote(new int[] {4, 7, 5, 7, 4, 1})); // the interface's example
        assertSame(r.inner(), r.votedTokenizer());
        RepeatedTokenizer nested = new RepeatedTokenizer(r, 2);
        assertSame(r.inner(), nested.votedTokenizer()); // votes down to the plain inner tokenizer
        assertArrayEquals(new int[] {4, 7}, nested.vote(new int[] {4, 7, 5, 7, 4, 1, 4, 7, 4, 7, 4, 7}));
        assertEquals(0.475, nested.decode(new int[] {4, 7, 5, 7, 4, 1, 4, 7, 4, 7, 4, 7}), 1e-15);
        NumberTokenizer charton = new io.regheads.tokenizers.text.ChartonTokenizer(
                io.regheads.tokenizers.text.ChartonScheme.P10);
        assertFalse(charton instanceof Voting); // spells each value once: every sequence stands for itself
        assertEquals(1, Voting.repetitionsOf(charton));
    }

    @Test
    void specialTokensOnTheKnownTokenizers() {
        assertFalse(NormalizedTokenizer.of(10, 3).hasSpecialTokens());
        assertFalse(new HammingTokenizer(4).hasSpecialTokens());
        assertFalse(UnnormalizedTokenizer.of(10, 1, 3).hasSpecialTokens());
        assertTrue(new UnnormalizedTokenizer(new UnnormalizedConfig(10, 1, 3, true)).hasSpecialTokens());
        assertTrue(new RepeatedTokenizer(new UnnormalizedTokenizer(new UnnormalizedConfig(10, 1, 3, true)), 2)
                .hasSpecialTokens());
        assertFalse(new io.regheads.tokenizers.text.ChartonTokenizer(io.regheads.tokenizers.text.ChartonScheme.P10)
                .hasSpecialTokens()); // the default
    }

    /** The number completions of a prefix (detached sequence included), brute force: their narrowest cell. */
    private static double narrowestCompletion(NumberTokenizer tok, List<int[]> all, int[] prefix, int length) {
        double min = Double.POSITIVE_INFINITY;
        for (int[] s : all) {
            if (Arrays.equals(s, 0, length, prefix, 0, length)) {
                Interval c = cell(tok, s);
                if (c != null) {
                    min = Math.min(min, c.width());
                }
            }
        }
        return min;
    }

    /**
     * Brute force of {@link NumberTokenizer#narrowestCell}: after every prefix of every length it is a lower bound on
     * the widths of the number completions' cells (+Infinity where there are none), and not loose: at least half the
     * narrowest one, except for repetition codes, whose bound is the inner tokenizer's narrowest cell over all its
     * sequences (later copies can outvote a prefix), at least half the narrowest cell of all.
     */
    @ParameterizedTest
    @MethodSource("tokenizers")
    void narrowestCellBoundsTheCompletionCells(NumberTokenizer tok) {
        List<int[]> all = valid(tok);
        double global = narrowestCompletion(tok, all, new int[0], 0);
        int checked = 0;
        for (int len = 0; len <= tok.sequenceLength(); len++) {
            for (int[] p : prefixes(all, len)) {
                double brute = narrowestCompletion(tok, all, p, len);
                double bound = tok.narrowestCell(p, len);
                String what = tok + " prefix " + Arrays.toString(p);
                assertTrue(bound >= 0 && bound <= brute, what + ": bound " + bound + " above the narrowest cell " + brute);
                if (Voting.repetitionsOf(tok) > 1) { // any bound holds where no completion has a number (all copies NaN)
                    assertTrue(bound >= 0.5 * global, what + ": bound " + bound + " vs global " + global);
                } else if (brute == Double.POSITIVE_INFINITY) {
                    assertEquals(Double.POSITIVE_INFINITY, bound, what);
                } else {
                    assertTrue(bound >= 0.5 * brute, what + ": bound " + bound + " vs narrowest " + brute);
                }
                checked++;
            }
        }
        assertTrue(checked > tok.sequenceLength(), "prefixes checked: " + checked);
        assertThrows(IllegalArgumentException.class, () -> tok.narrowestCell(new int[0], 1));
    }

    @Test
    void narrowestCellWorkedExamples() {
        UnnormalizedTokenizer u = UnnormalizedTokenizer.of(10, 1, 3); // ids 0..9 digits, 10 '+', 11 '-'
        assertEquals(0.55, u.narrowestCell(new int[] {10, 10, 2}, 3), 1e-12); // values in [99.95, 999.5)
        assertEquals(0.55e-11, u.narrowestCell(new int[] {10, 11}, 2), 1e-23); // exponents -9..-1
        assertEquals(1e-9, u.narrowestCell(new int[] {10, 10}, 2), 1e-21); // the zero cell is a completion
        assertEquals(u.interval(u.encode(123)).width(), u.narrowestCell(u.encode(123), 6), 0.0);
        UnnormalizedTokenizer s = new UnnormalizedTokenizer(new UnnormalizedConfig(10, 1, 3, true));
        assertEquals(Double.POSITIVE_INFINITY, s.narrowestCell(s.encode(Double.NaN), 1));
        assertEquals(1e-3, NormalizedTokenizer.of(10, 3).narrowestCell(new int[] {7}, 1), 1e-15);
        assertEquals(1.0 / 16, new HammingTokenizer(4).narrowestCell(new int[0], 0), 1e-15);
        NumberTokenizer charton = new io.regheads.tokenizers.text.ChartonTokenizer(
                io.regheads.tokenizers.text.ChartonScheme.P10);
        assertEquals(0.0, charton.narrowestCell(charton.encode(3.14), 2)); // the default: no bound known
    }
}
