package io.regheads.heads.histogram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BinSoftmaxTest {

    /**
     * Rows with a NaN, an infinity or a spread over 86 go to the fallback; every other probability and mean is
     * within the float kernel's stated bound (relative 3.1e-7 + 1.2e-7 D) of the softmax in double with Math.exp.
     * Row lengths around the SIMD vector widths (whether the exponentials run in SIMD lanes or not, they are the
     * same bits: SimdTest).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8, 17, 256, 300})
    void rowsMatchTheExactSoftmaxAndHandOverTheRest(int n) {
        int b = 40;
        SplittableRandom rnd = new SplittableRandom(n);
        float[] z = new float[b * n];
        for (int i = 0; i < z.length; i++) {
            z[i] = (float) (rnd.nextGaussian() * 6);
        }
        z[3 * n] = 120f; // row 3 spreads over more than 86: fallback
        if (n > 1) {
            z[5 * n + 1] = Float.NaN; // row 5: fallback
        }
        z[7 * n] = Float.POSITIVE_INFINITY; // row 7: fallback
        z[9 * n] = -0.0f;
        float[] bias = new float[n];
        double[] values = new double[n];
        for (int j = 0; j < n; j++) {
            bias[j] = (float) rnd.nextGaussian();
            values[j] = (j + 0.5) / n;
        }
        double[] p1 = new double[(b + 2) * n];
        double[] m1 = new double[b + 2];
        List<Integer> f1 = new ArrayList<>();
        BinSoftmax.rows(z, bias, b, n, values, p1, m1, 2, f1::add);
        assertEquals(n > 1 ? List.of(3, 5, 7) : List.of(7), f1);
        double[] again = new double[(b + 2) * n];
        BinSoftmax.rows(z, bias, b, n, values, again, new double[b + 2], 2, r -> { });
        assertArrayEquals(p1, again); // deterministic, bit for bit
        for (int r = 0; r < b; r++) {
            if (f1.contains(r)) {
                continue;
            }
            double max = Double.NEGATIVE_INFINITY;
            double min = Double.POSITIVE_INFINITY;
            double[] l = new double[n];
            for (int j = 0; j < n; j++) {
                l[j] = z[r * n + j] + bias[j];
                max = Math.max(max, l[j]);
                min = Math.min(min, l[j]);
            }
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += Math.exp(l[j] - max);
            }
            double bound = 3.1e-7 + 1.2e-7 * (max - min);
            double mean = 0;
            for (int j = 0; j < n; j++) {
                double exact = Math.exp(l[j] - max) / s;
                mean += exact * values[j];
                double got = p1[(r + 2) * n + j];
                assertEquals(exact, got, bound * exact, "row " + r + ", bin " + j);
            }
            assertEquals(mean, m1[r + 2], bound, "mean of row " + r);
        }
    }
}
