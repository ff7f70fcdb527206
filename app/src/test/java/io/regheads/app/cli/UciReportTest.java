package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.train.TrainerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UciReportTest {
    @TempDir
    Path tmp;

    private static UciResult result(int fold, String variant, double valPaper, double valResolution, double paper) {
        UciTask t = new UciTask("d", fold, "histogram", variant, null, TrainerConfig.paper());
        return new UciResult("d", fold, "histogram", variant, t.lossLabel(), t.trainer().toString(), UciResult.OK, "", 90,
                9, 10, 50, 1, paper, paper, paper - 3, 0, 0, 1.5, 0.05, 0.1, valPaper, valPaper - 3, valResolution, 10,
                5, "EARLY_STOPPED", 1.0, 0.1, 2.0, UciTask.DEFAULT_ENCODER);
    }

    /** Per fold, each criterion takes the variant with the lowest validation figure; failed variants do not count. */
    @Test
    void selectionTakesTheLowestValidationFigurePerFold() {
        List<UciResult> rs = List.of(result(0, "a", 2.0, 5.0, 20), result(0, "b", 3.0, 4.0, 30),
                result(1, "a", 2.5, 4.0, 21), result(1, "b", 2.4, 4.5, 31),
                UciResult.failed(new UciTask("d", 2, "histogram", "a", null, TrainerConfig.paper()), "boom", 1, 1),
                result(2, "b", Double.NaN, Double.NaN, 32));
        Map<Integer, UciResult> p = UciReport.select(rs, List.of("a", "b"), UciReport.Criterion.PAPER);
        assertEquals(List.of(0, 1, 2), List.copyOf(p.keySet()));
        assertEquals(20, p.get(0).paper(), 0);
        assertEquals(31, p.get(1).paper(), 0);
        assertEquals(32, p.get(2).paper(), 0, "the only finished variant, even without a validation figure");
        Map<Integer, UciResult> f = UciReport.select(rs, List.of("a", "b"), UciReport.Criterion.FAIR);
        assertEquals(30, f.get(0).paper(), 0);
        assertEquals(21, f.get(1).paper(), 0);
    }

    @Test
    void resultsRoundTripAndACutOffLastLineIsIgnored() throws IOException {
        Path file = tmp.resolve("r.jsonl");
        UciResults store = UciResults.open(file);
        UciResult a = result(0, "a", 2.0, 5.0, 20);
        UciResult b = UciResult.failed(new UciTask("d", 1, "histogram", "a", "ce", TrainerConfig.paper()), "x \"y\"", 1, 1);
        store.append(a);
        store.append(b);
        assertEquals(List.of(a, b).toString(), UciResults.open(file).all().toString());
        // an interruption cut the next line short: reading ignores it, the next append starts a fresh line
        Files.writeString(file, Files.readString(file) + "{\"dataset\":\"d\",\"fo", java.nio.file.StandardOpenOption.WRITE);
        UciResults reopened = UciResults.open(file);
        assertEquals(2, reopened.all().size());
        UciResult c = result(2, "b", 1, 1, 1);
        reopened.append(c);
        assertEquals(3, UciResults.open(file).all().size());
        assertEquals(c.toString(), UciResults.open(file).get(c.key()).toString());
        // anything else malformed is an error naming the line
        Files.writeString(file, "not json\n" + Files.readString(file));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UciResults.open(file));
        assertTrue(e.getMessage().startsWith("--results: line 1 of " + file + " is not a result: JSON: expected '{'"),
                e.getMessage());
    }

    /**
     * A result line written before the encoder was a setting reads as the default encoder and keeps its key, so a
     * rerun finds it; another encoder is part of the key.
     */
    @Test
    void encoderIsPartOfTheKeyOnlyWhenNotTheDefault() {
        UciResult a = result(0, "a", 2.0, 5.0, 20);
        java.util.Map<String, Object> old = Json.readFlat(Json.write(a.toMap()));
        old.remove("encoder");
        UciResult back = UciResult.fromMap(old);
        assertEquals("2x256", back.encoder());
        assertEquals(new UciTask("d", 0, "histogram", "a", null, TrainerConfig.paper()).key(), back.key());
        assertTrue(!back.key().contains("encoder"), back.key());
        UciTask wide = new UciTask("d", 0, "histogram", "a", null, TrainerConfig.paper(), 3, 128);
        assertTrue(wide.key().endsWith("|encoder=3x128"), wide.key());
        assertEquals(wide.key(), UciResult.failed(wide, "x", 1, 1).key());
    }

    @Test
    void figuresHaveFourSignificantDigits() {
        assertEquals("0.1235", UciReport.num(0.12345));
        assertEquals("1.349e+63", UciReport.num(1.3486569398285482e63));
        assertEquals("nan", UciReport.num(Double.NaN));
    }
}
