package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UciCommandTest {
    @TempDir
    Path tmp;

    /** A datasets folder with a 40-row "yacht" (so the paper's yacht numbers appear) and a 4-fold split. */
    private Path fakeDatasets() throws IOException {
        Path dir = tmp.resolve("datasets");
        Files.createDirectories(dir.resolve("splits/yacht"));
        CliTestSupport.linearCsv(dir, "yacht.csv", 40);
        StringBuilder f = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            f.append(i % 4).append('\n');
        }
        Files.writeString(dir.resolve("splits/yacht/fold.txt"), f.toString());
        return dir;
    }

    @Test
    void writesTheTableBesideThePapersNumbers() throws IOException {
        Path dir = fakeDatasets();
        Path md = tmp.resolve("out/uci.md");
        CliTestSupport.Run r = CliTestSupport.run("uci", "--datasets-dir", dir.toString(), "--datasets", "yacht",
                "--folds", "0-1", "--heads", "pointwise,mdn", "--epochs", "1", "--quiet", "--out", md.toString());
        assertEquals(0, r.exit(), r.err());
        String text = Files.readString(md);
        assertTrue(r.out().startsWith(text), "stdout shows the table");
        // paper's yacht row (README): MDN 0.21, unnormalized 0.39, normalized 0.23, Riemann 1.29
        Matcher m = Pattern.compile("\\| yacht \\| 2 \\| (-?\\d+\\.\\d{3}) \\+- (\\d+\\.\\d{3}) \\| (-?\\d+\\.\\d{3}) \\+- "
                + "(\\d+\\.\\d{3}) \\| 0\\.21 \\| 0\\.39 \\| 0\\.23 \\| 1\\.29 \\|").matcher(text);
        assertTrue(m.find(), text);
        assertTrue(text.contains("| dataset | folds | pointwise | mdn (paper: MDN) | paper MDN |"), text);
        assertTrue(text.contains("./regheads uci --datasets-dir " + dir), text);
    }

    @Test
    void perFoldJsonMatchesTheTable() throws IOException {
        Path dir = fakeDatasets();
        CliTestSupport.Run r = CliTestSupport.run("uci", "--datasets-dir", dir.toString(), "--datasets", "yacht",
                "--folds", "1,3", "--heads", "pointwise", "--epochs", "1", "--quiet", "--json", "--out",
                tmp.resolve("u.md").toString());
        assertEquals(0, r.exit(), r.err());
        Matcher m = Pattern.compile("\"fold\":(\\d),\"nllY01\":(-?[0-9.E-]+)").matcher(r.out());
        double[] v = new double[2];
        int n = 0;
        while (m.find()) {
            assertEquals(n == 0 ? "1" : "3", m.group(1));
            v[n++] = Double.parseDouble(m.group(2));
        }
        assertEquals(2, n, r.out());
        assertTrue(Files.readString(tmp.resolve("u.md")).contains("| yacht | 2 | " + Stats.meanStd(v) + " |"));
    }

    @Test
    void unknownDatasetFailsBeforeTraining() throws IOException {
        Path dir = fakeDatasets();
        CliTestSupport.Run r = CliTestSupport.run("uci", "--datasets-dir", dir.toString(), "--datasets", "yacht,nope",
                "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, r.exit());
        assertEquals("regheads: --datasets: nope.csv not found in " + dir, r.err().strip());
        assertFalse(r.out().contains("|"));
    }
}
