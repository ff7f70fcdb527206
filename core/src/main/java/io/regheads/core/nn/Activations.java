package io.regheads.core.nn;

import io.regheads.core.Checks;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Package-private scalar kernels shared by the activation layers. Stateless. */
final class Activations {
    private Activations() {}

    static void checkInput(INDArray input) {
        Checks.notNull("input", input);
        Checks.require(input.dataType() == DataType.FLOAT || input.dataType() == DataType.DOUBLE,
                "input must be FLOAT or DOUBLE, got %s", input.dataType());
        Checks.require(input.length() > 0, "input must not be empty, got shape %s", Arrays.toString(input.shape()));
    }

    /**
     * tanh to float accuracy without a transcendental call: Eigen's rational minimax approximation
     * ({@code generic_fast_tanh_float}: odd degree-13 numerator over even degree-6 denominator on [-9, 9], +-1
     * outside, x itself for |x| < 4e-4). Its error against {@link Math#tanh} is below 2e-7 (checked in the tests);
     * used only for FLOAT arrays, DOUBLE arrays use {@link Math#tanh}.
     */
    static double fastTanh(double x) {
        double ax = Math.abs(x);
        if (ax < 4e-4) {
            return x;
        }
        double c = Math.min(9.0, Math.max(-9.0, x));
        double x2 = c * c;
        double p = -2.76076847742355e-16;
        p = p * x2 + 2.00018790482477e-13;
        p = p * x2 - 8.60467152213735e-11;
        p = p * x2 + 5.12229709037114e-08;
        p = p * x2 + 1.48572235717979e-05;
        p = p * x2 + 6.37261928875436e-04;
        p = p * x2 + 4.89352455891786e-03;
        p = p * c;
        double q = 1.19825839466702e-06;
        q = q * x2 + 1.18534705686654e-04;
        q = q * x2 + 2.26843463243900e-03;
        q = q * x2 + 4.89352518554385e-03;
        return p / q;
    }
}
