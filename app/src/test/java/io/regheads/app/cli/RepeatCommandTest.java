package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RepeatCommandTest {
    @TempDir
    Path tmp;

    /** Draws [n][rows]: the mean of the first 1, 2, 4 per row, by hand. */
    @Test
    void prefixMeansAverageTheFirstNDraws() {
        double[][] draws = {{1, 10}, {3, 20}, {5, 30}, {7, 40}};
        double[][] m = RepeatCommand.prefixMeans(draws, 3);
        assertArrayEquals(new double[] {1, 10}, m[0], 1e-12);
        assertArrayEquals(new double[] {2, 15}, m[1], 1e-12);
        assertArrayEquals(new double[] {4, 25}, m[2], 1e-12);
    }

    /** f(0) = 0.5, f(1/4) = 0.85; with no noise the samples lie on f. */
    @Test
    void syntheticDataFollowsTheFunction() {
        assertEquals(0.85, RepeatCommand.f(0.25), 1e-12);
        var d = RepeatCommand.sample(50, 0, org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(1));
        for (int i = 0; i < d.rows(); i++) {
            assertEquals(RepeatCommand.f(d.x(i, 0)), d.y(i), 1e-12);
        }
    }

    @Test
    void commandWritesTableAndPlot() throws IOException {
        Path png = tmp.resolve("r/repeat.png");
        CliTestSupport.Run r = CliTestSupport.run("repeat", "--repeats", "1,2", "--max-samples", "4", "--train", "64",
                "--test", "5", "--epochs", "1", "--out", png.toString());
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(2 + 2 * 3 + 1, lines.length, r.out()); // setup, header, r x {1, 2, 4}, plot line
        String[] first = lines[2].strip().split("\\s+");
        assertEquals("1", first[0]);
        assertEquals("1", first[1]);
        double mse = Double.parseDouble(first[2]);
        assertTrue(mse >= 0 && mse < 1, r.out()); // y and predictions both lie in [0, 1)
        assertEquals("2", lines[7].strip().split("\\s+")[0]);
        assertEquals("4", lines[7].strip().split("\\s+")[1]);
        assertTrue(Files.size(png) > 1000);
    }

    @Test
    void badRepeatCountIsOneErrorLine() {
        CliTestSupport.Run bad = CliTestSupport.run("repeat", "--repeats", "1,0", "--out", tmp.resolve("x.png").toString());
        assertNotEquals(0, bad.exit());
        assertEquals("regheads: --repeats must be in 1..9 each, got 0", bad.err().strip());
    }
}
