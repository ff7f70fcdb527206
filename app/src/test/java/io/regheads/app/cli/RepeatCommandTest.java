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
     * The trained decoders predict f: for both r, the MSE of the 4-sample mean against the noise-free f(x) is below
     * half the MSE of the constant 0.5 on the same test x (about 0.35^2 / 2 = 0.061), and below the 1-sample MSE (the
     * mean of more samples has less sampling variance). Measured: r = 1: 0.027, 0.018, 0.011; r = 2: 0.030, 0.019,
     * 0.016 for 1, 2, 4 samples.
     */
    @Test
    void commandWritesTableAndPlot() throws IOException {
        Path png = tmp.resolve("r/repeat.png");
        CliTestSupport.Run r = CliTestSupport.run("repeat", "--repeats", "1,2", "--max-samples", "4", "--train", "1500",
                "--test", "50", "--epochs", "8", "--out", png.toString());
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(2 + 2 * 3 + 1, lines.length, r.out()); // setup, header, r x {1, 2, 4}, plot line
        var test = RepeatCommand.sample(50, 0.05, org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(1));
        double constant = 0;
        for (int i = 0; i < test.rows(); i++) {
            double e = RepeatCommand.f(test.x(i, 0)) - 0.5;
            constant += e * e / test.rows();
        }
        for (int block = 0; block < 2; block++) {
            String[] one = lines[2 + 3 * block].strip().split("\\s+");
            String[] four = lines[4 + 3 * block].strip().split("\\s+");
            assertEquals(String.valueOf(block + 1), one[0]);
            assertEquals("1", one[1]);
            assertEquals("4", four[1]);
            double mse1 = Double.parseDouble(one[2]);
            double mse4 = Double.parseDouble(four[2]);
            assertTrue(mse4 < 0.5 * constant, "r=" + (block + 1) + ": " + mse4 + " vs constant 0.5: " + constant);
            assertTrue(mse4 < mse1, r.out());
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
