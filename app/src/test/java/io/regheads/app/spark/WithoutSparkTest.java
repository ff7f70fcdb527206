package io.regheads.app.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line as a plain user runs it, without Spark on the class path (a JVM of its own, with this test's
 * class path minus Spark's jars): {@code --help} works, and a Spark command fails with one line that says what is
 * missing and where to get it.
 */
class WithoutSparkTest {
    @TempDir
    Path tmp;

    record Result(int exit, String out, String err) {}

    static Result java(String mainClass, String... args) throws IOException, InterruptedException {
        String full = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String cp = Arrays.stream(full.split(File.pathSeparator))
                .filter(e -> !e.replace('\\', '/').contains("/org/apache/spark/"))
                .collect(Collectors.joining(File.pathSeparator));
        assertFalse(cp.equals(full), "the test's class path has Spark to leave out");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", cp, mainClass));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("regheads-out", ".txt");
        Path err = Files.createTempFile("regheads-err", ".txt");
        try {
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the command line did not finish in 120 s");
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void helpWorksAndASparkCommandFailsWithOneLine() throws Exception {
        Result help = java(SparkMain.class.getName(), "--help");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().contains("score") && help.out().contains("train") && help.out().contains("uci"),
                help.out());

        Result score = java(SparkMain.class.getName(), "score", "--model", "m.rgh", "--input", "in.parquet", "--output",
                "out.parquet");
        assertEquals(SparkMain.EXIT_BAD_INPUT, score.exit(), score.err());
        assertEquals("regheads-spark: score needs Apache Spark on the class path, and it is not there: run it with "
                + "spark-submit, or locally with scripts/spark-local (see docs/spark.md)", score.err().strip());
    }

    @Test
    void uciWithSparkFailsWithOneLine() throws Exception {
        Path data = tmp.resolve("datasets");
        Files.createDirectories(data.resolve("splits/yacht"));
        StringBuilder csv = new StringBuilder("a,b,target\n");
        StringBuilder folds = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            csv.append(i).append(',').append(i % 3).append(',').append(2 * i + 1).append('\n');
            folds.append(i % 2).append('\n');
        }
        Files.writeString(data.resolve("yacht.csv"), csv.toString());
        Files.writeString(data.resolve("splits/yacht/fold.txt"), folds.toString());
        Result uci = java("io.regheads.app.cli.Regheads", "uci", "--spark", "local[2]", "--datasets-dir",
                data.toString(), "--datasets", "yacht", "--folds", "0", "--heads", "mdn", "--epochs", "1", "--quiet",
                "--out", tmp.resolve("t.md").toString(), "--results", tmp.resolve("r.jsonl").toString());
        assertEquals(2, uci.exit(), uci.err());
        assertEquals("regheads: uci --spark needs Apache Spark on the class path, and it is not there: run it with "
                + "spark-submit, or locally with scripts/spark-local (see docs/spark.md)", uci.err().strip());
    }
}
