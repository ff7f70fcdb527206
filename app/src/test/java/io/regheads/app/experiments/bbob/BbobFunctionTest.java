package io.regheads.app.experiments.bbob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * Each function against a reference value at one point (D = 3, x_opt = (1, -2, 0.5), x = (2, 0, -1), R and Q fixed
 * rotations): {@code bbob_reference.py} beside this test computes them with numpy from the definitions report's
 * formulas, its output is {@code bbob_reference.txt}. Sphere, linear slope and Rosenbrock are also worked by hand in
 * the comments.
 */
class BbobFunctionTest {
    private static final double[] X_OPT = {1, -2, 0.5};
    private static final double[] X = {2, 0, -1};

    static double[][] r() {
        double c = Math.cos(0.3);
        double s = Math.sin(0.3);
        return new double[][] {{c, -s, 0}, {s, c, 0}, {0, 0, 1}};
    }

    static double[][] q() {
        double c = Math.cos(-0.7);
        double s = Math.sin(-0.7);
        return new double[][] {{1, 0, 0}, {0, c, -s}, {0, s, c}};
    }

    static Map<String, Double> reference() throws IOException {
        Map<String, Double> m = new HashMap<>();
        try (InputStream in = BbobFunctionTest.class.getResourceAsStream("bbob_reference.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] p = line.strip().split(" ");
                m.put(p[0], Double.parseDouble(p[1]));
            }
        }
        return m;
    }

    @Test
    void everyFunctionMatchesTheReferenceScript() throws IOException {
        Map<String, Double> ref = reference();
        for (BbobFunction f : BbobFunction.values()) {
            double v = BbobInstance.of(f, X_OPT, r(), q()).value(X);
            double want = ref.get(f.label());
            assertEquals(want, v, 1e-12 * Math.abs(want), f.title());
        }
    }

    /**
     * By hand: sphere |x - x_opt|^2 = 1 + 4 + 2.25; linear slope: x_opt -> (5, -5, 5), s = (1, -sqrt 10, 10), z = x,
     * g = 5 (11 + sqrt 10) - (2 - 10); Rosenbrock (c = 1): z = (2.25, 2.5, -0.375), g = 100 (5.0625 - 2.5)^2 + 1.25^2
     * + 100 (6.25 + 0.375)^2 + 1.5^2.
     */
    @Test
    void simpleFunctionsByHand() {
        assertEquals(7.25, BbobInstance.of(BbobFunction.SPHERE, X_OPT, r(), q()).value(X), 1e-12);
        assertEquals(5 * (11 + Math.sqrt(10)) + 8, BbobInstance.of(BbobFunction.LINEAR_SLOPE, X_OPT, r(), q()).value(X),
                1e-12);
        assertEquals(100 * 2.5625 * 2.5625 + 1.5625 + 100 * 6.625 * 6.625 + 2.25,
                BbobInstance.of(BbobFunction.ROSENBROCK, X_OPT, r(), q()).value(X), 1e-9);
    }

    @Test
    void oscillationMatchesTheReference() throws IOException {
        Map<String, Double> ref = reference();
        assertEquals(ref.get("t_osz(2.0)"), BbobInstance.oscillate(2.0), 1e-15);
        assertEquals(ref.get("t_osz(-0.5)"), BbobInstance.oscillate(-0.5), 1e-15);
        assertEquals(0, BbobInstance.oscillate(0.0));
        assertEquals(1, BbobInstance.oscillate(1.0), 1e-15); // h = 0
    }

    /** Every function but the linear slope has its minimum 0 at its optimum (Rosenbrock at 0.75 x_opt). */
    @Test
    void randomInstancesAreZeroAtTheirOptimum() {
        for (BbobFunction f : BbobFunction.values()) {
            for (int d : new int[] {2, 5}) {
                BbobInstance in = BbobInstance.random(f, d, 3);
                double[] opt = in.optimum();
                if (f == BbobFunction.ROSENBROCK) {
                    for (int i = 0; i < d; i++) {
                        opt[i] *= 0.75;
                    }
                }
                if (f != BbobFunction.LINEAR_SLOPE) {
                    assertEquals(0, in.value(opt), 1e-9, f.title() + " d=" + d);
                } else {
                    assertEquals(0, in.value(opt), 1e-9, f.title()); // 5 |s_i| - s_i * 5 sign = 0
                }
            }
        }
    }

    /** The random rotations are orthogonal: R^T R = I. */
    @Test
    void rotationsAreOrthogonal() {
        double[][] m = BbobInstance.rotation(6, RandomSource.XO_RO_SHI_RO_128_PP.create(1));
        for (int a = 0; a < 6; a++) {
            for (int b = 0; b < 6; b++) {
                double dot = 0;
                for (int i = 0; i < 6; i++) {
                    dot += m[i][a] * m[i][b];
                }
                assertEquals(a == b ? 1 : 0, dot, 1e-12);
            }
        }
    }

    @Test
    void badInput() {
        assertThrows(IllegalArgumentException.class, () -> BbobInstance.random(BbobFunction.SPHERE, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> BbobFunction.of("griewank"));
        assertThrows(IllegalArgumentException.class,
                () -> BbobInstance.of(BbobFunction.SPHERE, X_OPT, r(), q()).value(new double[] {1, 2}));
    }
}
