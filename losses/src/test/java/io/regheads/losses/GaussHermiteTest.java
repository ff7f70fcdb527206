package io.regheads.losses;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Gauss-Hermite nodes against tabulated values and exactness on polynomial moments. */
class GaussHermiteTest {

    @Test
    void threeAndFivePointRulesMatchTables() {
        // n = 3 in closed form: nodes 0, +-sqrt(3/2); weights sqrt(pi)/6, 2 sqrt(pi)/3
        GaussHermite g3 = GaussHermite.of(3);
        assertArrayEquals(new double[] {-Math.sqrt(1.5), 0, Math.sqrt(1.5)}, g3.nodes(), 1e-14);
        double sp = Math.sqrt(Math.PI);
        assertArrayEquals(new double[] {sp / 6, 2 * sp / 3, sp / 6}, g3.weights(), 1e-14);
        // n = 5, Abramowitz & Stegun table 25.10
        GaussHermite g5 = GaussHermite.of(5);
        assertArrayEquals(new double[] {-2.020182870456086, -0.958572464613819, 0, 0.958572464613819,
            2.020182870456086}, g5.nodes(), 1e-14);
        assertArrayEquals(new double[] {0.019953242059046, 0.393619323152241, 0.945308720482942, 0.393619323152241,
            0.019953242059046}, g5.weights(), 1e-14);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 20, 32, 64})
    void integratesEvenMomentsExactly(int n) {
        // int x^(2k) exp(-x^2) dx = Gamma(k + 1/2) = (2k - 1)!! sqrt(pi) / 2^k, exact for 2k <= 2n - 1
        GaussHermite g = GaussHermite.of(n);
        double exact = Math.sqrt(Math.PI);
        for (int k = 0; 2 * k <= Math.min(2 * n - 1, 30); k++) {
            if (k > 0) {
                exact *= (2 * k - 1) / 2.0;
            }
            double sum = 0;
            double odd = 0;
            for (int i = 0; i < n; i++) {
                sum += g.weights()[i] * Math.pow(g.nodes()[i], 2 * k);
                odd += g.weights()[i] * Math.pow(g.nodes()[i], 2 * k + 1);
            }
            assertEquals(exact, sum, 1e-11 * exact, "n=" + n + ", moment " + 2 * k);
            assertEquals(0.0, odd, 1e-11 * Math.max(1, exact), "n=" + n + ", odd moment " + (2 * k + 1));
        }
    }
}
