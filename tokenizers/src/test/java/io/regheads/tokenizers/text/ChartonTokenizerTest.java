package io.regheads.tokenizers.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.token.Interval;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ChartonTokenizerTest {

    private static String spell(ChartonTokenizer tok, double y) {
        StringBuilder sb = new StringBuilder();
        for (int t : tok.encode(y)) {
            sb.append(sb.length() == 0 ? "" : " ").append(tok.tokenString(t));
        }
        return sb.toString();
    }

    @Test
    void tableOneOfTheXValPaper() {
        // the paper's example -6.02 x 10^1
        assertEquals("- 6 0 2 E-1", spell(new ChartonTokenizer(ChartonScheme.P10), -60.2));
        assertEquals("- 602 E-1", spell(new ChartonTokenizer(ChartonScheme.P1000), -60.2));
        assertEquals("-602 E-1", spell(new ChartonTokenizer(ChartonScheme.B1999), -60.2));
        assertEquals("-602E-1", spell(new ChartonTokenizer(ChartonScheme.FP15), -60.2));
        ChartonTokenizer p10 = new ChartonTokenizer(ChartonScheme.P10);
        assertEquals("+ 3 1 4 E-2", spell(p10, 3.14159));
        assertEquals("+ 3 0 0 E+2", spell(p10, 30000.0));
        assertEquals("+ 1 0 0 E+1", spell(p10, 999.5)); // carry
        assertEquals("+ 0 0 0 E+0", spell(p10, -0.0));
        assertEquals("+ 9 9 9 E+8", spell(p10, 1e300)); // clamp
        // the double 5e-7 is 4.99999999999999977e-7 (Python Decimal), just below half of the smallest value 1e-6,
        // so it rounds to zero; the next double up is above the half and rounds to 1e-6
        assertEquals("+ 0 0 0 E+0", spell(p10, 5e-7));
        assertEquals("+ 1 0 0 E-8", spell(p10, Math.nextUp(5e-7)));
        assertEquals(29, p10.vocabularySize());
        assertEquals(1019, new ChartonTokenizer(ChartonScheme.P1000).vocabularySize());
        assertEquals(1818, new ChartonTokenizer(ChartonScheme.B1999).vocabularySize());
        assertEquals(30601, new ChartonTokenizer(ChartonScheme.FP15).vocabularySize());
        assertEquals("-60.2", p10.text(p10.encode(-60.2)));
        assertEquals("0.000001", p10.text(p10.encode(1e-6)));
    }

    @Test
    void tokenValues() {
        ChartonTokenizer fp15 = new ChartonTokenizer(ChartonScheme.FP15);
        assertEquals(-60.2, fp15.tokenValue(fp15.encode(-60.2)[0]), 0.0);
        ChartonTokenizer b = new ChartonTokenizer(ChartonScheme.B1999);
        assertEquals(-602.0, b.tokenValue(b.encode(-60.2)[0]), 0.0);
        assertTrue(Double.isNaN(b.tokenValue(b.encode(-60.2)[1])));
        ChartonTokenizer p1000 = new ChartonTokenizer(ChartonScheme.P1000);
        assertEquals(602.0, p1000.tokenValue(p1000.encode(-60.2)[1]), 0.0);
        ChartonTokenizer p10 = new ChartonTokenizer(ChartonScheme.P10);
        double[] v = p10.tokenValues();
        assertTrue(Double.isNaN(v[0]) && Double.isNaN(v[1]) && Double.isNaN(v[12]));
        assertEquals(7.0, v[9], 0.0);
    }

    private static void walk(ChartonTokenizer tok, int[] prefix, int pos, List<int[]> out) {
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

    /** Every scheme spells the same 30601 numbers (zero + 2 signs * 900 mantissas * 17 exponents), each once. */
    @ParameterizedTest
    @EnumSource(ChartonScheme.class)
    void everyMaskFollowingSequenceDecodesAndReEncodesToItself(ChartonScheme scheme) {
        ChartonTokenizer tok = new ChartonTokenizer(scheme);
        List<int[]> all = new ArrayList<>();
        walk(tok, new int[tok.sequenceLength()], 0, all);
        assertEquals(1 + 2 * 900 * 17, all.size());
        List<Interval> cells = new ArrayList<>();
        for (int[] t : all) {
            double d = tok.decode(t);
            assertArrayEquals(t, tok.encode(d));
            assertEquals(d, Double.parseDouble(tok.text(t)), 0.0);
            cells.add(tok.interval(t));
        }
        cells.sort(Comparator.comparingDouble(Interval::lo));
        for (int k = 1; k < cells.size(); k++) {
            assertEquals(cells.get(k - 1).hi(), cells.get(k).lo(), 1e-12 * Math.abs(cells.get(k).lo()));
        }
    }

    /**
     * 10^6 seeded doubles: all four schemes decode to the same value, which equals an independent reference (BigDecimal
     * rounding to 3 significant digits, HALF_UP, then the range rules) on every 20th sample and is within half the
     * resolution always.
     */
    @Test
    void millionRandomDoublesAgreeAcrossSchemesAndWithBigDecimal() {
        ChartonTokenizer[] toks = new ChartonTokenizer[ChartonScheme.values().length];
        for (int i = 0; i < toks.length; i++) {
            toks[i] = new ChartonTokenizer(ChartonScheme.values()[i]);
        }
        double largest = 9.99e10;
        SplittableRandom rng = new SplittableRandom(4);
        for (int i = 0; i < 1_000_000; i++) {
            double y = io.regheads.tokenizers.SamplesAccess.mixed(rng, 10, 1e-7, 1e12);
            double d = toks[0].decode(toks[0].encode(y));
            for (int s = 1; s < toks.length; s++) {
                assertEquals(d, toks[s].decode(toks[s].encode(y)), 0.0);
            }
            double a = Math.abs(y);
            if (a >= largest) {
                assertEquals(Math.copySign(largest, y), d, 0.0);
                continue;
            }
            if (a < 1e-6) {
                boolean up = new BigDecimal(a).compareTo(new BigDecimal("5e-7")) >= 0;
                assertEquals(up ? Math.copySign(1e-6, y) : 0.0, d, 0.0, () -> "underflow " + y);
                continue;
            }
            double q = Math.pow(10, Math.floor(Math.log10(Math.abs(d)) + 1e-12) - 2);
            assertTrue(Math.abs(d - y) <= q / 2 + 2 * Math.ulp(y), () -> "y=" + y + " decoded " + d);
            if (i % 20 == 0) {
                BigDecimal ref = new BigDecimal(y).round(new MathContext(3, RoundingMode.HALF_UP));
                double expected = Math.abs(ref.doubleValue()) > largest ? Math.copySign(largest, y) : ref.doubleValue();
                assertEquals(expected, d, 0.0, () -> "reference for " + y);
            }
        }
    }

    @Test
    void invalidInput() {
        ChartonTokenizer tok = new ChartonTokenizer(ChartonScheme.P1000);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> tok.encode(Double.NaN));
        assertTrue(ex.getMessage().contains("NaN"), ex.getMessage());
        // 050 is never a valid three-digit token; "- 000" is not the zero spelling
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[] {0, 52, 1002}));
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[] {1, 2, 1010}));
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[] {0, 2, 1011})); // zero with E+1
        assertThrows(IllegalArgumentException.class, () -> tok.decode(new int[] {0, 102}));
    }
}
