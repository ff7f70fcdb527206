package io.regheads.core.internal;

/**
 * Exponentials over arrays in a form HotSpot's C2 compiler vectorises, for softmax-like kernels (the histogram
 * head's bin probabilities, its cross-entropy, mixture weights). Internal; stateless and thread-safe.
 *
 * <p><b>Method.</b> Cody-Waite range reduction {@code x = n ln2 + f}, {@code |f| <= ln2 / 2}, with {@code n} found
 * by the round-to-nearest trick {@code m = x log2(e) + 1.5 * 2^p} (p = 23 for float, 52 for double; the low bits of
 * m then hold n), {@code ln2} split so that {@code n ln2_hi} is exact, then {@code e^f} by a polynomial (float:
 * Cephes' degree-7 {@code expf} form {@code 1 + f + f^2 P5(f)}; double: Taylor to degree 13, whose truncation error
 * {@code 0.347^14 / 14! < 5e-18} is below half an ulp), and finally {@code 2^n} added into the exponent bits.
 *
 * <p><b>Why two passes.</b> C2 (JDK 17) vectorises loops of float or double arithmetic, min and max, but neither
 * {@code Float.floatToRawIntBits}/{@code intBitsToFloat} nor int/float conversions, and it gives up on a loop whose
 * arrays are indexed with different offsets. So {@link #prepare(float[], float, float[], float[], int, int)} does
 * the arithmetic over index-aligned arrays (vectorised) and leaves the polynomial and the rounding carrier m per
 * element; {@link #finish(float, float)} adds the exponent (a few scalar integer operations, which callers fuse with
 * their own sums). {@link #expShifted} does both.
 *
 * <p><b>Accuracy</b> (stated bounds, checked against {@link Math#exp} of the same argument by the tests over the
 * whole range below, densely near its ends, around the rounding midpoints and at random points):
 * <ul>
 *   <li>float: relative error at most {@link #FLOAT_MAX_RELATIVE_ERROR} (1.5e-7, about 1.25 float ulps) for
 *       arguments in {@code [FLOAT_MIN_ARG, FLOAT_MAX_ARG]} = [-87, 88]; smaller arguments, {@code -Infinity}
 *       included, give {@code exp(-87)} = 1.65e-38 (a floor, the smallest value whose exponent bits the method can
 *       set: a float softmax is not changed by it beyond 1e-36), larger ones {@code exp(88)};
 *   <li>double: relative error at most {@link #DOUBLE_MAX_RELATIVE_ERROR} (4.5e-16, about 2 double ulps) for
 *       arguments in [-708, 709]; smaller arguments give {@code exp(-708)} = 3.3e-308, larger ones {@code exp(709)}.
 * </ul>
 * The array kernels take no NaN arguments (callers check: a softmax checks its row maximum, which is NaN if any
 * entry is); for a NaN they return an unspecified value. The scalar {@link #exp(float)} and {@link #exp(double)}
 * return NaN for NaN. Results are deterministic: the same inputs give the same bits, vectorised or not (every
 * operation is an IEEE operation on one element, in a fixed order).
 *
 * <p><b>SIMD.</b> Where the JVM runs with the JDK's incubating Vector API ({@code --add-modules
 * jdk.incubator.vector}; see {@link Simd}), {@link #expShifted} runs the same operations in SIMD lanes
 * ({@code SimdKernels}), including the exponent-bit step that C2 does not vectorise: the same bits, faster.
 */
public final class FastExp {
    private FastExp() {}

    /** Lower end of the float range with the stated relative error; smaller arguments are clamped to it. */
    public static final float FLOAT_MIN_ARG = -87f;
    /** Upper end of the float range; larger arguments are clamped to it. */
    public static final float FLOAT_MAX_ARG = 88f;
    /** Stated bound on {@code |exp_fast(x) - exp(x)| / exp(x)} for float arguments in [-87, 88]. */
    public static final double FLOAT_MAX_RELATIVE_ERROR = 1.5e-7;
    /** Lower end of the double range with the stated relative error; smaller arguments are clamped to it. */
    public static final double DOUBLE_MIN_ARG = -708;
    /** Upper end of the double range; larger arguments are clamped to it. */
    public static final double DOUBLE_MAX_ARG = 709;
    /** Stated bound on the relative error for double arguments in [-708, 709]. */
    public static final double DOUBLE_MAX_RELATIVE_ERROR = 4.5e-16;

