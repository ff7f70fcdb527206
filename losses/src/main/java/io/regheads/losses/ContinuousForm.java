package io.regheads.losses;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.Scalar;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.head.Targets;
import java.util.Arrays;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * How a loss reads on continuous outputs (one example at a time), and the shared driver that checks arguments,
 * averages over the batch and writes gradients. Package-private.
 */
interface ContinuousForm {

    /** Loss of one mixture example {@code p}; adds {@code scale *} its gradient into {@code g}. */
    double mixture(Mixture.Parameters p, double y, double scale, Mixture.Gradients g);

    /** Loss of one point prediction; {@code slope[0]} receives d(loss)/d(yHat). */
    double scalar(double yHat, double y, double[] slope);

    /**
     * {@code weight * mean_b loss_b} on a {@link GaussianMixture} or {@link Scalar}, with gradients added into
     * {@code gradient} and {@code weight * loss_b / B} into {@code perExample[b]}.
     */
    static double accumulate(String loss, ContinuousForm form, HeadOutput output, Targets targets, double weight,
                             HeadOutput gradient, double[] perExample) {
        Checks.finite("weight", weight);
        String kind = TokenBatch.kind(output);
        Checks.require(targets instanceof Targets.Values,
                "%s on %s needs Targets.Values, got %s", loss, kind, TokenBatch.kind(targets));
        double[] y = ((Targets.Values) targets).y();
        int b = output.batchSize();
        Checks.require(y.length == b, "targets y must have length B = %d, got %d", b, y.length);
        Checks.notNull("perExample", perExample);
        Checks.require(perExample.length == b, "perExample must have length B = %d, got %d", b, perExample.length);
        Checks.require(gradient != null && gradient.getClass() == output.getClass(),
                "gradient must be %s like the output, got %s", kind, TokenBatch.kind(gradient));
        double scale = weight / b;
        double total = 0;
        if (output instanceof GaussianMixture mix) {
            GaussianMixture grad = (GaussianMixture) gradient;
            Checks.shape("gradient weightLogits", grad.weightLogits(), mix.weightLogits().shape());
            double[][] a = finiteMatrix("weightLogits", mix.weightLogits());
            double[][] mu = finiteMatrix("means", mix.means());
            double[][] s = finiteMatrix("stds", mix.stds());
            for (int i = 0; i < b; i++) {
                for (int m = 0; m < s[i].length; m++) {
                    if (!(s[i][m] > 0)) {
                        throw new IllegalArgumentException(
                                "stds must be > 0 and finite, got " + s[i][m] + " at [" + i + ", " + m + "]");
                    }
                }
            }
            int k = mix.components();
            double[][] ga = new double[b][k];
            double[][] gm = new double[b][k];
            double[][] gs = new double[b][k];
            for (int i = 0; i < b; i++) {
                double l = form.mixture(new Mixture.Parameters(a[i], mu[i], s[i]), y[i], scale,
                        new Mixture.Gradients(ga[i], gm[i], gs[i]));
                perExample[i] += scale * l;
                total += l;
            }
            addInto(grad.weightLogits(), ga);
            addInto(grad.means(), gm);
            addInto(grad.stds(), gs);
        } else if (output instanceof Scalar sc) {
            Scalar grad = (Scalar) gradient;
            Checks.shape("gradient values", grad.values(), sc.values().shape());
            double[] yHat = vector(sc.values());
            Checks.allFinite("values", yHat);
            double[] g = new double[b];
            double[] slope = new double[1];
            for (int i = 0; i < b; i++) {
                double l = form.scalar(yHat[i], y[i], slope);
                g[i] = scale * slope[0];
                perExample[i] += scale * l;
                total += l;
            }
            addInto(grad.values(), g);
        } else {
            throw new IllegalArgumentException(loss + " cannot handle output kind " + kind);
        }
        return scale * total;
    }

    private static boolean contiguous(INDArray a) {
        return a.ordering() == 'c' && (a.length() <= 1 || a.elementWiseStride() == 1)
                && (a.dataType() == org.nd4j.linalg.api.buffer.DataType.FLOAT
                        || a.dataType() == org.nd4j.linalg.api.buffer.DataType.DOUBLE);
    }

    /** {@code [rows][cols]} copy through the host buffer, every element finite. */
    private static double[][] finiteMatrix(String name, INDArray array) {
        double[][] m = Host.matrix(array);
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < m[i].length; j++) {
                if (!Double.isFinite(m[i][j])) {
                    throw new IllegalArgumentException(name + " must be finite everywhere, got " + m[i][j] + " at ["
                            + i + ", " + j + "] (shape " + Arrays.toString(array.shape()) + ")");
                }
            }
        }
        return m;
    }

    private static void addInto(INDArray target, double[][] delta) {
        if (!contiguous(target)) {
            target.addi(Nd4j.createFromArray(delta).castTo(target.dataType()));
            return;
        }
        double[] v = Host.doubles(target);
        int cols = delta.length == 0 ? 0 : delta[0].length;
        for (int i = 0; i < delta.length; i++) {
            for (int j = 0; j < cols; j++) {
                v[i * cols + j] += delta[i][j];
            }
        }
        Host.write(v, target);
    }

    private static double[] vector(INDArray a) {
        if (!contiguous(a)) {
            return a.toDoubleVector();
        }
        return Host.doubles(a);
    }

    private static void addInto(INDArray target, double[] delta) {
        if (!contiguous(target)) {
            target.addi(Nd4j.createFromArray(delta).castTo(target.dataType()));
            return;
        }
        double[] v = Host.doubles(target);
        for (int i = 0; i < delta.length; i++) {
            v[i] += delta[i];
        }
        Host.write(v, target);
    }
}
