package io.regheads.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fast exponentials against {@link Math#exp} over their whole stated range, and their edge behaviour. */
class FastExpTest {

    /** Relative error of the float kernel at x against exp(x) computed in double. */
    private static double relativeError(float x) {
        double e = Math.exp(x);
        return Math.abs(FastExp.exp(x) - e) / e;
    }

    @Test
    void floatErrorStaysWithinTheStatedBoundOverTheWholeRange() {
        double worst = 0;
        float at = Float.NaN;
        long points = 0;
        // a sweep of [-87, 88] by about 37 ulps (4.3 million points), ...
        for (float x = FastExp.FLOAT_MIN_ARG; x <= FastExp.FLOAT_MAX_ARG; x += Math.max(37 * Math.ulp(x), 1e-6f)) {
            double r = relativeError(x);
            points++;
            if (r > worst) {
                worst = r;
                at = x;
            }
        }
        // ... every float near both ends, 10^6 random points within 0.01 of 0 (where the reduction does nothing) ...
        Random rnd = new Random(5);
        for (int i = 0; i < 1_000_000; i++) {
            float x = (float) (0.02 * rnd.nextDouble() - 0.01);
            double r = relativeError(x);
            if (r > worst) {
                worst = r;
                at = x;
            }
        }
        float[][] windows = {{FastExp.FLOAT_MIN_ARG, FastExp.FLOAT_MIN_ARG + 1e-3f},
            {FastExp.FLOAT_MAX_ARG - 1e-3f, FastExp.FLOAT_MAX_ARG}};
        for (float[] w : windows) {
            for (float x = w[0]; x <= w[1]; x = Math.nextUp(x)) {
                double r = relativeError(x);
                points++;
                if (r > worst) {
                    worst = r;
                    at = x;
                }
            }
        }
        // ... and where n ln2 rounds: the midpoints (n + 1/2) ln2 and a few ulps around them
        for (int n = -125; n <= 126; n++) {
            float mid = (float) ((n + 0.5) * Math.log(2));
            float x = mid;
            for (int k = 0; k < 64; k++) {
                x = Math.nextDown(x);
            }
            for (int k = 0; k < 128; k++, x = Math.nextUp(x)) {
                if (x >= FastExp.FLOAT_MIN_ARG && x <= FastExp.FLOAT_MAX_ARG) {
                    double r = relativeError(x);
                    points++;
                    if (r > worst) {
                        worst = r;
                        at = x;
                    }
                }
            }
        }
        assertTrue(points > 4_000_000, "points " + points);
        assertTrue(worst <= FastExp.FLOAT_MAX_RELATIVE_ERROR,
                "float worst relative error " + worst + " at " + at + " over " + points + " points");
        assertTrue(worst > 1e-8, "the comparison must see float rounding, got " + worst); // a test that can fail
    }

    @Test
    void doubleErrorStaysWithinTheStatedBoundOverTheWholeRange() {
        Random r = new Random(11);
        double worst = 0;
        double at = Double.NaN;
        for (int i = 0; i < 3_000_000; i++) {
            double x = switch (i % 3) {
                case 0 -> FastExp.DOUBLE_MIN_ARG + (FastExp.DOUBLE_MAX_ARG - FastExp.DOUBLE_MIN_ARG) * r.nextDouble();
                case 1 -> 2 * r.nextDouble() - 1;
                default -> (r.nextInt(2043) - 1021 + 0.5 + 1e-9 * r.nextGaussian()) * Math.log(2); // rounding midpoints
            };
            if (x < FastExp.DOUBLE_MIN_ARG || x > FastExp.DOUBLE_MAX_ARG) {
                continue;
            }
            double e = Math.exp(x);
            double err = Math.abs(FastExp.exp(x) - e) / e;
            if (err > worst) {
                worst = err;
                at = x;
            }
        }
        for (double x : new double[] {FastExp.DOUBLE_MIN_ARG, FastExp.DOUBLE_MAX_ARG, 0, -1e-300, 1e-300}) {
            double e = Math.exp(x);
            worst = Math.max(worst, Math.abs(FastExp.exp(x) - e) / e);
        }
        assertTrue(worst <= FastExp.DOUBLE_MAX_RELATIVE_ERROR, "double worst relative error " + worst + " at " + at);
        assertTrue(worst > 1e-17, "the comparison must see double rounding, got " + worst);
    }

    @Test
    void edgesClampAndScalarNaN() {
        assertEquals(1f, FastExp.exp(0f));
        assertEquals(1.0, FastExp.exp(0.0));
        float floor = FastExp.exp(FastExp.FLOAT_MIN_ARG);
        assertEquals(Math.exp(-87), floor, 1.5e-7 * Math.exp(-87)); // a normal float: 1.65e-38
        assertEquals(floor, FastExp.exp(-87.5f)); // below the range: the floor, not 0
        assertEquals(floor, FastExp.exp(Float.NEGATIVE_INFINITY));
        assertEquals(floor, FastExp.exp(-1e30f));
        assertTrue(Float.isNaN(FastExp.exp(Float.NaN)));
        assertEquals(FastExp.exp(FastExp.FLOAT_MAX_ARG), FastExp.exp(1000f));
        assertEquals(FastExp.exp(FastExp.FLOAT_MAX_ARG), FastExp.exp(Float.POSITIVE_INFINITY));
        assertTrue(Float.isFinite(FastExp.exp(FastExp.FLOAT_MAX_ARG)));
        double dfloor = FastExp.exp(FastExp.DOUBLE_MIN_ARG);
        assertEquals(Math.exp(-708), dfloor, 4.5e-16 * Math.exp(-708));
        assertEquals(dfloor, FastExp.exp(-708.5));
        assertEquals(dfloor, FastExp.exp(Double.NEGATIVE_INFINITY));
        assertTrue(Double.isNaN(FastExp.exp(Double.NaN)));
        assertEquals(FastExp.exp(FastExp.DOUBLE_MAX_ARG), FastExp.exp(1e6));
        assertTrue(Double.isFinite(FastExp.exp(FastExp.DOUBLE_MAX_ARG)));
    }

    /** The array kernels give the scalar function's bits, whatever the offset and length (vectorised or not). */
    @Test
    void arrayKernelsEqualTheScalarFunctionBitForBit() {
        Random r = new Random(3);
        int n = 1003;
        float[] x = new float[n];
        double[] xd = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (float) (-100 * r.nextDouble() + 10);
            xd[i] = -800 * r.nextDouble() + 50;
        }
        x[18] = Float.NEGATIVE_INFINITY; // no NaN: the array kernels take none
        float shift = 2.5f;
        float[] y = new float[n];
        float[] scratch = x.clone();
        FastExp.expShifted(scratch, shift, y, scratch, 5, n - 3);
        for (int i = 5; i < n - 3; i++) {
            assertEquals(Float.floatToRawIntBits(FastExp.exp(x[i] - shift)), Float.floatToRawIntBits(y[i]), "index " + i);
        }
        double[] yd = new double[n];
        double sum = FastExp.expShiftedSum(xd, 1.5, yd, new double[n], n);
        double expected = 0;
        for (int i = 0; i < n; i++) {
            assertEquals(Double.doubleToRawLongBits(FastExp.exp(xd[i] - 1.5)), Double.doubleToRawLongBits(yd[i]), "index " + i);
            expected += yd[i];
        }
        assertEquals(expected, sum, 0.0);
    }
}
