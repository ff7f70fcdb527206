package io.regheads.tokenizers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.tokenizers.internal.SignificantDigits;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SignificantDigitsTest {

    @Test
    void valueIsCorrectlyRoundedAgainstParseDouble() {
        SignificantDigits sd = new SignificantDigits(10, 6, -307, 307);
        SplittableRandom rng = new SplittableRandom(11);
        for (int i = 0; i < 200_000; i++) {
            long n = rng.nextLong(100_000, 1_000_000);
            int e = rng.nextInt(-307, 308);
            // reference: the JDK's correctly rounded decimal parser
            double expected = Double.parseDouble(n + "e" + (e - 5));
            assertEquals(expected, sd.value(n, e), 0.0, n + "e" + (e - 5));
        }
    }

    @Test
    void valueMatchesHighPrecisionDivisionForBaseSeven() {
        SignificantDigits sd = new SignificantDigits(7, 5, SignificantDigits.doubleMinExponent(7),
                SignificantDigits.doubleMaxExponent(7));
        SplittableRandom rng = new SplittableRandom(12);
        for (int i = 0; i < 20_000; i++) {
            long n = rng.nextLong(sd.lowMantissa(), sd.highMantissa());
            int e = rng.nextInt(sd.minExponent(), sd.maxExponent() + 1);
            int s = e - 4;
            BigDecimal exact = s >= 0 ? new BigDecimal(BigDecimal.valueOf(7).pow(s).toBigInteger()
                    .multiply(java.math.BigInteger.valueOf(n)))
                    : new BigDecimal(n).divide(BigDecimal.valueOf(7).pow(-s), new MathContext(60));
            assertEquals(exact.doubleValue(), sd.value(n, e), 0.0, n + " * 7^" + s);
        }
    }

    @Test
    void workedExampleOfTheClassComment() {
        SignificantDigits four = new SignificantDigits(10, 4, -307, 307);
        assertEquals(new SignificantDigits.Rounded(1235, -222), four.round(1.23456789e-222));
        assertEquals(new SignificantDigits.Rounded(1000, 3), four.round(999.96));
        assertEquals(new SignificantDigits.Rounded(1000, 3), four.round(1000));
        SignificantDigits two = new SignificantDigits(10, 2, -307, 307);
        // Python Decimal: 0.00125 is 0.00125000000000000002602..., 0.00115 is 0.00114999999999999998057...
        assertEquals(new SignificantDigits.Rounded(13, -3), two.round(0.00125));
        assertEquals(new SignificantDigits.Rounded(11, -3), two.round(0.00115));
        assertEquals(new SignificantDigits.Rounded(0, 0), two.round(-0.0));
    }

    @Test
    void doubleRangeOfExponents() {
        assertEquals(-307, SignificantDigits.doubleMinExponent(10));
        assertEquals(307, SignificantDigits.doubleMaxExponent(10));
        assertEquals(-1022, SignificantDigits.doubleMinExponent(2));
        assertEquals(1022, SignificantDigits.doubleMaxExponent(2));
        assertThrows(IllegalArgumentException.class, () -> new SignificantDigits(10, 4, -308, 0));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> new SignificantDigits(10, 4, 3, 2));
        assertTrue(ex.getMessage().contains("3 > 2"), ex.getMessage());
    }

    @Test
    void cellsOfNeighboursTouch() {
        SignificantDigits sd = new SignificantDigits(10, 3, -5, 5);
        // by hand: 9.99 has cell [9.985, 9.995); 1.00e1 has [9.995, 10.05)
        assertEquals(9.985, sd.cell(999, 0).lo(), 1e-15);
        assertEquals(9.995, sd.cell(999, 0).hi(), 1e-15);
        assertEquals(9.995, sd.cell(100, 1).lo(), 1e-15);
        assertEquals(10.05, sd.cell(100, 1).hi(), 1e-14);
        // smallest: [0.5e-5, 1.005e-5); zero: [-0.5e-5, 0.5e-5)
        assertEquals(0.5e-5, sd.cell(100, -5).lo(), 1e-20);
        assertEquals(0.5e-5, sd.zeroCell().hi(), 1e-20);
    }
}
