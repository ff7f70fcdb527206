package io.regheads.tokenizers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class HammingTokenizerTest {

    @Test
    void threeBitOrderFromTheDesignNotes() {
        HammingTokenizer tok = new HammingTokenizer(3);
        String[] expected = {"000", "001", "010", "100", "011", "101", "110", "111"};
        for (int i = 0; i < 8; i++) {
            int[] t = tok.encodeIndex(i);
            assertEquals(expected[i], "" + t[0] + t[1] + t[2]);
            assertEquals(i, tok.decodeIndex(t));
        }
        // worked example of the Javadoc
        assertArrayEquals(new int[] {1, 0, 0}, tok.encode(0.45));
        assertEquals(0.4375, tok.decode(new int[] {1, 0, 0}), 0.0);
        assertArrayEquals(new int[] {0, 1, 1}, tok.encode(0.55));
    }

    @Test
    void matchesNaiveSortForSmallK() {
        for (int k = 1; k <= 12; k++) {
            final int bits = k;
            // naive reference: all values sorted by (number of ones, value)
            long[] order = LongStream.range(0, 1L << k).boxed()
                    .sorted(Comparator.comparingInt(Long::bitCount).thenComparingLong(v -> v))
                    .mapToLong(Long::longValue).toArray();
            HammingTokenizer tok = new HammingTokenizer(bits);
            for (int i = 0; i < order.length; i++) {
                assertEquals(order[i], tok.unrank(i), "K=" + k + " index " + i);
                assertEquals(i, tok.rank(order[i]));
            }
        }
    }

    @Test
    void millionRandomValuesRoundTrip() {
        HammingTokenizer tok = new HammingTokenizer(20);
        long bins = 1L << 20;
        SplittableRandom rng = new SplittableRandom(3);
        for (int i = 0; i < 1_000_000; i++) {
            double y = Samples.unit(rng, bins);
            int[] t = tok.encode(y);
            double d = tok.decode(t);
            assertTrue(Math.abs(d - y) <= 0.5 / bins, () -> "y=" + y + " decoded " + d);
            assertArrayEquals(t, tok.encode(d));
        }
        HammingTokenizer wide = new HammingTokenizer(52);
        for (int i = 0; i < 100_000; i++) {
            long idx = rng.nextLong(1L << 52);
            assertEquals(idx, wide.rank(wide.unrank(idx)));
        }
    }

    @Test
    void invalidInput() {
        HammingTokenizer tok = new HammingTokenizer(4);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> tok.encode(Double.NaN));
        assertTrue(ex.getMessage().contains("NaN"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> tok.encode(1.0000001));
        IllegalArgumentException k = assertThrows(IllegalArgumentException.class, () -> new HammingTokenizer(0));
        assertTrue(k.getMessage().contains("got 0"), k.getMessage());
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[] {0, 2, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> tok.unrank(16));
        assertTrue(Arrays.equals(new boolean[] {true, true}, tok.allowed(2, new int[2])));
    }
}
