package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultsCommandTest {
    @TempDir
    Path tmp;

    /** A data folder with a 40-row data set and a 4-fold split (row i in fold i mod 4). */
    private Path datasets() throws IOException {
        Path dir = tmp.resolve("datasets");
        Files.createDirectories(dir.resolve("splits/tiny"));
        CliTestSupport.linearCsv(dir, "tiny.csv", 40);
        StringBuilder f = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            f.append(i % 4).append('\n');
        }
        Files.writeString(dir.resolve("splits/tiny/fold.txt"), f.toString());
        return dir;
    }

    private CliTestSupport.Run defaults(Path dir, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("defaults", "--data-dir", dir.toString(), "--folds", "0",
                "--epochs", "1", "--results", tmp.resolve("r.jsonl").toString(), "--out", tmp.resolve("r.md").toString()));
        args.addAll(List.of(more));
        return CliTestSupport.run(args.toArray(new String[0]));
    }

    @Test
    void theOuterFoldIsNeverReadAndTheNextFoldIsScored() throws IOException {
        Path dir = datasets();
        InputData in = new InputData("tiny", CsvLoader.load(dir.resolve("tiny.csv")),
                Folds.forDataset(dir, "tiny"), "fold file");
        Dataset[] split = DefaultsCommand.innerSplit(in, 3);
        // fold 3 holds rows 3, 7, ...; fold 0 (3 + 1 mod 4) is scored; folds 1 and 2 train; x1 = i / 40 names the row
        assertArrayEquals(rows(1, 2), Arrays.stream(split[0].x()).mapToInt(r -> (int) Math.round(r[0] * 40)).toArray());
        assertArrayEquals(rows(0), Arrays.stream(split[1].x()).mapToInt(r -> (int) Math.round(r[0] * 40)).toArray());
    }

    private static int[] rows(int... folds) {
        return java.util.stream.IntStream.range(0, 40).filter(i -> Arrays.stream(folds).anyMatch(f -> i % 4 == f))
                .toArray();
    }

    @Test
    void ranksEveryCandidateAndARerunTrainsNothing() throws IOException {
        Path dir = datasets();
        CliTestSupport.Run r = defaults(dir, "--studies", "mdn-optimizer");
        assertEquals(0, r.exit(), r.err());
        String md = Files.readString(tmp.resolve("r.md"));
        assertTrue(r.out().startsWith(md), "stdout shows the report");
        assertTrue(md.contains("## mdn-optimizer"), md);
        assertTrue(md.contains("### mdn (1 units)"), md);
        for (String label : new String[] {"lr=1e-3,clip=0", "lr=1e-3,clip=1", "lr=3e-4,clip=0", "lr=3e-4,clip=1"}) {
            assertTrue(md.contains("| " + label + " | "), label + " in " + md);
        }
        List<String> lines = Files.readAllLines(tmp.resolve("r.jsonl"));
        assertEquals(4, lines.size());
        for (String line : lines) {
            Map<String, Object> fit = Json.readFlat(line);
            assertEquals("OK", fit.get("status"), line);
            assertEquals(20.0, fit.get("trainRows")); // folds 2 and 3
            assertEquals(10.0, fit.get("selectionRows")); // fold 1
            assertEquals(1.0, fit.get("epochs"));
            assertTrue(Double.isFinite(DefaultsReport.value(fit, "nll")), line);
        }

        CliTestSupport.Run again = defaults(dir, "--studies", "mdn-optimizer");
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.err().contains("0 fits to run"), again.err());
        assertEquals(4, Files.readAllLines(tmp.resolve("r.jsonl")).size());
    }

    @Test
    void theCommandLineTrainsWithTheLibrarysDefaults() {
        io.regheads.core.train.TrainerConfig t = io.regheads.core.train.TrainerConfig.defaults();
        assertEquals(t.maxEpochs(), CompareCommand.DEFAULT_EPOCHS);
        assertEquals(t.patience(), CompareCommand.DEFAULT_PATIENCE);
    }

    @Test
    void tiesShareTheirMeanRankAndAFailedFitRanksLast() {
        @SuppressWarnings("unchecked")
        Map<String, Object>[] unit = new Map[] {Map.of("status", "OK", "nll", 2.0), Map.of("status", "OK", "nll", 1.0),
            Map.of("status", "OK", "nll", 1.0), Map.of("status", "FAILED", "message", "diverged")};
        assertArrayEquals(new double[] {3, 1.5, 1.5, 4}, DefaultsReport.ranks(unit, "nll"));
    }

    @Test
    void divergenceTrainsTheLibraryDefaults() throws IOException {
        CliTestSupport.Run r = defaults(datasets(), "--divergence", "--heads", "mdn");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("| tiny | 1 | 0 | 0 | 1.0 |"), r.out());
        Map<String, Object> fit = Json.readFlat(Files.readAllLines(tmp.resolve("r.jsonl")).get(0));
        assertEquals(30.0, fit.get("trainRows")); // every fold but 0
        assertEquals(io.regheads.core.train.TrainerConfig.defaults().withMaxEpochs(1).toString(), fit.get("trainer"));
    }
}
