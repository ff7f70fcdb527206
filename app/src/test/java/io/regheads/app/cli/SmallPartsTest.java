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
            for (String cmd : new String[] {"compare", "uci", "curves", "risk"}) {
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
    }

    @Test
    void catalogSelectsInOrderAndTakesNewHeadsByName() {
        HeadCatalog c = HeadCatalog.standard();
        assertEquals(List.of("pointwise", "histogram", "mdn", "decoder", "unnormalized-decoder", "xval", "quantile"),
                c.names());
        assertEquals(List.of("mdn", "pointwise"), c.select("MDN, pointwise").stream().map(HeadCatalog.Preset::name).toList());
        assertThrows(IllegalArgumentException.class, () -> c.select("mdn,mdn"));
        assertThrows(IllegalArgumentException.class, () -> c.select("spline"));
        assertEquals(new XValSpec(256, false), c.select("xval").get(0).spec().get());
        c.register(new HeadCatalog.Preset("mdn3", "3-component mixture", "MDN", () -> new MixtureSpec(3)));
        HeadCatalog.Preset p = c.select("mdn3").get(0);
        assertEquals(new MixtureSpec(3), p.spec().get());
        assertEquals(List.of("pointwise", "histogram", "mdn", "decoder", "unnormalized-decoder", "xval", "quantile", "mdn3"),
                c.names());
        assertThrows(IllegalArgumentException.class,
                () -> new HeadCatalog.Preset("a,b", "", null, () -> new MixtureSpec(1)));
    }
}
