package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.cli.Regheads;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The experiment commands through the command line: table, JSON and PNG agree; bad options give one error line. */
class ExperimentCommandsTest {
    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Regheads.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * The pointwise head on the 2-D sphere ranks 300 fresh points with Kendall tau above 0.8 (a shuffled model: 0
     * +- 0.04); the printed tau, the mean row and the JSON hold the same number.
     */
    @Test
    void bbobPrintsAndWritesTheSameTau() throws IOException {
        Run r = run("bbob", "--functions", "sphere", "--dims", "2", "--heads", "pointwise", "--train", "400", "--test",
                "300", "--epochs", "30", "--width", "32", "--runs", "1", "--out", tmp.toString());
        assertEquals(0, r.exit(), r.err());
        String row = r.out().lines().filter(l -> l.startsWith("sphere ")).findFirst().orElseThrow();
        String[] f = row.strip().split("\\s+"); // function, D, pointwise tau, shuffled tau
        double tau = Double.parseDouble(f[2]);
        assertTrue(tau > 0.8, row);
        assertTrue(Math.abs(Double.parseDouble(f[3])) < 0.15, row);
        String mean = r.out().lines().filter(l -> l.matches("mean +2 .*")).findFirst().orElseThrow();
        assertEquals(f[2], mean.strip().split("\\s+")[2]);
        String json = Files.readString(tmp.resolve("bbob.json"));
        int at = json.indexOf("\"tau\":") + 6;
        assertEquals(tau, Double.parseDouble(json.substring(at, json.indexOf(',', at))), 5e-4);
        assertTrue(Files.size(tmp.resolve("bbob.png")) > 10_000);
    }

    @Test
    void badOptionsAreOneErrorLine() {
        Run shape = run("density", "--shapes", "cube", "--out", tmp.toString());
        assertEquals(Regheads.EXIT_BAD_INPUT, shape.exit());
        assertEquals("regheads: shape must be one of branches, circle, band, skewed, got 'cube'", shape.err().strip());
        Run dims = run("bbob", "--dims", "1", "--out", tmp.toString());
        assertEquals("regheads: dimensions must be in 2..100, got 1", dims.err().strip());
        Run data = run("hamming", "--datasets-dir", tmp.toString(), "--datasets", "nope", "--out", tmp.toString());
        assertEquals("regheads: --datasets: nope.csv not found in " + tmp, data.err().strip());
        Run tokens = run("repeat-mean", "--tokens", "10,1", "--out", tmp.toString());
        assertEquals("regheads: --tokens must be base,exponent digits,mantissa digits such as 10,1,3, got '10,1'",
                tokens.err().strip());
        Run fn = run("curve-fit", "--functions", "cubic", "--out", tmp.toString());
        assertEquals("regheads: function must be one of exp, spike, steps, fast-sine, got 'cubic'", fn.err().strip());
    }
}
