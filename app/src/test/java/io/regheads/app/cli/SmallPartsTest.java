package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.HeadSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.xval.XValSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SmallPartsTest {

    /** Picocli formats descriptions with String.format: an unescaped '%' makes it warn on System.err. */
    @Test
    void everyHelpTextRendersWithoutPicocliWarnings() {
        java.io.PrintStream saved = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true));
        try {
            java.util.Set<String> commands = new picocli.CommandLine(new Regheads()).getSubcommands().keySet();
            assertTrue(commands.size() > 20 && commands.contains("scoring-rules"), commands.toString());
            for (String cmd : commands) {
                if (cmd.equals("help")) {
                    continue;
                }
                CliTestSupport.Run r = CliTestSupport.run(cmd, "--help");
                assertEquals(0, r.exit(), cmd);
                assertTrue(r.out().startsWith("Usage: regheads " + cmd), cmd);
            }
        } finally {
            System.setErr(saved);
        }
        assertEquals("", captured.toString());
    }

    @Test
    void statsMeanAndSampleStd() {
        // (1, 2, 3): mean 2, sum of squares 2, std sqrt(2 / 2) = 1
        assertArrayEquals(new double[] {2, 1}, Stats.of(new double[] {1, 2, 3}), 1e-15);
        assertEquals("2.000 +- 1.000", Stats.meanStd(new double[] {1, 2, 3}));
        assertArrayEquals(new double[] {5, 0}, Stats.of(new double[] {5}), 0.0);
        assertThrows(IllegalArgumentException.class, () -> Stats.of(new double[0]));
    }

    @Test
    void jsonWritesNestedValuesAndNullForNonFinite() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", 1.5);
        m.put("n", 3);
        m.put("nan", Double.NaN);
        m.put("s", "q\"b\\\n");
        m.put("l", List.of(true, new int[] {1, 2}, new double[] {0.25, Double.POSITIVE_INFINITY}));
        assertEquals("{\"a\":1.5,\"n\":3,\"nan\":null,\"s\":\"q\\\"b\\\\\\n\",\"l\":[true,[1,2],[0.25,null]]}",
                Json.write(m));
        assertEquals("[[1.0,0.5],[]]", Json.write(new double[][] {{1, 0.5}, {}}));
    }

    @Test
    void catalogSelectsInOrderAndTakesNewHeadsByName() {
        HeadCatalog c = HeadCatalog.standard();
        assertEquals(List.of("pointwise", "histogram", "mdn", "decoder", "unnormalized-decoder", "xval", "quantile",
                "repeat-decoder", "hamming-decoder"), c.names());
        // the coded decoders are trained only when named: "all heads" leaves them out
        assertEquals(List.of("pointwise", "histogram", "mdn", "decoder", "unnormalized-decoder", "xval", "quantile"),
                c.select(null).stream().map(HeadCatalog.Preset::name).toList());
        assertEquals(c.select(null).stream().map(HeadCatalog.Preset::name).toList(), c.defaultNames());
        assertEquals("hamming-decoder", c.select("hamming-decoder").get(0).name());
        assertEquals("--heads: unknown head 'histgram'; did you mean 'histogram'? known heads are pointwise, "
                + "histogram, mdn, decoder, unnormalized-decoder, xval, quantile, repeat-decoder, hamming-decoder",
                assertThrows(IllegalArgumentException.class, () -> c.select("histgram")).getMessage());
        // a variant label of changed settings reads back over the preset, and a preset's own spec is its preset label
        assertEquals("bins=32,tails=true", c.label("histogram", new io.regheads.heads.histogram.HistogramSpec(32, true)));
        assertEquals("bins=32", c.label("histogram", new io.regheads.heads.histogram.HistogramSpec(32, false)));
        assertEquals(new io.regheads.heads.histogram.HistogramSpec(32, true),
                c.variant("histogram", "bins=32,tails=true").spec().get());
        assertEquals(HeadCatalog.PRESET, c.label("mdn", new MixtureSpec(10)));
        assertEquals(List.of("mdn", "pointwise"), c.select("MDN, pointwise").stream().map(HeadCatalog.Preset::name).toList());
        assertThrows(IllegalArgumentException.class, () -> c.select("mdn,mdn"));
        assertThrows(IllegalArgumentException.class, () -> c.select("spline"));
        assertEquals(new XValSpec(256, false), c.select("xval").get(0).spec().get());
        c.register(new HeadCatalog.Preset("mdn3", "3-component mixture", "MDN", () -> new MixtureSpec(3)));
        HeadCatalog.Preset p = c.select("mdn3").get(0);
        assertEquals(new MixtureSpec(3), p.spec().get());
        assertEquals(List.of("pointwise", "histogram", "mdn", "decoder", "unnormalized-decoder", "xval", "quantile",
                "repeat-decoder", "hamming-decoder", "mdn3"), c.names());
        assertThrows(IllegalArgumentException.class,
                () -> new HeadCatalog.Preset("a,b", "", null, () -> new MixtureSpec(1)));
    }

    /** Table figures keep 4 significant digits whatever the units of y. */
    @Test
    void figuresKeepFourSignificantDigits() {
        assertEquals("0.0001234", Fmt.sig(1.23449e-4));
        assertEquals("2.300e-05", Fmt.sig(2.3e-5));
        assertEquals("-1.980", Fmt.sig(-1.98));
        assertEquals("0.8665", Fmt.sig(0.86649));
        assertEquals("1235", Fmt.sig(1234.6));
        assertEquals("10000", Fmt.sig(9999.6)); // rounded first: no 1.000e+04 from %g
        assertEquals("30955", Fmt.sig(30954.7805));
        assertEquals("1.349e+63", Fmt.sig(1.3486569398285482e63));
        assertEquals("0.000", Fmt.sig(-0.0));
        assertEquals("inf", Fmt.sig(Double.POSITIVE_INFINITY));
        assertEquals("-inf", Fmt.sig(Double.NEGATIVE_INFINITY));
        assertEquals("nan", Fmt.sig(Double.NaN));
        assertEquals("0.0005", Fmt.plain(5e-4));
        assertEquals("10", Fmt.percent(0.1));
        assertEquals("inf", Stats.meanStd(new double[] {1, Double.POSITIVE_INFINITY}));
    }
}
