package io.regheads.app.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.cli.Regheads;
import io.regheads.app.grid.TaskRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code regheads uci --spark local[2]}: the fits run as Spark tasks and give the single-JVM figures and tables; each
 * run writes its own results file (a shared one would let the second run skip every fit).
 */
@Tag("spark")
class SparkUciTest {
    @TempDir
    static Path tmp;
    static Path datasets;

    @BeforeAll
    static void setUp() throws IOException {
        LocalSpark.session(); // the runner joins the suite's local[2] session
        datasets = tmp.resolve("datasets");
        Files.createDirectories(datasets.resolve("splits/yacht"));
        StringBuilder csv = new StringBuilder("a,b,target\n");
        StringBuilder folds = new StringBuilder();
        for (int i = 0; i < 48; i++) {
            double a = i / 48.0;
            double b = Math.sin(i);
            csv.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", a, b, 3 * a - b + 0.1 * Math.cos(7 * i)));
            folds.append(i % 4).append('\n');
        }
        Files.writeString(datasets.resolve("yacht.csv"), csv.toString());
        Files.writeString(datasets.resolve("splits/yacht/fold.txt"), folds.toString());
    }

    record Run(int exit, String out, String err) {}

    static Run uci(String results, String... extra) {
        String[] base = {"uci", "--datasets-dir", datasets.toString(), "--datasets", "yacht", "--folds", "0-3",
            "--heads", "pointwise,mdn", "--epochs", "2", "--quiet", "--json", "--out", tmp.resolve("t.md").toString(),
            "--results", tmp.resolve(results).toString()};
        String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(extra))
                .toArray(String[]::new);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Regheads.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /** The per-fit results without the wall times, load averages, command line and results file. */
    static String withoutTimes(String json) {
        return json.replaceAll("\"(trainSeconds|evalSeconds|load)\":[0-9.Ee-]+", "")
                .replaceAll("\"command\":\"[^\"]*\"", "");
    }

    @Test
    void sparkTasksGiveTheSingleJvmTable() throws IOException {
        Run single = uci("single.jsonl");
        assertEquals(0, single.exit(), single.err());
        String singleTable = tableRows();
        Run spark = uci("spark.jsonl", "--spark", "local[2]");
        assertEquals(0, spark.exit(), spark.err());
        assertTrue(spark.out().contains("\"head\":\"mdn\",\"variant\":\"preset\""), spark.out());
        assertEquals(withoutTimes(single.out()), withoutTimes(spark.out()));
        assertEquals(singleTable, tableRows());
        assertTrue(singleTable.contains("| yacht |"), singleTable);
        assertEquals(8, Files.readAllLines(tmp.resolve("spark.jsonl")).size()); // 2 heads x 4 folds, one line each
    }

    /** The report's tables of figures (its dataset lines), without the run header and the timing table. */
    static String tableRows() throws IOException {
        String md = Files.readString(tmp.resolve("t.md"));
        return md.substring(0, md.indexOf("### Time per fit")).lines().filter(l -> l.startsWith("| yacht"))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void theRunnerIsFoundByNameAndKeepsTaskOrder() {
        try (TaskRunner r = TaskRunner.open("spark", "local[2]")) {
            List<Integer> seen = new java.util.ArrayList<>();
            List<Integer> sq = r.run(List.of(3, 1, 4, 1, 5), i -> i * i, seen::add);
            assertEquals(List.of(9, 1, 16, 1, 25), sq);
            assertEquals(sq, seen);
            assertTrue(r.describe().startsWith("spark local[2]"), r.describe());
        }
    }

    @Test
    void aBadArgumentInATaskComesBackAsIllegalArgument() {
        try (TaskRunner r = TaskRunner.open("spark", "")) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> r.run(List.of(1, 2), i -> {
                        if (i == 2) {
                            throw new IllegalArgumentException("i must be 1, got 2");
                        }
                        return i;
                    }, x -> {}));
            assertEquals("i must be 1, got 2", e.getMessage());
        }
    }
}
