package io.regheads.tokenizers.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TextCodecsTest {
    private static final String JSON = "{\"a\": 1.5, \"b\": [-2, 30000.0]}";

    @Test
    void xValWorkedExample() {
        XValEncoding enc = XValCodec.encode(JSON);
        assertArrayEquals(new double[] {1.5, -2.0, 30000.0}, enc.values(), 0.0);
        assertEquals(21, enc.tokens().length);
        StringBuilder text = new StringBuilder();
        for (int t : enc.tokens()) {
            text.append(CharVocabulary.text(t));
        }
        assertEquals("{\"a\": [NUM], \"b\": [[NUM], [NUM]]}", text.toString());
        assertEquals("{\"a\": 1.5, \"b\": [-2, 30000]}", XValCodec.decode(enc));
        double[] x = enc.numberInputs();
        assertEquals(1.5, x[6], 0.0);
        assertEquals(1.0, x[0], 0.0);
        assertEquals(-2.0, x[15], 0.0);
    }

    @ParameterizedTest
    @EnumSource(ChartonScheme.class)
    void chartonWorkedExample(ChartonScheme scheme) {
        TextNumberCodec codec = new TextNumberCodec(scheme);
        int[] tokens = codec.encode(JSON);
        assertEquals(18 + 3 * scheme.tokensPerNumber(), tokens.length);
        assertEquals("{\"a\": 1.5, \"b\": [-2, 30000]}", codec.decode(tokens));
        assertEquals("pi=3.14", codec.decode(codec.encode("pi=3.14159")));
        assertEquals("big 99900000000 tiny 0", codec.decode(codec.encode("big 1e300 tiny 1e-9")));
    }

    @Test
    void p10TokensOfTheExample() {
        TextNumberCodec codec = new TextNumberCodec(ChartonScheme.P10);
        StringBuilder sb = new StringBuilder();
        for (int t : codec.encode("[-2, 1.5]")) {
            sb.append(codec.tokenString(t)).append('|');
        }
        assertEquals("[|-|2|0|0|E-2|,| |+|1|5|0|E-2|]|", sb.toString());
    }

    @Test
    void parserBoundaries() {
        assertEquals(List.of(), NumberParser.find("x1 v1.2.3 1st a_2"));
        List<NumberSpan> sub = NumberParser.find("3-2");
        assertEquals(2, sub.size());
        assertEquals(3.0, sub.get(0).value(), 0.0);
        assertEquals(2.0, sub.get(1).value(), 0.0);
        assertEquals(-2.5e-3, NumberParser.find("v = -2.5e-3.").get(0).value(), 0.0);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> NumberParser.find("x = 1e400"));
        assertTrue(ex.getMessage().contains("1e400") && ex.getMessage().contains("index 4"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> XValCodec.encode(null));
    }

    /** Seeded random texts: decode(encode(s)) re-encodes identically; exact when numbers are written canonically. */
    @Test
    void randomTextsRoundTrip() {
        SplittableRandom rng = new SplittableRandom(8);
        String alphabet = "abc xyz{}[]\":,.-_+\n\t";
        TextNumberCodec[] codecs = new TextNumberCodec[ChartonScheme.values().length];
        for (int i = 0; i < codecs.length; i++) {
            codecs[i] = new TextNumberCodec(ChartonScheme.values()[i]);
        }
        for (int n = 0; n < 3000; n++) {
            StringBuilder sb = new StringBuilder();
            int parts = rng.nextInt(1, 12);
            for (int p = 0; p < parts; p++) {
                if (rng.nextInt(3) == 0) {
                    double v = (rng.nextBoolean() ? -1 : 1) * Math.exp(rng.nextDouble(-20, 30));
                    sb.append(' ').append(XValCodec.format(v)).append(' ');
                } else {
                    for (int c = rng.nextInt(1, 6); c > 0; c--) {
                        sb.append(alphabet.charAt(rng.nextInt(alphabet.length())));
                    }
                }
            }
            String s = sb.toString();
            XValEncoding enc = XValCodec.encode(s);
            String back = XValCodec.decode(enc);
            XValEncoding again = XValCodec.encode(back);
            assertArrayEquals(enc.tokens(), again.tokens(), s);
            assertArrayEquals(enc.values(), again.values(), 0.0, s);
            for (TextNumberCodec codec : codecs) {
                int[] t = codec.encode(s);
                String text = codec.decode(t);
                assertArrayEquals(t, codec.encode(text), () -> s + " -> " + text);
            }
        }
        // numbers already in canonical form give the identical string
        String canonical = "{\"x\": [0.25, -7, 1234.5], \"y\": 1.0E-7}";
        assertEquals(canonical, XValCodec.decode(XValCodec.encode(canonical)));
    }

    @Test
    void unknownCharactersAndMultiScale() {
        XValEncoding enc = XValCodec.encode("é=1");
        assertEquals(CharVocabulary.UNK, enc.tokens()[0]);
        assertEquals("\uFFFD=1", XValCodec.decode(enc));
        // by hand (Python math.tanh): tanh(0.05), tanh(0.5), tanh(5)
        assertArrayEquals(new double[] {0.04995837495787998, 0.46211715726000974, 0.9999092042625951},
                XValCodec.multiScale(0.5, 1), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> XValCodec.multiScale(Double.NaN, 1));
        assertThrows(IllegalArgumentException.class, () -> new XValEncoding(new int[] {2, 2}, new double[] {1}));
        TextNumberCodec codec = new TextNumberCodec(ChartonScheme.P10);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> codec.decode(new int[] {100, 102}));
        assertTrue(ex.getMessage().contains("needs 5 tokens"), ex.getMessage());
    }
}
