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
        return max(x, n) == Simd.maxScalar(x, n) && min(x, n) == Simd.minScalar(x, n);
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
                expShifted(xd, 0.5, yd, 0, n);
                add(x, 0, y, y, n);
                sink += max(y, n) + min(y, n) + yd[k & (n - 1)];
            }
            long simd = System.nanoTime() - t0;
            t0 = System.nanoTime();
            for (int k = 0; k < 2000; k++) {
                FastExp.expShiftedScalar(x, 0.5f, y, scratch, 0, n);
                FastExp.expShiftedScalar(xd, 0.5, yd, scratchD, 0, n);
                Simd.addScalar(x, 0, y, y, n);
                sink += Simd.maxScalar(y, n) + Simd.minScalar(y, n) + yd[k & (n - 1)];
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

    /**
     * {@code y[i] = exp(x[i] - shift)} for i in {@code [from, to)}, as {@link FastExp#exp(float)} does it. Two
     * vectors per step, written out (a remainder shorter than two vectors runs the scalar code): besides the
     * instruction-level parallelism this keeps the method's bytecode above C2's inlining limit for hot callees, so it
     * is always compiled on its own. Inlined into a large caller, C2 (JDK 17) was seen to give up on the
     * reinterpretation intrinsic of the exponent step, and the boxed vectors made the kernel slower than the scalar
     * code.
     */
    static void expShifted(float[] x, float shift, float[] y, int from, int to) {
        int len = F.length();
        int i = from;
        for (int bound = to - 2 * len; i <= bound; i += 2 * len) {
            FloatVector d0 = FloatVector.fromArray(F, x, i).sub(shift)
                    .max(FastExp.FLOAT_MIN_ARG).min(FastExp.FLOAT_MAX_ARG);
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
                    .reinterpretAsFloats().intoArray(y, i);
            FloatVector d1 = FloatVector.fromArray(F, x, i + len).sub(shift)
                    .max(FastExp.FLOAT_MIN_ARG).min(FastExp.FLOAT_MAX_ARG);
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
                    .reinterpretAsFloats().intoArray(y, i + len);
        }
        for (; i < to; i++) {
            y[i] = FastExp.exp(x[i] - shift);
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

    static float max(float[] x, int n) {
        int j = 0;
        FloatVector acc = FloatVector.broadcast(F, Float.NEGATIVE_INFINITY);
        for (int bound = F.loopBound(n); j < bound; j += F.length()) {
            acc = acc.max(FloatVector.fromArray(F, x, j));
        }
        float m = acc.reduceLanes(VectorOperators.MAX);
        for (; j < n; j++) {
            m = Math.max(m, x[j]);
        }
        return m;
    }

    static float min(float[] x, int n) {
        int j = 0;
        FloatVector acc = FloatVector.broadcast(F, Float.POSITIVE_INFINITY);
        for (int bound = F.loopBound(n); j < bound; j += F.length()) {
            acc = acc.min(FloatVector.fromArray(F, x, j));
        }
        float m = acc.reduceLanes(VectorOperators.MIN);
        for (; j < n; j++) {
            m = Math.min(m, x[j]);
        }
        return m;
    }

    static void add(float[] a, int from, float[] b, float[] out, int n) {
        int j = 0;
        for (int bound = F.loopBound(n); j < bound; j += F.length()) {
            FloatVector.fromArray(F, a, from + j).add(FloatVector.fromArray(F, b, j)).intoArray(out, j);
        }
        for (; j < n; j++) {
            out[j] = a[from + j] + b[j];
        }
    }
}