    static final float F_LOG2E = 1.44269504088896341f;
    /** ln 2 = F_LN2_HI + F_LN2_LO, F_LN2_HI with 9 significant bits (n F_LN2_HI exact for |n| < 2^15). */
    static final float F_LN2_HI = 0.693359375f;
    static final float F_LN2_LO = -2.12194440e-4f;
    static final float F_MAGIC = 0x1.8p23f;
    /** Cephes' expf polynomial, highest degree first: {@code e^f = 1 + f + f^2 P5(f)}. */
    static final float F_P0 = 1.9875691500e-4f;
    static final float F_P1 = 1.3981999507e-3f;
    static final float F_P2 = 8.3334519073e-3f;
    static final float F_P3 = 4.1665795894e-2f;
    static final float F_P4 = 1.6666665459e-1f;
    static final float F_P5 = 5.0000001201e-1f;

    static final double D_LOG2E = 1.4426950408889634;
    /** fdlibm's split of ln 2: the high part has 32 trailing zero bits, so n D_LN2_HI is exact for |n| < 2^21. */
    static final double D_LN2_HI = 6.93147180369123816490e-01;
    static final double D_LN2_LO = 1.90821492927058770002e-10;
    static final double D_MAGIC = 0x1.8p52;
    /** Taylor coefficients 1/13! ... 1/2!, highest degree first: {@code e^f = 1 + f + f^2 P11(f)}. */
    static final double D_P0 = 1.0 / 6227020800.0;
    static final double D_P1 = 1.0 / 479001600.0;
    static final double D_P2 = 1.0 / 39916800.0;
    static final double D_P3 = 1.0 / 3628800.0;
    static final double D_P4 = 1.0 / 362880.0;
    static final double D_P5 = 1.0 / 40320.0;
    static final double D_P6 = 1.0 / 5040.0;
    static final double D_P7 = 1.0 / 720.0;
    static final double D_P8 = 1.0 / 120.0;
    static final double D_P9 = 1.0 / 24.0;
    static final double D_P10 = 1.0 / 6.0;
    static final double D_P11 = 0.5;

    // ------------------------------------------------------------------ float

    /**
     * Pass 1 over {@code [from, to)}: for {@code d = x[i] - shift}, writes the polynomial part into {@code poly[i]}
     * and the rounding carrier into {@code carrier[i]}; {@link #finish(float, float)} of the two is {@code exp(d)}.
     * The three arrays are indexed alike (that is what lets C2 vectorise the loop); {@code carrier} may be {@code x}
     * itself (overwritten), {@code poly} must be another array.
     */
    public static void prepare(float[] x, float shift, float[] poly, float[] carrier, int from, int to) {
        for (int i = from; i < to; i++) {
            float d = Math.min(Math.max(x[i] - shift, FLOAT_MIN_ARG), FLOAT_MAX_ARG);
            float m = d * F_LOG2E + F_MAGIC;
            poly[i] = poly(d, m);
            carrier[i] = m;
        }
    }

    /** {@code e^f} for {@code f = d - n ln2}, n the integer that carrier m holds. */
    private static float poly(float d, float m) {
        float n = m - F_MAGIC;
        float f = d - n * F_LN2_HI - n * F_LN2_LO;
        float p = F_P0;
        p = p * f + F_P1;
        p = p * f + F_P2;
        p = p * f + F_P3;
        p = p * f + F_P4;
        p = p * f + F_P5;
        return p * f * f + f + 1f;
    }

    /**
     * Pass 2 for one element: {@code poly * 2^n}, n read from the carrier's low bits. Branch-free: the clamp in
     * pass 1 keeps every result a normal float; a NaN argument gives an unspecified value.
     */
    public static float finish(float poly, float carrier) {
        // carrier = 1.5 * 2^23 + n exactly, so its low 23 bits are 2^22 + n and (bits << 23) == n << 23 (mod 2^32)
        return Float.intBitsToFloat(Float.floatToRawIntBits(poly) + (Float.floatToRawIntBits(carrier) << 23));
    }

    /** {@code exp(x)} for one value, bit for bit as the array kernels compute it. */
    public static float exp(float x) {
        if (x != x) {
            return x;
        }
        float d = Math.min(Math.max(x, FLOAT_MIN_ARG), FLOAT_MAX_ARG);
        float m = d * F_LOG2E + F_MAGIC;
        return finish(poly(d, m), m);
    }

    /**
     * {@code y[i] = exp(x[i] - shift)} for i in {@code [from, to)}, bit for bit as {@link #exp(float)} of {@code
     * x[i] - shift} (NaN arguments aside); in SIMD lanes when {@link Simd#enabled()}, else in the two passes above.
     * {@code scratch} receives the carriers of the scalar passes. All three arrays are indexed alike; {@code y} may
     * not alias {@code x}, {@code scratch} may be {@code x} (then overwritten).
     */
    public static void expShifted(float[] x, float shift, float[] y, float[] scratch, int from, int to) {
        if (Simd.enabled()) {
            SimdKernels.expShifted(x, shift, y, from, to);
            return;
        }
        expShiftedScalar(x, shift, y, scratch, from, to);
    }

