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

    /** {@code y[i] = exp(x[i] - shift)} for i in {@code [from, to)}, as {@link FastExp#exp(float)} does it. */
    static void expShifted(float[] x, float shift, float[] y, int from, int to) {
        int i = from;
        for (int bound = from + F.loopBound(to - from); i < bound; i += F.length()) {
            FloatVector d = FloatVector.fromArray(F, x, i).sub(shift)
                    .max(FastExp.FLOAT_MIN_ARG).min(FastExp.FLOAT_MAX_ARG);
            FloatVector m = d.mul(FastExp.F_LOG2E).add(FastExp.F_MAGIC);
            FloatVector n = m.sub(FastExp.F_MAGIC);
            FloatVector f = d.sub(n.mul(FastExp.F_LN2_HI)).sub(n.mul(FastExp.F_LN2_LO));
            FloatVector p = FloatVector.broadcast(F, FastExp.F_P0);
            p = p.mul(f).add(FastExp.F_P1);
            p = p.mul(f).add(FastExp.F_P2);
            p = p.mul(f).add(FastExp.F_P3);
            p = p.mul(f).add(FastExp.F_P4);
            p = p.mul(f).add(FastExp.F_P5);
            p = p.mul(f).mul(f).add(f).add(1f);
            IntVector bits = p.reinterpretAsInts().add(m.reinterpretAsInts().lanewise(VectorOperators.LSHL, 23));
            bits.reinterpretAsFloats().intoArray(y, i);
        }
        for (; i < to; i++) {
            y[i] = FastExp.exp(x[i] - shift);
        }
    }

    /** {@code y[i] = exp(x[i] - shift)} for i in {@code [from, to)}, as {@link FastExp#exp(double)} does it. */
    static void expShifted(double[] x, double shift, double[] y, int from, int to) {
        int i = from;
        for (int bound = from + D.loopBound(to - from); i < bound; i += D.length()) {
            DoubleVector d = DoubleVector.fromArray(D, x, i).sub(shift)
                    .max(FastExp.DOUBLE_MIN_ARG).min(FastExp.DOUBLE_MAX_ARG);
            DoubleVector m = d.mul(FastExp.D_LOG2E).add(FastExp.D_MAGIC);
            DoubleVector n = m.sub(FastExp.D_MAGIC);
            DoubleVector f = d.sub(n.mul(FastExp.D_LN2_HI)).sub(n.mul(FastExp.D_LN2_LO));
            DoubleVector p = DoubleVector.broadcast(D, FastExp.D_P0);
            p = p.mul(f).add(FastExp.D_P1);
            p = p.mul(f).add(FastExp.D_P2);
            p = p.mul(f).add(FastExp.D_P3);
            p = p.mul(f).add(FastExp.D_P4);
            p = p.mul(f).add(FastExp.D_P5);
            p = p.mul(f).add(FastExp.D_P6);
            p = p.mul(f).add(FastExp.D_P7);
            p = p.mul(f).add(FastExp.D_P8);
            p = p.mul(f).add(FastExp.D_P9);
            p = p.mul(f).add(FastExp.D_P10);
            p = p.mul(f).add(FastExp.D_P11);
            p = p.mul(f).mul(f).add(f).add(1.0);
            LongVector bits = p.reinterpretAsLongs().add(m.reinterpretAsLongs().lanewise(VectorOperators.LSHL, 52));
            bits.reinterpretAsDoubles().intoArray(y, i);
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
