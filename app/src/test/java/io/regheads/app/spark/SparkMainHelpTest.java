package io.regheads.app.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The entry point's help and option errors (picocli, as the rest of the command line): no Spark job runs. */
class SparkMainHelpTest {

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SparkMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpListsTheCommandsAndEachCommandsOptions() {
        Run top = run("--help");
        assertEquals(0, top.exit());
        for (String s : new String[] {"Usage: regheads-spark", "score", "train", "uci", "throughput", "spark-submit",
            "Exit codes:"}) {
            assertTrue(top.out().contains(s), s + " in " + top.out());
        }
        Run score = run("score", "--help");
        assertEquals(0, score.exit());
        for (String s : new String[] {"--model", "--input", "--output", "--features", "--partitions", "--master"}) {
            assertTrue(score.out().contains(s), s + " in " + score.out());
        }
        Run train = run("help", "train");
        assertEquals(0, train.exit());
        assertTrue(train.out().contains("--model-out") && train.out().contains("--partition-batch-size"), train.out());
        assertEquals(0, run("uci", "--help").exit());
        Run none = run(); // no command: the usage
        assertEquals(0, none.exit());
        assertTrue(none.out().startsWith("Usage: regheads-spark"), none.out());
    }

    @Test
    void badOptionsAreOneLineWithExitCode2() {
        Run missing = run("score", "--model", "m.rgh");
        assertEquals(SparkMain.EXIT_BAD_INPUT, missing.exit());
        assertTrue(missing.err().startsWith("regheads-spark: Missing required options: '--input=PATH', "
                + "'--output=PATH'"), missing.err());
        assertEquals(1, missing.err().strip().lines().count(), missing.err());
        Run unknown = run("score", "--model", "m.rgh", "--input", "in.csv", "--output", "out.csv", "--bogus", "1");
        assertEquals(SparkMain.EXIT_BAD_INPUT, unknown.exit());
        assertTrue(unknown.err().contains("Unknown option"), unknown.err());
    }
}
