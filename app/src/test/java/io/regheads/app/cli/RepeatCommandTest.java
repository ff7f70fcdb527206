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

    /**
     * A trained run beats a real reference: the best constant prediction (0.5) has MSE {@code Var f = 0.35^2 / 2 =
     * 0.06125} against f; a head that learned nothing samples about the marginal of y, whose mean of n draws has
     * MSE {@code Var f + Var y / n} (0.092 at n = 4). Measured (seed 0, 512 rows, 40 epochs): r = 1: 0.0163 (n = 1),
     * 0.0052 (n = 4); r = 2: 0.0210, 0.0045. Bounds: a quarter of Var f at n = 4, half of it at n = 1; and the mean
     * of four samples beats one sample (less sampling variance).
     */
    @Test
    void commandWritesTableAndPlot() throws IOException {
        Path png = tmp.resolve("r/repeat.png");
        CliTestSupport.Run r = CliTestSupport.run("repeat", "--repeats", "1,2", "--max-samples", "4", "--train", "512",
                "--test", "40", "--epochs", "40", "--out", png.toString());
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(2 + 2 * 3 + 1, lines.length, r.out()); // setup, header, r x {1, 2, 4}, plot line
        double varF = 0.35 * 0.35 / 2;
        for (int block = 0; block < 2; block++) {
            String[] one = lines[2 + 3 * block].strip().split("\\s+");
            String[] four = lines[4 + 3 * block].strip().split("\\s+");
            assertEquals(String.valueOf(block + 1), one[0]);
            assertEquals("1", one[1]);
            assertEquals("4", four[1]);
            double mse1 = Double.parseDouble(one[2]);
            double mse4 = Double.parseDouble(four[2]);
            assertTrue(mse1 < varF / 2, "one sample: " + r.out());
            assertTrue(mse4 < varF / 4, "mean of four: " + r.out());
            assertTrue(mse4 < mse1, "mean of four vs one sample: " + r.out());
        }
        assertTrue(Files.size(png) > 1000);
    }

    @Test
    void badRepeatCountIsOneErrorLine() {
        CliTestSupport.Run bad = CliTestSupport.run("repeat", "--repeats", "1,0", "--out", tmp.resolve("x.png").toString());
        assertNotEquals(0, bad.exit());
        assertEquals("regheads: --repeats must be in 1..9 each, got 0", bad.err().strip());
    }
}
