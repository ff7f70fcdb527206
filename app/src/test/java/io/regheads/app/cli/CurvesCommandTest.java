package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CurvesCommandTest {
    @TempDir
    Path tmp;

    /** Residuals from the noise-free curves have the stated noise level (sample std within 10% for n = 4000). */
    @Test
    void samplesFollowTheStatedFunctions() {
        int n = 4000;
        Dataset b = CurvesCommand.sample("bimodal", n, 1);
        Dataset s = CurvesCommand.sample("steps", n, 2);
        double sb = 0;
        double ss = 0;
        int upper = 0;
        for (int i = 0; i < n; i++) {
            double x = b.x(i, 0);
            assertTrue(x >= -1 && x < 1);
            double branch = 0.5 + 0.5 * x;
            double r = b.y(i) >= 0 ? b.y(i) - branch : b.y(i) + branch;
            upper += b.y(i) >= 0 ? 1 : 0;
            sb += r * r;
            double rs = s.y(i) - Math.floor(4 * s.x(i, 0)) / 4;
            ss += rs * rs;
        }
        // the branch sign is read off y; near x = -1 both branches meet, which biases the std down a little
        assertEquals(0.05, Math.sqrt(sb / n), 0.005);
        assertEquals(0.03, Math.sqrt(ss / n), 0.003);
        assertEquals(0.5, upper / (double) n, 0.05);
        assertThrows(IllegalArgumentException.class, () -> CurvesCommand.sample("cubic", 100, 1));
        assertThrows(IllegalArgumentException.class, () -> CurvesCommand.sample("sine", 9, 1));
    }

    /**
     * Both heads learn the sine: test RMSE below 0.3, between the best possible 0.189 (the noise, sqrt of
     * E[(0.05 + 0.125 (x + 1))^2] = 0.0358) and the 0.748 of a constant prediction (sqrt of var sin(3x) = 1/2 - sin(6) /
     * 12 plus the noise), and 90% intervals that cover between 75% and 99% of the 100 test rows.
     */
    @Test
    void writesOnePngPerHead() throws IOException {
        CliTestSupport.Run r = CliTestSupport.run("curves", "--function", "sine", "--samples", "400", "--epochs", "60",
                "--heads", "pointwise,mdn", "--quiet", "--out", tmp.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("function sine: 400 training and 100 test samples;"), r.out());
        String[] lines = r.out().strip().split("\n");
        for (int i = 0; i < 2; i++) {
            String[] f = lines[2 + i].strip().split("\\s+"); // head, loss, NLL, RMSE, cov90, train s
            assertEquals(i == 0 ? "pointwise" : "mdn", f[0]);
            double rmse = Double.parseDouble(f[3]);
            double cov = Double.parseDouble(f[4]);
            assertTrue(rmse > 0.15 && rmse < 0.3, lines[2 + i]);
            assertTrue(cov >= 0.75 && cov <= 0.99, lines[2 + i]);
        }
        for (String h : new String[] {"pointwise", "mdn"}) {
            assertTrue(Files.size(tmp.resolve("curves-sine-" + h + ".png")) > 1000, h);
        }
        CliTestSupport.Run bad = CliTestSupport.run("curves", "--function", "cubic", "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, bad.exit());
        assertEquals("regheads: --function must be one of [sine, bimodal, steps], got 'cubic'", bad.err().strip());
    }
}
