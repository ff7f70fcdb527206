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
 * The arithmetic benchmark (the {@code regheads arith} command) at a scale that runs in CI: 2-operand expressions
 * (1000 training examples, 10 epochs, d 32, 2 encoder layers) and the multiplication task (1500 examples, 8 epochs).
 *
 * <p>Bounds set from the first honest run (2026-11-22, commit 5d0baa1 code, seed 0; the runs are deterministic on
 * one machine), with margin; measured values in the comments. About 25 s of CPU in all (90 s wall clock on the
 * shared 2-core machine under a load of 10).
 */
class ArithSmallScaleTest {

    static Config expressions() {
        return new Config(Task.EXPRESSIONS, 1000, 200, 10, 32, 2, 64, 1e-3, ChartonScheme.P10, 0.2, 0.5, 2, 2, 0);
    }

    @Test
    void expressionsSmallScale() {
        List<Result> r = ArithmeticBenchmark.run(expressions(), List.of(Variant.XVAL, Variant.CE, Variant.CE_NTL_WAS,
                Variant.XVAL_MULTISCALE),
                ProgressListener.none());
        for (Result x : r) {
            System.out.println(ArithmeticBenchmark.format(x));
        }
        assertEquals(4, r.size());
        Result xval = r.get(0);
        Result ce = r.get(1);
        Result ntl = r.get(2);
        // measured: xVal R^2 0.9870 in, 0.9786 out (operands from the held-out band 4.00-4.99), MAE in 1.411
        assertTrue(xval.in().r2() > 0.95, "xVal R^2 in " + xval.in().r2());
        assertTrue(xval.out().r2() > 0.93, "xVal R^2 out " + xval.out().r2());
        assertTrue(xval.in().mae() < 2.5, "xVal MAE in " + xval.in().mae());
        // measured: CE R^2 0.0734 in, 0.4936 out; CE + 0.3 NTL-WAS 0.1777 in, 0.5787 out (the decoders learn slowly)
        assertTrue(ce.in().r2() > -0.2 && ce.out().r2() > 0.3, "CE R^2 " + ce.in().r2() + ", " + ce.out().r2());
        assertTrue(ntl.in().r2() > -0.1 && ntl.out().r2() > 0.3, "NTL R^2 " + ntl.in().r2() + ", " + ntl.out().r2());
        // multi-scale xVal (k = 2, raw operands), added 2026-11-22 22:35 UTC: measured R^2 0.9837 in, 0.9977 out, MAE
        // in 1.691
        Result multi = r.get(3);
        assertTrue(multi.in().r2() > 0.95 && multi.out().r2() > 0.95, "multi-scale R^2 " + multi.in().r2() + ", "
                + multi.out().r2());
        // the xVal paper's headline at this scale: the continuous encoding is far ahead (measured gap 0.81 / 0.91)
        assertTrue(xval.in().r2() > Math.max(ce.in().r2(), ntl.in().r2()) + 0.5, "xVal not ahead of the decoders");
    }

    @Test
    void multiplicationSmallScale() {
        List<Result> r = ArithmeticBenchmark.run(Config.multiplication(1500, 200, 8, 0), List.of(Variant.CE),
                ProgressListener.none());
        for (Result x : r) {
            System.out.println(ArithmeticBenchmark.format(x));
        }
        assertEquals(1, r.size());
        // measured: MAPE 225 % in, 94.6 % out. At this scale the digit decoder has NOT learned multiplication (the
        // NTL paper trains GPT-2 on far more data); these bounds only catch a broken pipeline (NaN, wild outputs).
        assertTrue(r.get(0).in().mape() < 400, "MAPE in " + r.get(0).in().mape());
        assertTrue(r.get(0).out().mape() < 150, "MAPE out " + r.get(0).out().mape());
    }
}
