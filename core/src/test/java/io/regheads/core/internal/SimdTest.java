package io.regheads.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimdTest {

    /**
     * The tests run with {@code --add-modules jdk.incubator.vector} (and once more without): with the module the
     * SIMD kernels must be switched on once the warm-up thread has seen them compiled and faster.
     */
    @Test
    void simdIsOnWhereTheModuleIs() {
        boolean module = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
        boolean off = "false".equalsIgnoreCase(System.getProperty(Simd.PROPERTY));
        assertEquals(module && !off, Simd.requested(), "module present: " + module + ", property off: " + off);
        assertEquals(module && !off, Simd.awaitWarmUp(Duration.ofSeconds(150)),
                "after the warm-up; module present: " + module + ", property off: " + off);
    }

    /**
     * Loading the class and running the kernels starts no thread; the warm-up thread starts when asked ({@link
     * Simd#startWarmUp()}), and only where the SIMD kernels are requested. In a JVM of its own ({@link
     * SimdWarmUpProbe}), with this JVM's module and property, as other tests here start the warm-up.
     */
    @Test
    void theWarmUpThreadStartsWhenAskedNotWhenTheClassLoads() throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path")));
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
            command.addAll(java.util.List.of("--add-modules", "jdk.incubator.vector"));
        }
        if (System.getProperty(Simd.PROPERTY) != null) {
            command.add("-D" + Simd.PROPERTY + "=" + System.getProperty(Simd.PROPERTY));
        }
        command.add(SimdWarmUpProbe.class.getName());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("before=false after=" + Simd.requested()), out);
    }

    /** The SIMD kernels themselves (not through the switch) against the scalar code, where the JVM has them. */
    @Test
    void simdKernelsGiveTheScalarBits() {
        assumeTrue(Simd.requested(), "no Vector API module in this JVM");
        assertTrue(SimdKernels.usable());
        SplittableRandom rnd = new SplittableRandom(5);
        for (int n = 0; n <= 70; n++) {
            float[] x = new float[n + 2];
            double[] xd = new double[n + 2];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) rnd.nextDouble(-100, 100);
                xd[i] = rnd.nextDouble(-800, 800);
            }
            float[] y = new float[n + 2];
            double[] yd = new double[n + 2];
            SimdKernels.expShifted(x, -0.75f, y, 1, n + 1);
            SimdKernels.expShifted(xd, -0.75, yd, 1, n + 1);
            for (int i = 1; i < n + 1; i++) {
                assertEquals(Float.floatToRawIntBits(FastExp.exp(x[i] + 0.75f)), Float.floatToRawIntBits(y[i]),
                        "float, length " + n + ", element " + i);
                assertEquals(Double.doubleToRawLongBits(FastExp.exp(xd[i] + 0.75)), Double.doubleToRawLongBits(yd[i]),
                        "double, length " + n + ", element " + i);
            }
            float[] out = new float[n];
            float[] ref = new float[n];
            float[] maxMin = new float[2];
            SimdKernels.addMaxMin(x, 2, y, out, n, maxMin);
            Simd.addScalar(x, 2, y, ref, n);
            for (int i = 0; i < n; i++) {
                assertEquals(Float.floatToRawIntBits(ref[i]), Float.floatToRawIntBits(out[i]), "add, " + i);
            }
            assertEquals(Float.floatToRawIntBits(Simd.maxScalar(ref, n)), Float.floatToRawIntBits(maxMin[0]), "max");
            assertEquals(Float.floatToRawIntBits(Simd.minScalar(ref, n)), Float.floatToRawIntBits(maxMin[1]), "min");
            if (n > 0) {
                x[2 + n / 2] = Float.NaN;
                SimdKernels.addMaxMin(x, 2, y, out, n, maxMin);
                assertTrue(Float.isNaN(maxMin[0]) && Float.isNaN(maxMin[1]), "NaN, " + n);
            }
        }
    }

    /**
     * The weighted sums at every length from 0 to a few vectors (the lanes, the last group of four, the tail), read at
     * an offset: the SIMD kernel, the switch and the scalar code all give the bits of the stated order (element j
     * into partial j mod 4, the tail into partial 0, then (p0 + p1) + (p2 + p3)), within 1e-15 of the exact sums.
     */
    @Test
    void weightedSumsFollowTheirStatedOrder() {
        SplittableRandom rnd = new SplittableRandom(13);
        double[] got = new double[2];
        for (int n = 0; n <= 70; n++) {
            float[] e = new float[n];
            double[] values = new double[n];
            for (int j = 0; j < n; j++) {
                e[j] = (float) Math.exp(rnd.nextDouble(-80, 0)); // exponents far apart: the sums round
                values[j] = rnd.nextDouble(-5, 5);
            }
            double[] ps = new double[4];
            double[] pm = new double[4];
            java.math.BigDecimal exactS = java.math.BigDecimal.ZERO;
            java.math.BigDecimal exactM = java.math.BigDecimal.ZERO;
            for (int j = 0; j < n; j++) {
                int lane = j < n / 4 * 4 ? j % 4 : 0;
                ps[lane] += e[j];
                pm[lane] += (double) e[j] * values[j];
                exactS = exactS.add(new java.math.BigDecimal(e[j]));
                exactM = exactM.add(new java.math.BigDecimal(e[j]).multiply(new java.math.BigDecimal(values[j])));
            }
            double s = (ps[0] + ps[1]) + (ps[2] + ps[3]);
            double m = (pm[0] + pm[1]) + (pm[2] + pm[3]);
            assertEquals(exactS.doubleValue(), s, 1e-15 * Math.abs(exactS.doubleValue()), "sum, length " + n);
            assertEquals(exactM.doubleValue(), m, 1e-15 * 5 * exactS.doubleValue(), "weighted sum, length " + n);
            float[] padded = new float[n + 6]; // e at offset 3, NaN around it: reading outside shows
            java.util.Arrays.fill(padded, Float.NaN);
            System.arraycopy(e, 0, padded, 3, n);
            Simd.weightedSumsScalar(padded, 3, values, n, got);
            assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(got[0]), "scalar sum, " + n);
            assertEquals(Double.doubleToRawLongBits(m), Double.doubleToRawLongBits(got[1]), "scalar weighted, " + n);
            Simd.weightedSums(padded, 3, values, n, got);
            assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(got[0]), "switch sum, " + n);
            assertEquals(Double.doubleToRawLongBits(m), Double.doubleToRawLongBits(got[1]), "switch weighted, " + n);
            if (Simd.requested()) {
                SimdKernels.weightedSums(padded, 3, values, n, got);
                assertEquals(Double.doubleToRawLongBits(s), Double.doubleToRawLongBits(got[0]), "SIMD sum, " + n);
                assertEquals(Double.doubleToRawLongBits(m), Double.doubleToRawLongBits(got[1]), "SIMD weighted, " + n);
            }
        }
    }

    /**
     * The kernel without clamps, for arguments inside the float range (its ends included), writing at an offset of
     * its own: the bits of {@link FastExp#exp(float)} at every length from 0 to a few vectors, through the switch (SIMD
     * or the scalar passes, whichever this JVM runs) and through the SIMD kernel itself; nothing written outside
     * {@code y[yFrom, yFrom + n)}.
     */
    @Test
    void exponentialsInRangeAreTheScalarBitsAtTheirOwnOffset() {
        SplittableRandom rnd = new SplittableRandom(17);
        float shift = 2.5f;
        for (int n = 0; n <= 70; n++) {
            float[] x = new float[n + 4];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) rnd.nextDouble(FastExp.FLOAT_MIN_ARG, FastExp.FLOAT_MAX_ARG) + shift;
            }
            if (n > 4) {
                x[2] = FastExp.FLOAT_MIN_ARG + shift; // -84.5 and 90.5: exact, so the arguments are the range's ends
                x[3] = FastExp.FLOAT_MAX_ARG + shift;
                x[4] = shift;
            }
            float[] want = new float[n];
            for (int i = 0; i < n; i++) {
                want[i] = FastExp.exp(x[i + 2] - shift);
            }
            for (boolean direct : new boolean[] {false, true}) {
                if (direct && !Simd.requested()) {
                    continue;
                }
                float[] arg = x.clone(); // the scalar passes overwrite it
                float[] y = new float[n + 9];
                java.util.Arrays.fill(y, Float.NaN);
                if (direct) {
                    SimdKernels.expShiftedInRange(arg, shift, y, 5, 2, n + 2);
                } else {
                    FastExp.expShiftedInRange(arg, shift, y, 5, new float[n + 4], 2, n + 2);
                }
                for (int i = 0; i < y.length; i++) {
                    if (i >= 5 && i < n + 5) {
                        assertEquals(Float.floatToRawIntBits(want[i - 5]), Float.floatToRawIntBits(y[i]),
                                (direct ? "SIMD" : "switch") + ", length " + n + ", element " + i);
                    } else {
                        assertTrue(Float.isNaN(y[i]), "written outside, length " + n + ", element " + i);
                    }
                }
            }
        }
    }

    /** Every length from 0 to a few vectors, so both the lanes and the scalar tail are covered. */
    @Test
    void exponentialsAreTheScalarBitsAtEveryLength() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int n = 0; n <= 70; n++) {
            float[] x = new float[n + 3];
            double[] xd = new double[n + 3];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) (rnd.nextDouble(-100, 100));
                xd[i] = rnd.nextDouble(-800, 800);
            }
            if (n > 4) { // the clamps' ends and values around them
                x[1] = -87f;
                x[2] = 88f;
                x[3] = Float.NEGATIVE_INFINITY;
                xd[1] = -708;
                xd[2] = 709;
                xd[3] = Double.NEGATIVE_INFINITY;
            }
            float[] y = new float[n + 3];
            double[] yd = new double[n + 3];
            FastExp.expShifted(x, 1.25f, y, new float[n + 3], 2, n + 2); // an offset range
            FastExp.expShifted(xd, 1.25, yd, new double[n + 3], 2, n + 2);
            for (int i = 2; i < n + 2; i++) {
                assertEquals(Float.floatToRawIntBits(FastExp.exp(x[i] - 1.25f)), Float.floatToRawIntBits(y[i]),
                        "float, length " + n + ", element " + i + " = " + x[i]);
                assertEquals(Double.doubleToRawLongBits(FastExp.exp(xd[i] - 1.25)), Double.doubleToRawLongBits(yd[i]),
                        "double, length " + n + ", element " + i + " = " + xd[i]);
            }
            assertEquals(0f, y[0] + y[1] + y[n + 2], "outside the range: untouched");
            assertEquals(0.0, yd[0] + yd[1] + yd[n + 2], "outside the range: untouched");
        }
    }

    /**
     * The fused add, max and min (through the switch) and the scalar max and min against plain loops, with NaN,
     * infinities and signed zeros at every position.
     */
    /**
     * The double maximum in four chains against one chain of Math.max from negative infinity, bit for bit: every
     * length 0-13 and 256 at an offset, the largest at every position, a NaN at every position, signed zeros in both
     * orders, and entries outside the range larger still (they must not count).
     */
    @Test
    void doubleMaximumIsTheSingleChainsValue() {
        SplittableRandom r = new SplittableRandom(5);
        int[] lengths = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 256};
        for (int n : lengths) {
            for (int at = 0; at < Math.max(n, 1); at++) {
                for (int kind = 0; kind < 3; kind++) {
                    double[] x = new double[n + 4];
                    for (int i = 0; i < x.length; i++) {
                        x[i] = -100 * r.nextDouble();
                    }
                    x[0] = 1e300; // outside [2, 2 + n)
                    x[n + 3] = Double.POSITIVE_INFINITY;
                    if (n > 0) {
                        x[2 + at] = kind == 0 ? 7.5 : kind == 1 ? Double.NaN : 0.0;
                        if (kind == 2) { // every entry a signed zero: +0 must win wherever it is
                            for (int i = 2; i < 2 + n; i++) {
                                x[i] = i == 2 + at ? 0.0 : -0.0;
                            }
                        }
                    }
                    double chain = Double.NEGATIVE_INFINITY;
                    for (int i = 2; i < 2 + n; i++) {
                        chain = Math.max(chain, x[i]);
                    }
                    assertEquals(Double.doubleToRawLongBits(chain), Double.doubleToRawLongBits(Simd.max(x, 2, n)),
                            "n " + n + ", position " + at + ", case " + kind);
                }
            }
        }
        assertEquals(Double.NEGATIVE_INFINITY, Simd.max(new double[] {1.0}, 0, 0), 0.0);
    }

    @Test
    void reductionsFollowMathMaxAndMin() {
        SplittableRandom rnd = new SplittableRandom(11);
        float[] specials = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f};
        for (int n = 0; n <= 40; n++) {
            for (int at = -1; at < n; at++) {
                for (float special : specials) {
                    float[] x = new float[n];
                    for (int i = 0; i < n; i++) {
                        x[i] = (float) rnd.nextDouble(-1, 1);
                    }
                    if (at >= 0) {
                        x[at] = special;
                    }
                    float max = Float.NEGATIVE_INFINITY;
                    float min = Float.POSITIVE_INFINITY;
                    for (float v : x) {
                        max = Math.max(max, v);
                        min = Math.min(min, v);
                    }
                    String where = "length " + n + ", " + special + " at " + at;
                    assertEquals(Float.floatToRawIntBits(max), Float.floatToRawIntBits(Simd.maxScalar(x, n)), where);
                    assertEquals(Float.floatToRawIntBits(min), Float.floatToRawIntBits(Simd.minScalar(x, n)), where);
                    // fused with an add of -0.0, which keeps every value's bits (-0.0 + -0.0 = -0.0)
                    float[] negativeZeros = new float[n];
                    java.util.Arrays.fill(negativeZeros, -0.0f);
                    float[] sum = new float[n];
                    float[] maxMin = new float[2];
                    Simd.addMaxMin(x, 0, negativeZeros, sum, n, maxMin);
                    for (int i = 0; i < n; i++) {
                        assertEquals(Float.floatToRawIntBits(x[i]), Float.floatToRawIntBits(sum[i]), where + ", " + i);
                    }
                    assertEquals(Float.floatToRawIntBits(max), Float.floatToRawIntBits(maxMin[0]), "fused, " + where);
                    assertEquals(Float.floatToRawIntBits(min), Float.floatToRawIntBits(maxMin[1]), "fused, " + where);
                    if (special != special) {
                        break; // NaN once per position is enough
                    }
                }
            }
            float[] a = new float[n + 5];
            float[] b = new float[n];
            float[] out = new float[n];
            for (int i = 0; i < a.length; i++) {
                a[i] = (float) rnd.nextGaussian();
            }
            for (int i = 0; i < n; i++) {
                b[i] = (float) rnd.nextGaussian();
            }
            Simd.addMaxMin(a, 5, b, out, n, new float[2]);
            for (int i = 0; i < n; i++) {
                assertEquals(a[5 + i] + b[i], out[i]);
            }
        }
        float[] maxMin = new float[2];
        Simd.addMaxMin(new float[] {-0.0f, 0.0f}, 0, new float[] {-0.0f, -0.0f}, new float[2], 2, maxMin);
        assertEquals(0, Float.floatToRawIntBits(maxMin[0]), "+0 above -0");
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(maxMin[1]), "-0 below +0");
    }
}
