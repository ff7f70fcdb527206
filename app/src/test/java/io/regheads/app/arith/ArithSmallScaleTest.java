package io.regheads.app.arith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.train.ProgressListener;
import io.regheads.app.arith.ArithmeticBenchmark.Config;
import io.regheads.app.arith.ArithmeticBenchmark.Result;
import io.regheads.app.arith.ArithmeticBenchmark.Task;
import io.regheads.app.arith.ArithmeticBenchmark.Variant;
import io.regheads.tokenizers.text.ChartonScheme;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The arithmetic benchmark (the {@code regheads arith} command) at a scale that runs in CI, over three seeds: 2-operand
 * expressions, 1000 training examples, 10 epochs, d 32, 2 encoder layers. The papers' claims asserted, with margins
 * taken from the spread measured over seeds 0-3 (R^2 in distribution | out of distribution, operands from the held-out
 * band 4.00-4.99):
 *
 * <pre>
 *   seed   xVal in / out     CE in / out      CE + 0.3 NTL-WAS in / out
 *   0      0.987 / 0.979     0.073 / 0.494    0.178 / 0.579
 *   1      0.982 / 0.967     0.035 / 0.722    0.711 / 0.776
 *   2      0.986 / 0.951     0.173 / 0.585    0.442 / 0.659
 *   3      0.980 / 0.996     0.129 / 0.549    0.759 / -1.988
 * </pre>
 *
 * xVal (the xVal paper): far ahead of both text-token decoders in distribution (gap 0.27 to 0.81) and close to 1 out of
 * distribution. NTL (the NTL paper): CE + NTL-WAS beats plain CE in distribution on every seed (by 0.10 to 0.68); out
 * of distribution it does not hold on seed 3, so that is not asserted. At this scale the CE decoder barely beats
 * predicting the mean in distribution (R^2 0.04 to 0.17), so no bound of that kind is asserted either. The decoders do
 * not learn the multiplication task at a CI-sized scale (MAPE above that of predicting 0 on 3 of 4 seeds), so it has no
 * small-scale test here. About 20 s of CPU per seed.
 */
class ArithSmallScaleTest {

    static Config expressions(long seed) {
        return new Config(Task.EXPRESSIONS, 1000, 200, 10, 32, 2, 64, 1e-3, ChartonScheme.P10, 0.2, 0.5, 2, 2, seed);
    }

    @Test
    void expressionsOverSeeds() {
        double gapXval = 0;
        double gapNtl = 0;
        for (long seed = 0; seed < 3; seed++) {
            List<Variant> variants = seed == 0
                    ? List.of(Variant.XVAL, Variant.CE, Variant.CE_NTL_WAS, Variant.XVAL_MULTISCALE)
                    : List.of(Variant.XVAL, Variant.CE, Variant.CE_NTL_WAS);
            List<Result> r = ArithmeticBenchmark.run(expressions(seed), variants, ProgressListener.none());
            for (Result x : r) {
                System.out.println("seed " + seed + " " + ArithmeticBenchmark.format(x));
            }
            assertEquals(variants.size(), r.size());
            Result xval = r.get(0);
            Result ce = r.get(1);
            Result ntl = r.get(2);
            assertTrue(xval.in().r2() > 0.95, "seed " + seed + ": xVal R^2 in " + xval.in().r2());
            assertTrue(xval.out().r2() > 0.9, "seed " + seed + ": xVal R^2 out " + xval.out().r2());
            double best = Math.max(ce.in().r2(), ntl.in().r2());
            assertTrue(xval.in().r2() > best + 0.1, "seed " + seed + ": xVal " + xval.in().r2() + " vs " + best);
            assertTrue(ntl.in().r2() > ce.in().r2(), "seed " + seed + ": NTL " + ntl.in().r2() + " vs CE " + ce.in().r2());
            gapXval += (xval.in().r2() - best) / 3;
            gapNtl += (ntl.in().r2() - ce.in().r2()) / 3;
            if (seed == 0) {
                // multi-scale xVal (k = 2, raw operands): measured R^2 0.9837 in, 0.9977 out
                Result multi = r.get(3);
                assertTrue(multi.in().r2() > 0.95 && multi.out().r2() > 0.95, "multi-scale R^2 " + multi.in().r2() + ", "
                        + multi.out().r2());
            }
        }
        // means over seeds 0-2: measured 0.54 (sd 0.27 per seed) and 0.35 (sd 0.29 per seed); bounds two standard
        // errors below
        assertTrue(gapXval > 0.2, "mean xVal gap " + gapXval);
        assertTrue(gapNtl > 0.05, "mean NTL-WAS gain " + gapNtl);
    }
}
