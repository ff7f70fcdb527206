package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RiskCommandTest {
    @TempDir
    Path tmp;

    private static double phi(double z) {
        return Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
    }

    /**
     * int_0^1 f'^2 in closed form: with z = (y - mu)/sigma, f' = -z phi(z) / (sigma^2 Z), so int f'^2 dy =
     * (1 / (sigma^3 Z^2)) int_{-2}^{2} z^2 phi(z)^2 dz, and phi^2 = phi_s / (2 sqrt(pi)) with s^2 = 1/2, where
     * int_{-a}^{a} z^2 phi_s = s^2 [(2 Phi(a/s) - 1) - 2 (a/s) phi(a/s)] (integration by parts).
     */
    @Test
    void theoryMatchesTheClosedForm() {
        double z = io.regheads.app.experiments.RiskExperiment.Z;
        double s2 = 0.5;
        double as = 2 / Math.sqrt(s2);
        double erfPart = 2 * (1 - org.apache.commons.numbers.gamma.Erfc.value(as / Math.sqrt(2)) / 2) - 1;
        double inner = s2 * (erfPart - 2 * as * phi(as)) / (2 * Math.sqrt(Math.PI));
        double fPrime2 = inner / (Math.pow(0.25, 3) * z * z);
        for (int k : new int[] {1, 5, 9}) {
            double h = Math.pow(2, -k);
            assertEquals(h * h / 12 * fPrime2 + 1 / (1000 * h), RiskCommand.theory(k, 1000), 1e-9 * fPrime2);
        }
    }

    /** The paper: the optimum is near K = 5 at N = 16384. */
    @Test
    void theoreticalOptimumForN16384IsK5() {
        int best = 0;
        for (int k = 1; k <= 12; k++) {
            if (best == 0 || RiskCommand.theory(k, 16384) < RiskCommand.theory(best, 16384)) {
                best = k;
            }
        }
        assertEquals(5, best);
    }

    /** The exact ISE agrees with a naive midpoint sum of (fhat - f)^2 on 200000 points. */
    @Test
    void integratedSquaredErrorMatchesNaiveQuadrature() {
        double[] y = {0.1, 0.2, 0.55, 0.9, 0.52};
        int k = 2;
        int bins = 4;
        double naive = 0;
        int m = 200_000;
        for (int i = 0; i < m; i++) {
            double t = (i + 0.5) / m;
            int bin = Math.min((int) (t * bins), bins - 1);
            int count = 0;
            for (double v : y) {
                count += Math.min((int) (v * bins), bins - 1) == bin ? 1 : 0;
            }
            double fhat = count / (y.length / (double) bins);
            double d = fhat - RiskCommand.density(t);
            naive += d * d / m;
        }
        assertEquals(naive, RiskCommand.ise(y, k), 1e-6);
    }

    /** Truncated N(0.5, 0.25^2) on [0, 1]: mean 0.5, variance sigma^2 (1 - 2 * 2 phi(2) / Z). */
    @Test
    void samplesHaveTheTruncatedNormalsMoments() {
        double[] y = RiskCommand.sample(40000, RandomSource.XO_RO_SHI_RO_128_PP.create(3));
        double[] ms = Stats.of(y);
        double var = 0.0625 * (1 - 4 * phi(2) / io.regheads.app.experiments.RiskExperiment.Z);
        assertEquals(0.5, ms[0], 0.003);
        assertEquals(Math.sqrt(var), ms[1], 0.003);
    }

    /**
     * Exact expected integrated squared error of the 2^k-bin histogram of n samples (independent of the command's
     * helpers): with bin masses p_j of the truncated normal and h = 2^-k, E[fhat_j] = p_j / h and Var[fhat_j] = p_j (1 -
     * p_j) / (n h^2), so E[ISE] = int f^2 - sum_j p_j^2 / h + sum_j p_j (1 - p_j) / (n h).
     */
    static double expectedIse(int k, int n) {
        double z = 1 - org.apache.commons.numbers.gamma.Erfc.value(2 / Math.sqrt(2)); // Phi(2) - Phi(-2)
        int bins = 1 << k;
        double h = 1.0 / bins;
        double sum = 0;
        for (int j = 0; j < bins; j++) {
            double a = (j * h - 0.5) / 0.25;
            double b = ((j + 1) * h - 0.5) / 0.25;
            double p = 0.5 * (org.apache.commons.numbers.gamma.Erfc.value(-b / Math.sqrt(2))
                    - org.apache.commons.numbers.gamma.Erfc.value(-a / Math.sqrt(2))) / z;
            sum += -p * p / h + p * (1 - p) / (n * h);
        }
        // int_0^1 f^2 = int phi(t)^2 dt / (0.25 Z^2) over t in [-2, 2], phi^2 = exp(-t^2) / (2 pi): midpoint rule
        double f2 = 0;
        int m = 200_000;
        for (int i = 0; i < m; i++) {
            double t = -2 + 4 * (i + 0.5) / m;
            f2 += Math.exp(-t * t) / (2 * Math.PI) * 4.0 / m;
        }
        return f2 / (0.25 * z * z) + sum;
    }

    /**
     * The printed table: the theory column is the paper's formula, and the measured risk (mean of 40 histograms of 256
     * samples) lies within 4 of its printed standard errors of the exact expected ISE. A wrong bin count, sampler or
     * ISE would leave that band (at K = 1 the exact value, 0.2366, is far from the leading-order theory, 0.199).
     */
    @Test
    void commandWritesTableAndPlot() throws IOException {
        Path png = tmp.resolve("r/risk.png");
        CliTestSupport.Run r = CliTestSupport.run("risk", "--samples", "256", "--max-k", "3", "--repeats", "40", "--trained-k", "none", "--out",
                png.toString());
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(1 + 3 + 1, lines.length, r.out());
        for (int k = 1; k <= 3; k++) {
            String[] f = lines[k].strip().split("\\s+");
            assertEquals("256", f[0]);
            assertEquals(String.valueOf(k), f[1]);
            assertEquals(RiskCommand.theory(k, 256), Double.parseDouble(f[2]), 1e-4 * RiskCommand.theory(k, 256));
            double measured = Double.parseDouble(f[3]);
            double se = Double.parseDouble(f[4]);
            assertEquals(expectedIse(k, 256), measured, 4 * se, "K=" + k + ": " + lines[k]);
        }
        assertTrue(Files.size(png) > 1000);
        CliTestSupport.Run bad = CliTestSupport.run("risk", "--samples", "1k");
        assertEquals("regheads: --samples must list integers such as 1024,16384, got '1k'", bad.err().strip());
    }
}
