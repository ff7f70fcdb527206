package io.regheads.heads.histogram;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BinSoftmaxTest {

    /**
     * Rows with a NaN, an infinity or a spread over 86 go to the fallback; every other probability and mean is
     * within the float kernel's stated bound (relative 3.1e-7 + 1.2e-7 D) of the softmax in double with Math.exp.
     * Row lengths around the SIMD vector widths (whether the exponentials run in SIMD lanes or not, they are the
     * same bits: SimdTest); 150 rows, so rows of 256 and 300 logits cross the blocks copied out of the product.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 3, 8, 17, 256, 300})
    void rowsMatchTheExactSoftmaxAndHandOverTheRest(int n) {
        int b = 150;
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
        float[] e1 = new float[b * n];
        double[] s1 = new double[b];
        double[] m1 = new double[b];
        List<Integer> f1 = new ArrayList<>();
        BinSoftmax.expRows(from(z, n), new BinSoftmax.FloatRows(bias, values, e1, s1, m1), 0, b, f1::add);
        assertEquals(n > 1 ? List.of(3, 5, 7) : List.of(7), f1);
        double[] p1 = new double[b * n];
        for (int r = 0; r < b; r++) {
            if (!f1.contains(r)) {
                BinSoftmax.probabilities(e1, s1, r, n, p1);
            }
        }
        // again, in two ranges of rows (as two chunks of a prediction): the same bits
        float[] e2 = new float[b * n];
        double[] s2 = new double[b];
        double[] m2 = new double[b];
        List<Integer> f2 = new ArrayList<>();
        BinSoftmax.expRows(from(z, n), new BinSoftmax.FloatRows(bias, values, e2, s2, m2), 0, 17, f2::add);
        BinSoftmax.expRows(from(z, n), new BinSoftmax.FloatRows(bias, values, e2, s2, m2), 17, b, f2::add);
        assertEquals(f1, f2);
        assertArrayEquals(e1, e2);
        assertArrayEquals(s1, s2);
        assertArrayEquals(m1, m2);
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
                double got = p1[r * n + j];
                assertEquals(exact, got, bound * exact, "row " + r + ", bin " + j);
            }
            assertEquals(mean, m1[r], bound, "mean of row " + r);
        }
    }

    /** Rows of a float array as the product's output. */
    private static BinSoftmax.Logits from(float[] z, int n) {
        return (first, count, dst) -> System.arraycopy(z, first * n, dst, 0, count * n);
    }

    /**
     * Double logits: every probability within 1e-15 relative of the softmax with Math.exp, the rows spreading over
     * 700 handed over, and the means computed alone (before any probability) the same bits as with them.
     */
    @Test
    void doubleRowsMatchTheExactSoftmaxAndTheirMeansAlone() {
        int b = 12;
        int n = 37;
        SplittableRandom rnd = new SplittableRandom(5);
        double[] z = new double[b * n];
        for (int i = 0; i < z.length; i++) {
            z[i] = rnd.nextGaussian() * 20;
        }
        z[4 * n + 2] = 800; // spread over 700: fallback
        double[] bias = new double[n];
        double[] values = new double[n];
        for (int j = 0; j < n; j++) {
            bias[j] = rnd.nextGaussian();
            values[j] = j - 3.5;
        }
        double[] p = new double[b * n];
        double[] m = new double[b];
        List<Integer> f = new ArrayList<>();
        BinSoftmax.rows(new BinSoftmax.DoubleRows(z, bias, values, p, m), 0, b, f::add);
        assertEquals(List.of(4), f);
        double[] alone = new double[b];
        BinSoftmax.rows(new BinSoftmax.DoubleRows(z, bias, values, null, alone), 0, 5, r -> { });
        BinSoftmax.rows(new BinSoftmax.DoubleRows(z, bias, values, null, alone), 5, b, r -> { });
        assertArrayEquals(m, alone);
        for (int r = 0; r < b; r++) {
            if (r == 4) {
                continue;
            }
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < n; j++) {
                max = Math.max(max, z[r * n + j] + bias[j]);
            }
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += Math.exp(z[r * n + j] + bias[j] - max);
            }
            double mean = 0;
            for (int j = 0; j < n; j++) {
                double exact = Math.exp(z[r * n + j] + bias[j] - max) / s;
                mean += exact * values[j];
                assertEquals(exact, p[r * n + j], 1e-15 * exact + Double.MIN_NORMAL, "row " + r + ", bin " + j);
            }
            assertEquals(mean, m[r], 1e-14, "mean of row " + r);
        }
    }

    /**
     * Rows split over threads (600 rows of 256 logits: two parts or more where ND4J gives the BLAS two threads or
     * more) give the bits of one sequential pass, and the rows handed over come in row order, once each.
     */
    @Test
    void rowsInParallelGiveTheSequentialBits() {
        int b = 600;
        int n = 256;
        SplittableRandom rnd = new SplittableRandom(11);
        float[] z = new float[b * n];
        for (int i = 0; i < z.length; i++) {
            z[i] = (float) (rnd.nextGaussian() * 4);
        }
        int[] wide = {7, 301, 599};
        for (int r : wide) {
            z[r * n + 3] = 200f;
        }
        float[] bias = new float[n];
        double[] values = new double[n];
        for (int j = 0; j < n; j++) {
            bias[j] = (float) rnd.nextGaussian();
            values[j] = j;
        }
        float[] e1 = new float[b * n];
        double[] s1 = new double[b];
        double[] m1 = new double[b];
        List<Integer> f1 = new ArrayList<>();
        BinSoftmax.expRows(from(z, n), new BinSoftmax.FloatRows(bias, values, e1, s1, m1), 0, b, f1::add);
        float[] e2 = new float[b * n];
        double[] s2 = new double[b];
        double[] m2 = new double[b];
        List<Integer> f2 = new ArrayList<>();
        BinSoftmax.expRowsInParallel(from(z, n), new BinSoftmax.FloatRows(bias, values, e2, s2, m2), 0, b, f2::add);
        assertEquals(List.of(7, 301, 599), f1);
        assertEquals(f1, f2);
        assertArrayEquals(e1, e2);
        assertArrayEquals(s1, s2);
        assertArrayEquals(m1, m2);
    }
}
