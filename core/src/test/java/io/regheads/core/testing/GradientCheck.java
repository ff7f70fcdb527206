package io.regheads.core.testing;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.Targets;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Layer;
import io.regheads.core.nn.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleSupplier;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The one shared finite-difference gradient checker (test code, shipped in the core test-jar).
 *
 * <p>Central differences in double precision: for every element {@code v} of every variable, {@code num = (f(v +
 * eps) - f(v - eps)) / (2 eps)} is compared with the analytic gradient {@code ana} through {@code |num - ana| /
 * max(|num| + |ana|, absFloor)}. The failure message names the variable, the flat index, both values and the
 * error. Variables must be double arrays (the checker refuses float: its differences would be noise).
 */
public final class GradientCheck {

    /** A tensor to perturb and the array where its analytic gradient is found after {@code backward} ran. */
    public record Variable(String name, INDArray value, java.util.function.Supplier<INDArray> gradient) {}

    /** Tolerances: step, allowed relative error, and the absolute floor of the denominator. */
    public record Tolerance(double eps, double maxRelError, double absFloor) {
        public static Tolerance standard() {
            return new Tolerance(1e-6, 1e-5, 1e-8);
        }

        /**
         * For objectives of size ~10 whose gradients include exact or near zeros (an attention key bias is exactly 0
         * by softmax shift invariance; layer-norm input gradients of ~1e-5 arise from cancelling O(1) terms): step
         * 1e-6, relative error 1e-5, and the denominator floored at 1e-3, so gradients below 1e-3 in magnitude are
         * held to 1e-8 absolute. Why 1e-8: the central difference carries the objective's rounding error divided by
         * the step, about {@code k u |f| / eps} with u = 1.1e-16 and k the few roundings that differ between two
         * evaluations: 1e-9 for |f| ~ 10 and k ~ 1. That noise depends on how the matrix products sum (measured: a
         * transformer block's numeric gradient moved by 1.2e-9 between OpenBLAS's Zen and Sandybridge kernels while
         * the analytic one did not), so the floor leaves a factor of 8 above it; a missing or wrong term of a
         * gradient, 1e-6 or more, still fails.
         */
        public static Tolerance noiseFloored() {
            return new Tolerance(1e-6, 1e-5, 1e-3);
        }
    }

    private GradientCheck() {}

    /**
     * Checks analytic gradients against central differences.
     *
     * @param objective a scalar function of the variables' current values (must be deterministic)
     * @param backward  recomputes the analytic gradients (zeroing first) so that {@code gradient.get()} is valid
     * @param variables what to perturb
     * @return the largest relative error seen
     * @throws AssertionError naming the variable and index of the first element beyond tolerance
     */
    public static double check(DoubleSupplier objective, Runnable backward, List<Variable> variables, Tolerance tol) {
        backward.run();
        List<INDArray> analytic = new ArrayList<>();
        for (Variable v : variables) {
            if (v.value().dataType() != DataType.DOUBLE) {
                throw new IllegalArgumentException(
                        "gradient check needs double precision; " + v.name() + " is " + v.value().dataType());
            }
            analytic.add(v.gradient().get().dup());
        }
        double worst = 0;
        for (int k = 0; k < variables.size(); k++) {
            Variable v = variables.get(k);
            INDArray flat = v.value().reshape(v.value().length()); // a view of a c-ordered array
            INDArray ana = analytic.get(k).reshape(v.value().length());
            for (long i = 0; i < flat.length(); i++) {
                double original = flat.getDouble(i);
                flat.putScalar(i, original + tol.eps());
                double plus = objective.getAsDouble();
                flat.putScalar(i, original - tol.eps());
                double minus = objective.getAsDouble();
                flat.putScalar(i, original);
                double num = (plus - minus) / (2 * tol.eps());
                double a = ana.getDouble(i);
                double rel = Math.abs(num - a) / Math.max(Math.abs(num) + Math.abs(a), tol.absFloor());
                if (!(rel <= tol.maxRelError())) {
                    throw new AssertionError(String.format(
                            "gradient of %s at flat index %d: analytic %.10g, numeric %.10g, relative error %.3g > %.3g",
                            v.name(), i, a, num, rel, tol.maxRelError()));
                }
                worst = Math.max(worst, rel);
            }
        }
        return worst;
    }

    /**
     * Checks a layer's input and parameter gradients through the objective {@code <forward(x), R>} with a fixed
     * random R. Parameters and input must be double.
     *
     * @return the largest relative error seen
     */
    public static <C extends Layer.Cache> double checkLayer(Layer<C> layer, INDArray input, long seed, Tolerance tol) {
        INDArray probe = randomLike(layer.forward(input, Arena.none()).output(), seed);
        INDArray[] dInput = new INDArray[1];
        DoubleSupplier objective = () -> layer.forward(input, Arena.none()).output().mul(probe).sumNumber().doubleValue();
        Runnable backward = () -> {
            layer.params().forEach(Param::zeroGrad);
            C cache = layer.forward(input, Arena.none());
            dInput[0] = layer.backward(cache, probe, Arena.none());
        };
        List<Variable> vars = new ArrayList<>();
        vars.add(new Variable("input", input, () -> dInput[0]));
        for (Param p : layer.params()) {
            vars.add(new Variable(p.name(), p.value(), p::grad));
        }
        return check(objective, backward, vars, tol);
    }

    /**
     * Checks a head's and a loss's gradients together: the objective is the loss's mean value on the head's output
     * for features {@code phi} and labels {@code y}; the variables are {@code phi} (the gradient the head hands back
     * to an encoder) and every parameter of the head. Parameters and phi must be double.
     *
     * @return the largest relative error seen
     */
    public static <C> double checkHead(RegressionHead<C> head, Loss loss, double[] y, INDArray phi, Tolerance tol) {
        Targets t = head.targets(y);
        INDArray[] dPhi = new INDArray[1];
        Runnable backward = () -> {
            head.params().forEach(Param::zeroGrad);
            RegressionHead.Forward<C> f = head.forward(phi, t, Arena.none());
            HeadOutput g = f.output().zerosLike();
            loss.accumulate(f.output(), t, 1.0, g, new double[y.length]);
            dPhi[0] = head.backward(f, g, Arena.none());
        };
        List<Variable> vars = new ArrayList<>();
        vars.add(new Variable("phi", phi, () -> dPhi[0]));
        for (Param p : head.params()) {
            vars.add(new Variable(p.name(), p.value(), p::grad));
        }
        return check(() -> loss.evaluate(head.forward(phi, t, Arena.none()).output(), t).value(), backward, vars, tol);
    }

    /** A double array of N(0, 1) values shaped like {@code like}, from a seeded {@link Random}. */
    public static INDArray randomLike(INDArray like, long seed) {
        Random r = new Random(seed);
        double[] d = new double[(int) like.length()];
        for (int i = 0; i < d.length; i++) {
            d[i] = r.nextGaussian();
        }
        return Nd4j.createFromArray(d).reshape(like.shape()).castTo(DataType.DOUBLE);
    }

    /** A double array of N(0, scale^2) values of the given shape. */
    public static INDArray random(long seed, double scale, long... shape) {
        Random r = new Random(seed);
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        double[] d = new double[(int) n];
        for (int i = 0; i < d.length; i++) {
            d[i] = scale * r.nextGaussian();
        }
        return Nd4j.createFromArray(d).reshape(shape);
    }
}
