package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code scoring-rules} on the embedded airfoil data, one fold, a few epochs: the table, summary and JSON agree. */
class ScoringRulesCommandTest {
    @TempDir
    Path tmp;

    @Test
    void tableSummaryAndJsonCoverEveryVariant() throws IOException {
        ExperimentCommandsTest.Run r = ExperimentCommandsTest.run("scoring-rules", "--datasets-dir", tmp.toString(),
                "--datasets", "airfoil", "--folds", "0", "--epochs", "2", "--variants",
                "mdn:ce,mdn:crps,quantile:pinball", "--out", tmp.toString());
        assertEquals(0, r.exit(), r.err());
        for (String v : new String[] {"mdn:ce", "mdn:crps", "quantile:pinball"}) {
            assertTrue(r.out().contains("| airfoil | " + v + " | "), v + "\n" + r.out());
        }
        assertTrue(r.out().contains("| mdn:crps vs ce | "), r.out());
        assertTrue(r.out().contains("| quantile:pinball (baseline) | - | - | - | - |"), r.out());
        assertTrue(r.out().contains(" | 0/1 |\n"), r.out()); // failed fits
        String json = Files.readString(tmp.resolve("scoring-rules.json"));
        assertEquals(3, json.split("\"variant\"", -1).length - 1, json);
        assertTrue(!json.contains("NaN"), json);
    }

    @Test
    void badVariantsAreOneLine() {
        ExperimentCommandsTest.Run r = ExperimentCommandsTest.run("scoring-rules", "--variants", "mdn", "--folds", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--variants must list head:loss pairs such as mdn:crps, got 'mdn'"), r.err());
        r = ExperimentCommandsTest.run("scoring-rules", "--variants", "mdn:kl", "--folds", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--variants: loss term 'kl'"), r.err());
    }
}
