package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Layer normalisation over the last dimension (Ba et al. 2016; PyTorch {@code nn.LayerNorm(d)}):
 * <pre>
 *   mu = mean(x),  var = mean((x - mu)^2)  (biased),  r = 1 / sqrt(var + 1e-5)
 *   xhat = (x - mu) r,   y = gain * xhat + bias
 * backward:
 *   dgain += sum_rows dy * xhat,   dbias += sum_rows dy
 *   dx = r (g - mean(g) - xhat mean(g * xhat)),   g = dy * gain
 * </pre>
 * Shapes: input {@code [..., d]} (rank >= 1), gain and bias {@code [d]} (initialised to 1 and 0), output like the
 * input. Epsilon is 1e-5 as in PyTorch, so constant rows map to {@code bias} instead of NaN (ND4J's own op has no
 * epsilon). A plain-Java kernel (statistics accumulated in double also for FLOAT data): at d &lt;= 64 it is faster
 * than ND4J's op, and its backward is several times faster.
 *
 * <p>Example (d = 2, gain 1, bias 0): x = [1, 3] gives mu = 2, var = 1, y = [-1, 1] / sqrt(1 + 1e-5).
 *
 * <p>Inference: {@link #snapshot()} copies the parameters into a {@link Snapshot}, the form the key/value-cached
 * step of {@link TransformerBlock.Snapshot} and the decoder's final layer norm use.
 *
 * <p>Inputs are not scanned for NaN (they propagate). Thread safety as {@link Linear}.
 */
public final class LayerNorm implements Layer<LayerNorm.Cache> {

    /** Epsilon added to the variance. */
    public static final double EPSILON = 1e-5;

    /**
     * @param input  the forward input (contiguous) [..., d]
     * @param mean   per-row mean [N]
     * @param rstd   per-row 1 / sqrt(var + eps) [N]
     * @param output [..., d]
     */
    public record Cache(INDArray input, INDArray mean, INDArray rstd, INDArray output) implements Layer.Cache {}

    private final int d;
    private final DataType type;
    private final Param gain;
    private final Param bias;

    /**
     * @param name prefix of the parameter names ({@code name.gain}, {@code name.bias})
     * @param d    normalised width, >= 1
     */
    public LayerNorm(String name, int d, DataType type) {
        Checks.notNull("name", name);
        this.d = Checks.atLeast("d", d, 1);
        this.type = Tensors.paramType("type", type);
        this.gain = new Param(name + ".gain", Tensors.filled(1.0, type, d));
        this.bias = new Param(name + ".bias", Tensors.filled(0.0, type, d));
    }

    /** Parameters named {@code ln.gain}, {@code ln.bias}. */
    public LayerNorm(int d, DataType type) {
        this("ln", d, type);
    }

    /** {@return the normalised width d} */
    public int width() {
        return d;
    }

    /** [d], initially ones. */
    public Param gain() {
        return gain;
    }

    /** [d], initially zeros. */
    public Param bias() {
        return bias;
    }

    @Override
    public List<Param> params() {
        return List.of(gain, bias);
    }

    /** @throws IllegalArgumentException on a wrong last dimension, data type, or an empty input */
    @Override
    public Cache forward(INDArray input, Arena arena) {
        int n = Math.toIntExact(Tensors.rowsOf("input", input, type, d, 1));
        INDArray x = Tensors.contiguous(input);
        INDArray y = arena.get(type, x.shape());
        INDArray mean = arena.get(type, n);
        INDArray rstd = arena.get(type, n);
        if (type == DataType.FLOAT) {
            float[] ya = arena.floats(n * d);
            float[] ma = arena.floats(n);
            float[] ra = arena.floats(n);
            FloatKernels.layerNorm(arena.floatsOf(x), arena.floatsOf(gain.value()),
                    arena.floatsOf(bias.value()), ya, ma, ra, d, EPSILON);
            Host.write(ya, y);
            Host.write(ma, mean);
            Host.write(ra, rstd);
        } else {
            double[] ya = arena.doubles(n * d);
            double[] ma = arena.doubles(n);
            double[] ra = arena.doubles(n);
            DoubleKernels.layerNorm(arena.doublesOf(x), arena.doublesOf(gain.value()),
                    arena.doublesOf(bias.value()), ya, ma, ra, d, EPSILON);
            Host.write(ya, y);
            Host.write(ma, mean);
            Host.write(ra, rstd);
        }
        return new Cache(x, mean, rstd, y);
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray dy = Tensors.contiguous(dOut);
        int n = Math.toIntExact(cache.mean().length());
        INDArray dx = arena.get(type, dy.shape());
        double[] dGain = arena.doubles(d);
        double[] dBias = arena.doubles(d);
        java.util.Arrays.fill(dGain, 0);
        java.util.Arrays.fill(dBias, 0);
        if (type == DataType.FLOAT) {
            float[] dxa = arena.floats(n * d);
            FloatKernels.layerNormBackward(arena.floatsOf(cache.input()), arena.floatsOf(cache.mean()),
                    arena.floatsOf(cache.rstd()), arena.floatsOf(gain.value()), arena.floatsOf(dy), dxa,
                    dGain, dBias, d);
            Host.write(dxa, dx);
        } else {
            double[] dxa = arena.doubles(n * d);
            DoubleKernels.layerNormBackward(arena.doublesOf(cache.input()), arena.doublesOf(cache.mean()),
                    arena.doublesOf(cache.rstd()), arena.doublesOf(gain.value()), arena.doublesOf(dy),
                    dxa, dGain, dBias, d);
            Host.write(dxa, dx);
        }
        double[] dgv = arena.doublesOf(gain.grad());
        double[] dbv = arena.doublesOf(bias.grad());
        for (int j = 0; j < d; j++) {
            dgv[j] += dGain[j];
            dbv[j] += dBias[j];
        }
        Host.write(dgv, gain.grad());
        Host.write(dbv, bias.grad());
        return dx;
    }

    /** {@return an immutable copy of the current parameters for inference} */
    public Snapshot snapshot() {
        return new Snapshot(Host.doubles(gain.value()), Host.doubles(bias.value()));
    }

    @Override
    public String toString() {
        return "LayerNorm(" + d + ", eps " + EPSILON + ", " + type + ")";
    }

    /**
     * The layer norm of the key/value-cached inference step, over rows of a residual stream held in double (for FLOAT
     * and DOUBLE models alike): the double training kernel of {@link LayerNorm#forward} (the same sums, formula and
     * epsilon) on the double residual, so a DOUBLE model's step and full forward normalise alike; the float form is
     * the double result rounded once to float (a FLOAT model's full forward normalises the float-rounded residual in
     * float, so the two agree to rounding, which the decoder tests check).
     *
     * <p>Shapes: {@code x [rows, d]} row-major, {@code y} the same. Immutable (private copies of gain and bias [d]);
     * thread-safe.
     */
    public static final class Snapshot {
        private final double[] gain; // [d]
        private final double[] bias; // [d]

        private Snapshot(double[] gain, double[] bias) {
            this.gain = gain;
            this.bias = bias;
        }

        /** {@return the normalised width d} */
        public int width() {
            return gain.length;
        }

        /**
         * {@code y = (x - mean) / sqrt(var + eps) * gain + bias} per row.
         *
         * @param x    {@code [rows, d]}
         * @param rows number of rows to normalise
         * @param y    {@code [rows, d]} output (may not alias x)
         */
        public void apply(double[] x, int rows, double[] y) {
            DoubleKernels.layerNorm(x, rows, gain, bias, y, null, null, gain.length, EPSILON);
        }

        /** As {@link #apply(double[], int, double[])}, each output rounded to float (the input of a float gemm). */
        public void apply(double[] x, int rows, float[] y) {
            int n = rows * gain.length;
            double[] yd = new double[n];
            apply(x, rows, yd);
            for (int i = 0; i < n; i++) {
                y[i] = (float) yd[i];
            }
        }
    }
}
