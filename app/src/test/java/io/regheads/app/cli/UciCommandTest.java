package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UciCommandTest {
    @TempDir
    Path tmp;

    /** A data folder with a 40-row data set {@code name} and a 4-fold split (row i in fold i mod 4). */
    private Path fakeDatasets(String name) throws IOException {
        Path dir = tmp.resolve("datasets");
        Files.createDirectories(dir.resolve("splits/" + name));
        CliTestSupport.linearCsv(dir, name + ".csv", 40);
        StringBuilder f = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            f.append(i % 4).append('\n');
        }
        Files.writeString(dir.resolve("splits/" + name + "/fold.txt"), f.toString());
        return dir;
    }

    private CliTestSupport.Run uci(Path dir, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("uci", "--data-dir", dir.toString(), "--epochs", "1",
                "--results", tmp.resolve("r.jsonl").toString(), "--out", tmp.resolve("r.md").toString()));
        args.addAll(List.of(more));
        return CliTestSupport.run(args.toArray(new String[0]));
    }

    @Test
    void reportsBothFiguresBesideThePapersForEveryHead() throws IOException {
        Path dir = fakeDatasets("yacht");
        CliTestSupport.Run r = uci(dir, "--folds", "0-1", "--quiet");
        assertEquals(0, r.exit(), r.err());
        String md = Files.readString(tmp.resolve("r.md"));
        assertTrue(r.out().startsWith(md), "stdout shows the report");
        // paper-compatible table: all five heads, the paper's yacht row (appendix A.4) beside its four columns
        assertTrue(md.contains("| dataset | pointwise | histogram | paper Riemann | mdn | paper MDN | decoder | paper "
                + "Normalized decoder | unnormalized-decoder | paper Unnormalized decoder |"), md);
        Matcher m = Pattern.compile("\\| yacht \\| (-?[0-9.]+(?:e[-+]\\d+)? \\+- [0-9.]+(?:e[-+]\\d+)?) \\| "
                + "(-?[0-9.]+(?:e[-+]\\d+)? \\+- [0-9.]+(?:e[-+]\\d+)?)(?: \\(!\\))? \\| "
                + "1\\.29 \\+- 0\\.38 \\| .* \\| 0\\.21 \\+- 0\\.10 \\| .* \\| 0\\.23 \\+- 0\\.05 \\| .* \\| 0\\.39 \\+- 0\\.02 \\|")
                .matcher(md);
        assertTrue(m.find(), md);
        // fair tables: density NLL, CRPS, resolution NLL, five heads each
        for (String t : new String[] {"### Density NLL of y01", "### CRPS of y01", "### NLL at the data's resolution"}) {
            int at = md.indexOf(t);
            assertTrue(at >= 0, t);
            assertTrue(md.indexOf("| dataset | pointwise | histogram | mdn | decoder | unnormalized-decoder |", at) > at);
        }
        assertTrue(md.contains("./regheads uci --data-dir " + dir), md);
        assertTrue(md.contains("### Failed fits: 0"), md);
    }

    @Test
    void perFitJsonMatchesTheTable() throws IOException {
        Path dir = fakeDatasets("yacht");
        CliTestSupport.Run r = uci(dir, "--folds", "1,3", "--heads", "histogram", "-H", "bins=100", "-H", "tails=false",
                "--quiet", "--json");
        assertEquals(0, r.exit(), r.err());
        Matcher m = Pattern.compile("\"fold\":(\\d),\"head\":\"histogram\".*?\"paper\":([-0-9.E]+),\"paperUnmasked\":"
                + "([-0-9.E]+),\"fair\":([-0-9.E]+)").matcher(r.out());
        double[] paper = new double[2];
        int n = 0;
        while (m.find()) {
            assertEquals(n == 0 ? "1" : "3", m.group(1));
            paper[n] = Double.parseDouble(m.group(2));
            assertEquals(paper[n], Double.parseDouble(m.group(3)), 0.0, "a histogram has no mask");
            // 100 bins without tails: NLL01 = x - ln 100, plus -log(1 - 1e-3) for the tails the model gives
            // a histogram without its own (their mass)
            assertEquals(paper[n] - Math.log(100) - Math.log1p(-1e-3), Double.parseDouble(m.group(4)), 1e-4);
            n++;
        }
        assertEquals(2, n, r.out());
        String md = Files.readString(tmp.resolve("r.md"));
        double[] ms = Stats.of(paper);
        assertTrue(md.contains("| yacht | " + Fmt.sig(ms[0]) + " +- " + Fmt.sig(ms[1])), md);
    }

    /** A rerun skips the fits the results file holds and runs only the new ones; the old lines stay as they were. */
    @Test
    void rerunSkipsFinishedFits() throws IOException {
        Path dir = fakeDatasets("yacht");
        CliTestSupport.Run first = uci(dir, "--folds", "0", "--heads", "pointwise,mdn", "--quiet");
        assertEquals(0, first.exit(), first.err());
        List<String> before = Files.readAllLines(tmp.resolve("r.jsonl"));
        assertEquals(2, before.size());
        CliTestSupport.Run second = CliTestSupport.run("uci", "--data-dir", dir.toString(), "--epochs", "1",
                "--results", tmp.resolve("r.jsonl").toString(), "--out", tmp.resolve("r.md").toString(), "--folds",
                "0-1", "--heads", "pointwise,mdn");
        assertEquals(0, second.exit(), second.err());
        List<String> after = Files.readAllLines(tmp.resolve("r.jsonl"));
        assertEquals(4, after.size());
        assertEquals(before, after.subList(0, 2));
        assertTrue(second.err().contains("regheads uci: 4 fits, 2 already in " + tmp.resolve("r.jsonl") + ", 2 to run"),
                second.err());
        // one progress line per fit run, counting the fits to run
        assertTrue(second.err().contains("[1/2] yacht fold 1 pointwise preset: paper "), second.err());
        assertTrue(second.err().contains("[2/2] yacht fold 1 mdn preset: paper "), second.err());
        // a different trainer is a different fit
        CliTestSupport.Run third = uci(dir, "--folds", "0", "--heads", "pointwise", "--seed", "7", "--quiet");
        assertEquals(0, third.exit(), third.err());
        assertEquals(5, Files.readAllLines(tmp.resolve("r.jsonl")).size());
    }

    /**
     * A fold whose training rows have a constant target cannot be fitted: that fit is recorded as failed, naming the
     * data set, head and fold, and the run goes on with the next fold.
     */
    @Test
    void aFailedFitIsRecordedAndTheRunGoesOn() throws IOException {
        Path dir = tmp.resolve("datasets");
        Files.createDirectories(dir.resolve("splits/odd"));
        StringBuilder csv = new StringBuilder("x1,y\n");
        StringBuilder folds = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            // only the rows of fold 0 vary: fold 0's training rows (folds 1-3) all have y = 1
            csv.append(String.format(Locale.ROOT, "%.3f,%.3f%n", i / 40.0, i % 4 == 0 ? 1 + i / 10.0 : 1.0));
            folds.append(i % 4).append('\n');
        }
        Files.writeString(dir.resolve("odd.csv"), csv.toString());
        Files.writeString(dir.resolve("splits/odd/fold.txt"), folds.toString());
        CliTestSupport.Run r = uci(dir, "--folds", "0-1", "--heads", "mdn");
        assertEquals(Regheads.EXIT_HEAD_FAILED, r.exit(), r.err()); // the run went on, but says a fit failed
        assertTrue(r.out().contains("1 fits FAILED (exit code 1)"), r.out());
        assertTrue(r.err().contains("[1/2] odd fold 0 mdn preset: FAILED: IllegalArgumentException: yTrain must not be "
                + "constant"), r.err());
        assertTrue(r.err().contains("[2/2] odd fold 1 mdn preset: paper "), r.err());
        List<String> lines = Files.readAllLines(tmp.resolve("r.jsonl"));
        assertEquals(2, lines.size());
        UciResult failed = UciResult.fromMap(Json.readFlat(lines.get(0)));
        assertEquals("failed", failed.status());
        assertTrue(Double.isNaN(failed.paper()));
        String md = Files.readString(tmp.resolve("r.md"));
        assertTrue(md.contains("### Failed fits: 1"), md);
        assertTrue(md.contains("| odd | mdn | preset | 0 | IllegalArgumentException: yTrain must not be constant"), md);
        assertTrue(md.contains(" (1/2 folds)"), md);
        // a rerun keeps the failure unless asked to retry it
        CliTestSupport.Run again = uci(dir, "--folds", "0-1", "--heads", "mdn");
        assertTrue(again.err().contains("2 already in"), again.err());
        CliTestSupport.Run retry = uci(dir, "--folds", "0-1", "--heads", "mdn", "--retry-failed");
        assertTrue(retry.err().contains("1 to run"), retry.err());
    }

    @Test
    void everyPaperDatasetGetsItsPaperColumn() throws IOException {
        Path dir = fakeDatasets("tamielectric");
        CliTestSupport.Run r = uci(dir, "--folds", "0", "--heads", "decoder", "--quiet");
        assertEquals(0, r.exit(), r.err());
        // appendix A.4: TamiElectric normalized decoder 0.69 +- 0.00
        assertTrue(Files.readString(tmp.resolve("r.md")).contains(" | 0.69 +- 0.00 |"));
        assertEquals(25, PaperTable.datasets().size());
        assertEquals(7.49, PaperTable.row("Kin 40K").mean(PaperTable.Column.MDN), 0);
    }

    @Test
    void unknownDatasetFailsBeforeTraining() throws IOException {
        Path dir = fakeDatasets("yacht");
        CliTestSupport.Run r = uci(dir, "--datasets", "yacht,nope", "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, r.exit());
        assertEquals("regheads: --datasets: nope.csv not found in " + dir, r.err().strip());
        assertFalse(r.out().contains("|"));
        assertFalse(Files.exists(tmp.resolve("r.jsonl")));
    }

    @Test
    void paperProtocolTrainsEachGridPoint() throws IOException {
        Path dir = fakeDatasets("yacht");
        CliTestSupport.Run r = uci(dir, "--folds", "0", "--heads", "histogram", "--protocol", "paper", "--quiet");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = Files.readAllLines(tmp.resolve("r.jsonl"));
        assertEquals(3, lines.size());
        for (int i = 0; i < 3; i++) {
            UciResult res = UciResult.fromMap(Json.readFlat(lines.get(i)));
            assertEquals(new String[] {"bins=16", "bins=64", "bins=256"}[i], res.variant());
            assertTrue(res.trainer().contains("learningRate=5.0E-4"), res.trainer());
        }
        assertTrue(Files.readString(tmp.resolve("r.md")).contains("| yacht | histogram | bins=64 | 1 |"));
        CliTestSupport.Run bad = uci(dir, "--protocol", "papers", "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, bad.exit());
        assertEquals("regheads: --protocol must be preset, paper or paper-clipped, got 'papers'", bad.err().strip());
    }

    /** paper-clipped: the paper's grid and learning rate, the gradient norm clipped at 1 (in the results' keys). */
    @Test
    void paperClippedProtocolClipsTheGradient() throws IOException {
        Path dir = fakeDatasets("yacht");
        CliTestSupport.Run r = uci(dir, "--folds", "0", "--heads", "mdn", "--protocol", "paper-clipped", "--quiet");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = Files.readAllLines(tmp.resolve("r.jsonl"));
        assertEquals(3, lines.size());
        for (String line : lines) {
            UciResult res = UciResult.fromMap(Json.readFlat(line));
            assertTrue(res.trainer().contains("learningRate=5.0E-4") && res.trainer().contains("clipNorm=1.0"),
                    res.trainer());
        }
    }

    /**
     * -H and the encoder options reach every fit: the variant is the preset with the changed settings, the encoder is
     * recorded and part of the key; the paper protocol, which trains each head's own grid, refuses -H.
     */
    @Test
    void headSettingsAndEncoderReachTheFits() throws IOException {
        Path dir = fakeDatasets("yacht");
        CliTestSupport.Run r = uci(dir, "--folds", "0", "--heads", "histogram", "-H", "bins=8", "-H", "tails=true",
                "--encoder-width", "16", "--encoder-layers", "3", "--batch-size", "16", "--quiet");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = Files.readAllLines(tmp.resolve("r.jsonl"));
        assertEquals(1, lines.size());
        UciResult res = UciResult.fromMap(Json.readFlat(lines.get(0)));
        assertEquals("bins=8,tails=true", res.variant());
        assertEquals("3x16", res.encoder());
        assertTrue(res.key().endsWith("|encoder=3x16"), res.key());
        assertTrue(res.trainer().contains("batchSize=16"), res.trainer());
        String md = Files.readString(tmp.resolve("r.md"));
        assertTrue(md.contains("Heads and variants: histogram (bins=8,tails=true)."), md);
        assertTrue(md.contains("model: MLP 3x16 ReLU; AdamW lr 0.0001, batch 16"), md);
        CliTestSupport.Run paper = uci(dir, "--folds", "0", "--heads", "histogram", "-H", "bins=8", "--protocol",
                "paper", "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, paper.exit());
        assertTrue(paper.err().strip().startsWith("regheads: -H and --config head settings change the preset "
                + "(--protocol preset)"), paper.err());
    }
}
