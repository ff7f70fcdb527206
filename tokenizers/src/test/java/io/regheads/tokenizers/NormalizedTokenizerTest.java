package io.regheads.tokenizers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.token.Interval;
import java.math.BigDecimal;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NormalizedTokenizerTest {

    @Test
    void workedExamples() {
        NormalizedTokenizer dec = new NormalizedTokenizer(NormalizedConfig.decimal3());
        assertArrayEquals(new int[] {7, 0, 7}, dec.encode(0.7071));
        assertEquals(0.7075, dec.decode(new int[] {7, 0, 7}), 1e-15); // the bin centre, not 0.707
        assertEquals(new Interval(0.707, 0.708), dec.interval(new int[] {7, 0, 7}));
        assertArrayEquals(new int[] {9, 9, 9}, dec.encode(1.0));
        assertEquals(0.9995, dec.decode(new int[] {9, 9, 9}), 1e-15);
        assertArrayEquals(new int[] {0, 0, 0}, dec.encode(0.0));
        NormalizedTokenizer bin = NormalizedTokenizer.of(2, 3);
        assertArrayEquals(new int[] {0, 1, 0}, bin.encode(0.3)); // floor(0.3 * 8) = 2
        assertEquals(0.3125, bin.decode(new int[] {0, 1, 0}), 0.0);
        assertEquals(10, dec.tokenValues().length);
        assertEquals(7.0, dec.tokenValue(7), 0.0);
    }

    /**
     * 10^6 seeded values per config: the bin is the largest i with lowerEdge(i) <= y (checked against the exact
     * floor(y B^K) of BigDecimal away from the double edges), the centre is within half a bin, and intervals hold y.
     */
    @ParameterizedTest
    @CsvSource({"10, 3", "2, 8", "8, 6", "3, 20", "10, 15", "16, 13"})
    void millionRandomValuesRoundTrip(int base, int length) {
        NormalizedTokenizer tok = NormalizedTokenizer.of(base, length);
        long bins = tok.bins();
        double half = 0.5 / bins;
        SplittableRandom rng = new SplittableRandom(base * 1000L + length);
        for (int i = 0; i < 1_000_000; i++) {
            double y = Samples.unit(rng, bins);
            int[] t = tok.encode(y);
            double d = tok.decode(t);
            // slack: the centre (2i+1)/(2N) is rounded to a double, at most one ulp of 1
            assertTrue(Math.abs(d - y) <= half + Math.ulp(1.0), () -> "y=" + y + " decoded " + d);
            Interval cell = tok.interval(t);
            assertTrue(cell.contains(y) || (y == 1.0 && cell.hi() == 1.0), () -> cell + " should hold " + y);
            assertArrayEquals(t, tok.encode(d));
            if (i % 50 == 0) {
                // independent reference: exact floor(y * B^K), which may differ from the double-edge bin only when
                // y is within an ulp of an edge
                long exact = new BigDecimal(y).multiply(BigDecimal.valueOf(bins)).toBigInteger().longValue();
                long expected = Math.min(exact, bins - 1);
                long got = tok.bin(y);
                if (got != expected) {
                    assertEquals(y, tok.lowerEdge(Math.max(got, expected)), Math.ulp(y), () -> "bin of " + y);
                }
            }
        }
    }

    @Test
    void lowerEdgesEncodeToTheirOwnBin() {
        for (NormalizedTokenizer tok : new NormalizedTokenizer[] {NormalizedTokenizer.of(10, 15),
                NormalizedTokenizer.of(3, 20), NormalizedTokenizer.of(10, 3)}) {
            SplittableRandom rng = new SplittableRandom(5);
            for (int k = 0; k < 100_000; k++) {
                long i = rng.nextLong(1, tok.bins());
                double lo = tok.interval(tok.tokensOfBin(i)).lo();
                assertEquals(i, tok.bin(lo));
                assertEquals(i - 1, tok.bin(Math.nextDown(lo)));
            }
        }
    }

    @Test
    void everySequenceDecodesAndReEncodesToItself() {
        NormalizedTokenizer tok = new NormalizedTokenizer(NormalizedConfig.decimal3());
        double previousHi = 0.0;
        for (int i = 0; i < 1000; i++) {
            int[] t = {i / 100, i / 10 % 10, i % 10};
            for (int p = 0; p < 3; p++) {
                assertTrue(tok.allowed(p, t)[t[p]]);
            }
            assertArrayEquals(t, tok.encode(tok.decode(t)));
            Interval cell = tok.interval(t);
            assertEquals(previousHi, cell.lo(), 0.0); // bins tile [0, 1)
            previousHi = cell.hi();
        }
        assertEquals(1.0, previousHi, 0.0);
    }

    @Test
    void invalidInputNamesTheValue() {
        NormalizedTokenizer tok = new NormalizedTokenizer(NormalizedConfig.binary8());
        for (double bad : new double[] {-0.25, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> tok.encode(bad));
            assertTrue(ex.getMessage().contains(String.valueOf(bad)), ex.getMessage());
        }
        IllegalArgumentException b = assertThrows(IllegalArgumentException.class, () -> new NormalizedConfig(1, 3));
        assertTrue(b.getMessage().contains("got 1"), b.getMessage());
        IllegalArgumentException k = assertThrows(IllegalArgumentException.class, () -> new NormalizedConfig(2, 0));
        assertTrue(k.getMessage().contains("got 0"), k.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new NormalizedConfig(10, 16));
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[] {0, 1, 2, 0, 0, 0, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[7]));
    }
}
