package io.regheads.core.internal;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The SIMD forms of {@link FastExp}'s array kernels and {@link Simd}'s reductions, on the JDK's incubating Vector
 * API. The only class that names {@code jdk.incubator.vector}; {@link Simd} loads it only when that module is in
 * the JVM. Each lane does the scalar code's IEEE operations in the scalar code's order (a multiply and an add, never
 * a fused multiply-add), so every element gets the scalar result's bits; the tail of an array that does not fill a
 * vector runs the scalar code.
 */
final class SimdKernels {
    private SimdKernels() {}

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    /**
     * Whether the preferred vectors hold exactly four doubles (and eight floats), one lane per partial sum of {@link
     * #weightedSums}; else it runs the scalar code. Only the preferred shapes are used anywhere here: a second shape
     * of float vectors in the same JVM was seen to make C2 compile the exponential kernel to boxed vectors.
     */
    private static final boolean FOUR_DOUBLES = D.length() == 4 && F.length() == 8;
    private static volatile double sink;

    private static void sink(double v) {
        sink = v;
    }

    /** True if the preferred shape holds at least four floats and the kernels agree with the scalar code. */
    static boolean usable() {
        if (F.length() < 4) {
            return false;
        }
        int n = 3 * F.length() + 3; // full vectors and a tail
        float[] x = new float[n];
        double[] xd = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = -90f + 180f * i / n;
            xd[i] = -700 + 1400.0 * i / n;
        }
        float[] y = new float[n];
        double[] yd = new double[n];
        expShifted(x, 0.5f, y, 0, n);
        expShifted(xd, 0.5, yd, 0, n);
        for (int i = 0; i < n; i++) {
            if (Float.floatToRawIntBits(y[i]) != Float.floatToRawIntBits(FastExp.exp(x[i] - 0.5f))
                    || Double.doubleToRawLongBits(yd[i]) != Double.doubleToRawLongBits(FastExp.exp(xd[i] - 0.5))) {
                return false;
            }
        }
        float[] inRange = new float[n + 1]; // the kernel without clamps, at an offset, on arguments in [-80.5, 79.5]
        for (int i = 0; i < n; i++) {
            x[i] = -80f + 160f * i / n;
        }
        expShiftedInRange(x, 0.5f, inRange, 1, 0, n);
        for (int i = 0; i < n; i++) {
            if (Float.floatToRawIntBits(inRange[i + 1]) != Float.floatToRawIntBits(FastExp.exp(x[i] - 0.5f))) {
                return false;
            }
        }
        double[] sums = new double[2];
        double[] ref = new double[2];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = 0.37 * i - 3;
        }
        weightedSums(y, 0, values, n, sums);
        Simd.weightedSumsScalar(y, 0, values, n, ref);
        float[] sum = new float[n];
        float[] maxMin = new float[2];
        addMaxMin(x, 0, y, sum, n, maxMin);
        for (int i = 0; i < n; i++) {
            if (Float.floatToRawIntBits(sum[i]) != Float.floatToRawIntBits(x[i] + y[i])) {
                return false;
            }
        }
        return maxMin[0] == Simd.maxScalar(sum, n) && maxMin[1] == Simd.minScalar(sum, n)
                && Double.doubleToRawLongBits(sums[0]) == Double.doubleToRawLongBits(ref[0])
                && Double.doubleToRawLongBits(sums[1]) == Double.doubleToRawLongBits(ref[1]);
    }

    /**
     * Runs these kernels and the scalar ones on small arrays in turns, batch after batch, until the SIMD batch is
     * the faster three times in a row (C2 has compiled it; before that Vector API code runs many times slower than
     * scalar code): true then, false if that has not happened within 90 seconds. After each pair of batches the
     * thread sleeps twice as long as they took, so it takes at most about a third of a core from the
     * application's first predictions (a warm-up running flat out took one of two cores for seconds and made the
     * first histogram predictions 2.5 times slower).
     */
    static boolean fasterOnceCompiled() {
        int n = 64;
        float[] x = new float[n];
        float[] y = new float[n];
        float[] scratch = new float[n];
        double[] xd = new double[n];
        double[] yd = new double[n];
        double[] scratchD = new double[n];
        double[] sums = new double[2];
        float[] maxMin = new float[2];
        for (int i = 0; i < n; i++) {
            x[i] = -20f * i / n;
            xd[i] = -20.0 * i / n;
        }
        long deadline = System.nanoTime() + 90_000_000_000L;
        double sink = 0;
        int wins = 0;
        while (wins < 3) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            long t0 = System.nanoTime();
            for (int k = 0; k < 2000; k++) {
                expShifted(x, 0.5f, y, 0, n);
                expShiftedInRange(x, 0.5f, y, 0, 0, n); // both forms of the float kernel, so C2 compiles both
                expShifted(xd, 0.5, yd, 0, n);
                addMaxMin(x, 0, y, y, n, maxMin);
                weightedSums(y, 0, xd, n, sums);
                sink += maxMin[0] + maxMin[1] + yd[k & (n - 1)] + sums[1];
            }
            long simd = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int k = 0; k < 2000; k++) {
                FastExp.expShiftedScalar(x, 0.5f, y, scratch, 0, n);
                FastExp.expShiftedScalar(x, 0.5f, y, scratch, 0, n); // the scalar twin of the form without clamps
                FastExp.expShiftedScalar(xd, 0.5, yd, scratchD, 0, n);
                Simd.addMaxMinScalar(x, 0, y, y, n, maxMin);
                Simd.weightedSumsScalar(y, 0, xd, n, sums);
                sink += maxMin[0] + maxMin[1] + yd[k & (n - 1)] + sums[1];
            }
            long scalar = System.nanoTime() - t0;
            wins = simd < scalar ? wins + 1 : 0;
            try {
                Thread.sleep(Math.max(1, 2 * (simd + scalar) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        sink(sink); // so the batches are not optimised away
        return true;
    }

    /** {@code y[i] = exp(x[i] - shift)} for i in {@code [from, to)}, as {@link FastExp#exp(float)} does it. */
    static void expShifted(float[] x, float shift, float[] y, int from, int to) {
        exp(x, shift, y, 0, from, to, true);
    }

    /**
     * {@code y[yFrom + i - from] = exp(x[i] - shift)} for i in {@code [from, to)}, for arguments {@code x[i] - shift}
     * in {@code [FLOAT_MIN_ARG, FLOAT_MAX_ARG]}: the bits of {@link #expShifted(float[], float, float[], int, int)},
     * without its clamps (for arguments outside the range the result is unspecified).
     */
    static void expShiftedInRange(float[] x, float shift, float[] y, int yFrom, int from, int to) {
        exp(x, shift, y, yFrom - from, from, to, false);
    }

    /**
     * {@code y[i + offset] = exp(x[i] - shift)} for i in {@code [from, to)}, the arguments clamped to the float range
     * when {@code clamp} is set (the clamps are the identity inside the range: the same bits there either way; their
     * Java {@code max}/{@code min} semantics cost a third of the kernel's time). Two vectors per step, written out (a
     * remainder shorter than two vectors runs the scalar code): besides the instruction-level parallelism this keeps
     * the method's bytecode above C2's inlining limit for hot callees, so it is always compiled on its own. Inlined
     * into a large caller, C2 (JDK 17) was seen to give up on the reinterpretation intrinsic of the exponent step,
     * and the boxed vectors made the kernel slower than the scalar code.
     */
    private static void exp(float[] x, float shift, float[] y, int offset, int from, int to, boolean clamp) {
        int len = F.length();
        int i = from;
        for (int bound = to - 2 * len; i <= bound; i += 2 * len) {
            FloatVector d0 = FloatVector.fromArray(F, x, i).sub(shift);
            FloatVector d1 = FloatVector.fromArray(F, x, i + len).sub(shift);
            if (clamp) {
                d0 = d0.max(FastExp.FLOAT_MIN_ARG).min(FastExp.FLOAT_MAX_ARG);
                d1 = d1.max(FastExp.FLOAT_MIN_ARG).min(FastExp.FLOAT_MAX_ARG);
            }
            FloatVector m0 = d0.mul(FastExp.F_LOG2E).add(FastExp.F_MAGIC);
            FloatVector n0 = m0.sub(FastExp.F_MAGIC);
            FloatVector f0 = d0.sub(n0.mul(FastExp.F_LN2_HI)).sub(n0.mul(FastExp.F_LN2_LO));
            FloatVector p0 = FloatVector.broadcast(F, FastExp.F_P0);
            p0 = p0.mul(f0).add(FastExp.F_P1);
            p0 = p0.mul(f0).add(FastExp.F_P2);
            p0 = p0.mul(f0).add(FastExp.F_P3);
            p0 = p0.mul(f0).add(FastExp.F_P4);
            p0 = p0.mul(f0).add(FastExp.F_P5);
            p0 = p0.mul(f0).mul(f0).add(f0).add(1f);
            p0.reinterpretAsInts().add(m0.reinterpretAsInts().lanewise(VectorOperators.LSHL, 23))
                    .reinterpretAsFloats().intoArray(y, i + offset);
            FloatVector m1 = d1.mul(FastExp.F_LOG2E).add(FastExp.F_MAGIC);
            FloatVector n1 = m1.sub(FastExp.F_MAGIC);
            FloatVector f1 = d1.sub(n1.mul(FastExp.F_LN2_HI)).sub(n1.mul(FastExp.F_LN2_LO));
            FloatVector p1 = FloatVector.broadcast(F, FastExp.F_P0);
            p1 = p1.mul(f1).add(FastExp.F_P1);
            p1 = p1.mul(f1).add(FastExp.F_P2);
            p1 = p1.mul(f1).add(FastExp.F_P3);
            p1 = p1.mul(f1).add(FastExp.F_P4);
            p1 = p1.mul(f1).add(FastExp.F_P5);
            p1 = p1.mul(f1).mul(f1).add(f1).add(1f);
            p1.reinterpretAsInts().add(m1.reinterpretAsInts().lanewise(VectorOperators.LSHL, 23))
                    .reinterpretAsFloats().intoArray(y, i + len + offset);
        }
        for (; i < to; i++) {
            y[i + offset] = FastExp.exp(x[i] - shift);
        }
    }

    /**
     * {@code y[i] = exp(x[i] - shift)} for i in {@code [from, to)}, as {@link FastExp#exp(double)} does it; two
     * vectors per step, written out, for the reason given at the float kernel.
     */
    static void expShifted(double[] x, double shift, double[] y, int from, int to) {
        int len = D.length();
        int i = from;
        for (int bound = to - 2 * len; i <= bound; i += 2 * len) {
            DoubleVector d0 = DoubleVector.fromArray(D, x, i).sub(shift)
                    .max(FastExp.DOUBLE_MIN_ARG).min(FastExp.DOUBLE_MAX_ARG);
            DoubleVector m0 = d0.mul(FastExp.D_LOG2E).add(FastExp.D_MAGIC);
            DoubleVector n0 = m0.sub(FastExp.D_MAGIC);
            DoubleVector f0 = d0.sub(n0.mul(FastExp.D_LN2_HI)).sub(n0.mul(FastExp.D_LN2_LO));
            DoubleVector p0 = DoubleVector.broadcast(D, FastExp.D_P0);
            p0 = p0.mul(f0).add(FastExp.D_P1);
            p0 = p0.mul(f0).add(FastExp.D_P2);
            p0 = p0.mul(f0).add(FastExp.D_P3);
            p0 = p0.mul(f0).add(FastExp.D_P4);
            p0 = p0.mul(f0).add(FastExp.D_P5);
            p0 = p0.mul(f0).add(FastExp.D_P6);
            p0 = p0.mul(f0).add(FastExp.D_P7);
            p0 = p0.mul(f0).add(FastExp.D_P8);
            p0 = p0.mul(f0).add(FastExp.D_P9);
            p0 = p0.mul(f0).add(FastExp.D_P10);
            p0 = p0.mul(f0).add(FastExp.D_P11);
            p0 = p0.mul(f0).mul(f0).add(f0).add(1.0);
            p0.reinterpretAsLongs().add(m0.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 52))
                    .reinterpretAsDoubles().intoArray(y, i);
            DoubleVector d1 = DoubleVector.fromArray(D, x, i + len).sub(shift)
                    .max(FastExp.DOUBLE_MIN_ARG).min(FastExp.DOUBLE_MAX_ARG);
            DoubleVector m1 = d1.mul(FastExp.D_LOG2E).add(FastExp.D_MAGIC);
            DoubleVector n1 = m1.sub(FastExp.D_MAGIC);
            DoubleVector f1 = d1.sub(n1.mul(FastExp.D_LN2_HI)).sub(n1.mul(FastExp.D_LN2_LO));
            DoubleVector p1 = DoubleVector.broadcast(D, FastExp.D_P0);
            p1 = p1.mul(f1).add(FastExp.D_P1);
            p1 = p1.mul(f1).add(FastExp.D_P2);
            p1 = p1.mul(f1).add(FastExp.D_P3);
            p1 = p1.mul(f1).add(FastExp.D_P4);
            p1 = p1.mul(f1).add(FastExp.D_P5);
            p1 = p1.mul(f1).add(FastExp.D_P6);
            p1 = p1.mul(f1).add(FastExp.D_P7);
            p1 = p1.mul(f1).add(FastExp.D_P8);
            p1 = p1.mul(f1).add(FastExp.D_P9);
            p1 = p1.mul(f1).add(FastExp.D_P10);
            p1 = p1.mul(f1).add(FastExp.D_P11);
            p1 = p1.mul(f1).mul(f1).add(f1).add(1.0);
            p1.reinterpretAsLongs().add(m1.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 52))
                    .reinterpretAsDoubles().intoArray(y, i + len);
        }
        for (; i < to; i++) {
            y[i] = FastExp.exp(x[i] - shift);
        }
    }

    /**
     * {@link Simd#weightedSums} with its four partial sums in the lanes of a four-double vector (eight floats widened
     * per step, in two halves); where the preferred vectors do not hold four doubles, the scalar code.
     */
    static void weightedSums(float[] e, int from, double[] values, int n, double[] sums) {
        if (!FOUR_DOUBLES || n < 8) {
            Simd.weightedSumsScalar(e, from, values, n, sums);
            return;
        }
        DoubleVector s = DoubleVector.zero(D);
        DoubleVector m = DoubleVector.zero(D);
        int j = 0;
        for (; j + 7 < n; j += 8) { // elements j..j+3, then j+4..j+7: lane i adds the elements i mod 4 in order
            FloatVector f = FloatVector.fromArray(F, e, from + j);
            DoubleVector d0 = (DoubleVector) f.convertShape(VectorOperators.F2D, D, 0);
            DoubleVector d1 = (DoubleVector) f.convertShape(VectorOperators.F2D, D, 1);
            s = s.add(d0).add(d1);
            m = m.add(d0.mul(DoubleVector.fromArray(D, values, j))).add(d1.mul(DoubleVector.fromArray(D, values,
                    j + 4)));
        }
        if (j + 3 < n) { // four more: the upper half of the eight floats ending there (j >= 8)
            DoubleVector d0 = (DoubleVector) FloatVector.fromArray(F, e, from + j - 4)
                    .convertShape(VectorOperators.F2D, D, 1);
            s = s.add(d0);
            m = m.add(d0.mul(DoubleVector.fromArray(D, values, j)));
            j += 4;
        }
        double s0 = s.lane(0);
        double m0 = m.lane(0);
        for (; j < n; j++) {
            double e0 = e[from + j];
            s0 += e0;
            m0 += e0 * values[j];
        }
        sums[0] = (s0 + s.lane(1)) + (s.lane(2) + s.lane(3));
        sums[1] = (m0 + m.lane(1)) + (m.lane(2) + m.lane(3));
    }

    /** {@link Simd#addMaxMin}: the sum vector stored and folded into the running maximum and minimum. */
    static void addMaxMin(float[] a, int from, float[] b, float[] out, int n, float[] maxMin) {
        int j = 0;
        FloatVector hi = FloatVector.broadcast(F, Float.NEGATIVE_INFINITY);
        FloatVector lo = FloatVector.broadcast(F, Float.POSITIVE_INFINITY);
        for (int bound = F.loopBound(n); j < bound; j += F.length()) {
            FloatVector v = FloatVector.fromArray(F, a, from + j).add(FloatVector.fromArray(F, b, j));
            v.intoArray(out, j);
            hi = hi.max(v);
            lo = lo.min(v);
        }
        float max = hi.reduceLanes(VectorOperators.MAX);
        float min = lo.reduceLanes(VectorOperators.MIN);
        for (; j < n; j++) {
            float v = a[from + j] + b[j];
            out[j] = v;
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        maxMin[0] = max;
        maxMin[1] = min;
    }

}
