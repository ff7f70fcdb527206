package io.regheads.core.internal;

import io.regheads.core.check.Checks;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Activation kernels shared by the activation layers and by the key/value-cached inference step of {@code
 * TransformerBlock.Snapshot}, which must match the layers bit for bit. Internal; stateless.
 */
public final class Activations {
    private Activations() {}

    public static void checkInput(INDArray input) {
        Checks.notNull("input", input);
        Checks.require(input.dataType() == DataType.FLOAT || input.dataType() == DataType.DOUBLE,
                "input must be FLOAT or DOUBLE, got %s", input.dataType());
        if (input.length() <= 0) { // the shape's text only when it fails: this runs on every activation call
            throw new IllegalArgumentException("input must not be empty, got shape " + Arrays.toString(input.shape()));
        }
    }

    /**
     * tanh to float accuracy without a transcendental call: Eigen's rational minimax approximation
     * ({@code generic_fast_tanh_float}: odd degree-13 numerator over even degree-6 denominator on [-9, 9], the
     * argument clamped to that range). Branch-free float arithmetic, so loops over {@code float[]} vectorise. Its
     * error against {@link Math#tanh} is below 4e-7, a few float ulps (checked in the tests); FLOAT arrays only.
     */
    public static float fastTanh(float x) {
        float c = Math.min(9f, Math.max(-9f, x));
        float x2 = c * c;
        float p = -2.76076847742355e-16f;
        p = p * x2 + 2.00018790482477e-13f;
        p = p * x2 - 8.60467152213735e-11f;
        p = p * x2 + 5.12229709037114e-08f;
        p = p * x2 + 1.48572235717979e-05f;
        p = p * x2 + 6.37261928875436e-04f;
        p = p * x2 + 4.89352455891786e-03f;
        p = p * c;
        float q = 1.19825839466702e-06f;
        q = q * x2 + 1.18534705686654e-04f;
        q = q * x2 + 2.26843463243900e-03f;
        q = q * x2 + 4.89352518554385e-03f;
        return p / q;
    }

    /** The tanh-form GELU of one value exactly as the float kernels compute it (the array loops, element by element). */
    public static float geluTanh(float u) {
        return 0.5f * u * (1 + fastTanh(C * (u + A * u * u * u)));
    }

    private static final float C = (float) Math.sqrt(2.0 / Math.PI);
    private static final float A = 0.044715f;

    /** GELU (tanh form) in float without keeping t: {@code GELU}'s TANH form, bit for bit; a flat loop the JIT vectorises. */
    public static void geluTanh(float[] x, float[] y) {
        for (int i = 0; i < x.length; i++) {
            float v = x[i];
            y[i] = 0.5f * v * (1 + fastTanh(C * (v + A * v * v * v)));
        }
    }

    /** GELU (tanh form) in float: y = 0.5 x (1 + t), t = tanh(C (x + A x^3)) stored for backward. */
    public static void geluTanh(float[] x, float[] t, float[] y) {
        for (int i = 0; i < x.length; i++) {
            float v = x[i];
            float th = fastTanh(C * (v + A * v * v * v));
            t[i] = th;
            y[i] = 0.5f * v * (1 + th);
        }
    }

    /**
     * GELU (tanh form) in double without keeping t: {@link #geluTanh(double[], double[], double[])}'s y, bit for bit;
     * x and y may be the same array.
     */
    public static void geluTanh(double[] x, double[] y) {
        double c = Math.sqrt(2.0 / Math.PI);
        for (int i = 0; i < x.length; i++) {
            double v = x[i];
            y[i] = 0.5 * v * (1 + Math.tanh(c * (v + 0.044715 * v * v * v)));
        }
    }

    /** GELU (tanh form) in double with {@link Math#tanh}. */
    public static void geluTanh(double[] x, double[] t, double[] y) {
        double c = Math.sqrt(2.0 / Math.PI);
        for (int i = 0; i < x.length; i++) {
            double v = x[i];
            double th = Math.tanh(c * (v + 0.044715 * v * v * v));
            t[i] = th;
            y[i] = 0.5 * v * (1 + th);
        }
    }

    /** dx = dy (0.5 (1 + t) + 0.5 x (1 - t^2) C (1 + 3 A x^2)). */
    public static void geluTanhBackward(float[] x, float[] t, float[] dy, float[] dx) {
        for (int i = 0; i < x.length; i++) {
            float v = x[i];
            float th = t[i];
            dx[i] = dy[i] * (0.5f * (1 + th) + 0.5f * v * (1 - th * th) * C * (1 + 3 * A * v * v));
        }
    }

    /** As the float version, in double. */
    public static void geluTanhBackward(double[] x, double[] t, double[] dy, double[] dx) {
        double c = Math.sqrt(2.0 / Math.PI);
        for (int i = 0; i < x.length; i++) {
            double v = x[i];
            double th = t[i];
            dx[i] = dy[i] * (0.5 * (1 + th) + 0.5 * v * (1 - th * th) * c * (1 + 3 * 0.044715 * v * v));
        }
    }
}