    /** {@link #expShifted(float[], float, float[], float[], int, int)} in the two scalar passes, always. */
    static void expShiftedScalar(float[] x, float shift, float[] y, float[] scratch, int from, int to) {
        prepare(x, shift, y, scratch, from, to);
        for (int i = from; i < to; i++) {
            y[i] = finish(y[i], scratch[i]);
        }
    }

    /**
     * {@code y[yFrom + i - from] = exp(x[i] - shift)} for i in {@code [from, to)}, for a caller that knows every
     * argument {@code x[i] - shift} lies in {@code [FLOAT_MIN_ARG, FLOAT_MAX_ARG]} (a softmax row shifted by its
     * maximum, whose spread it has checked): the bits of {@link #expShifted(float[], float, float[], float[], int,
     * int)} for such arguments, the results written at an offset of their own, and in SIMD lanes without the clamps
     * (their Java {@code max}/{@code min} cost a third of the kernel). Outside the range the results are
     * unspecified. The scalar passes keep their polynomials in {@code poly} (indexed as x) and their carriers in
     * {@code x} itself, so {@code x[from, to)} is unspecified afterwards; {@code y} may not alias either.
     */
    public static void expShiftedInRange(float[] x, float shift, float[] y, int yFrom, float[] poly, int from,
            int to) {
        if (Simd.enabled()) {
            SimdKernels.expShiftedInRange(x, shift, y, yFrom, from, to);
            return;
        }
        prepare(x, shift, poly, x, from, to);
        for (int i = from; i < to; i++) {
            y[yFrom + i - from] = finish(poly[i], x[i]);
        }
    }

    // ------------------------------------------------------------------ double

    /** As {@link #prepare(float[], float, float[], float[], int, int)} in double precision. */
    public static void prepare(double[] x, double shift, double[] poly, double[] carrier, int from, int to) {
        for (int i = from; i < to; i++) {
            double d = Math.min(Math.max(x[i] - shift, DOUBLE_MIN_ARG), DOUBLE_MAX_ARG);
            double m = d * D_LOG2E + D_MAGIC;
            poly[i] = poly(d, m);
            carrier[i] = m;
        }
    }

    private static double poly(double d, double m) {
        double n = m - D_MAGIC;
        double f = d - n * D_LN2_HI - n * D_LN2_LO;
        double p = D_P0;
        p = p * f + D_P1;
        p = p * f + D_P2;
        p = p * f + D_P3;
        p = p * f + D_P4;
        p = p * f + D_P5;
        p = p * f + D_P6;
        p = p * f + D_P7;
        p = p * f + D_P8;
        p = p * f + D_P9;
        p = p * f + D_P10;
        p = p * f + D_P11;
        return p * f * f + f + 1.0;
    }

    /** As {@link #finish(float, float)} in double precision. */
    public static double finish(double poly, double carrier) {
        return Double.longBitsToDouble(Double.doubleToRawLongBits(poly) + (Double.doubleToRawLongBits(carrier) << 52));
    }

    /** {@code exp(x)} for one double, bit for bit as the array kernels compute it. */
    public static double exp(double x) {
        if (x != x) {
            return x;
        }
        double d = Math.min(Math.max(x, DOUBLE_MIN_ARG), DOUBLE_MAX_ARG);
        double m = d * D_LOG2E + D_MAGIC;
        return finish(poly(d, m), m);
    }

    /**
     * {@code y[i] = exp(x[i] - shift)} for i in {@code [from, to)}, bit for bit as {@link #exp(double)} of {@code
     * x[i] - shift} (NaN arguments aside); in SIMD lanes when {@link Simd#enabled()}. As {@link
     * #expShifted(float[], float, float[], float[], int, int)} otherwise.
     */
    public static void expShifted(double[] x, double shift, double[] y, double[] scratch, int from, int to) {
        if (Simd.enabled()) {
            SimdKernels.expShifted(x, shift, y, from, to);
            return;
        }
        expShiftedScalar(x, shift, y, scratch, from, to);
    }

    /** {@link #expShifted(double[], double, double[], double[], int, int)} in the two scalar passes, always. */
    static void expShiftedScalar(double[] x, double shift, double[] y, double[] scratch, int from, int to) {
        prepare(x, shift, y, scratch, from, to);
        for (int i = from; i < to; i++) {
            y[i] = finish(y[i], scratch[i]);
        }
    }

    /**
     * {@code y[i] = exp(x[i] - shift)} for i in {@code [0, n)} (as {@link #expShifted(double[], double, double[],
     * double[], int, int)}) and returns their sum, accumulated in order, in double (so the same bits with SIMD or
     * without). {@code scratch} receives the carriers; all arrays are indexed alike; {@code x} is left unchanged.
     */
    public static double expShiftedSum(double[] x, double shift, double[] y, double[] scratch, int n) {
        expShifted(x, shift, y, scratch, 0, n);
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += y[i];
        }
        return s;
    }
}
