package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.ArrayChecks;
import io.regheads.core.internal.Gemm;
import io.regheads.core.internal.Host;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Affine map over the last dimension: {@code y = x W + b}.
 *
 * <p>Shapes: input {@code [..., in]} (rank >= 2, e.g. [B, in] or [B, T, in]), weight {@code [in, out]}, bias
 * {@code [out]}, output {@code [..., out]}. Leading dimensions are flattened to N rows; all matrix products run
 * through {@link Gemm#gemm} (OpenBLAS directly on the CPU backend, else {@code Nd4j.gemm}) into arena buffers,
 * transposes through gemm's flags:
 * <pre>
 *   forward   y  = 1 b (host row copies), then y += x W  (gemm, beta 1)
 *   backward  dW += x^T dy        (gemm transposeA, beta 1: accumulates in place)
 *             db += 1^T dy        (gemm of a ones row with dy, beta 1)
 *             dx  = dy W^T        (gemm transposeB, beta 0)
 * </pre>
 *
 * <p>Initialisation as PyTorch's default {@code nn.Linear}: weight and bias uniform on {@code [-1/sqrt(in),
 * 1/sqrt(in))} (Kaiming-uniform with a = sqrt(5)).
 *
 * <p>Example: in = 2, out = 1, W = [[1], [2]], b = [0.5], x = [[3, 4]] gives y = [[11.5]].
 *
 * <p>Inference: {@link #snapshot()} copies the parameters into a {@link Snapshot}, the form the key/value-cached
 * step of {@link TransformerBlock.Snapshot} and the decoder's projections use.
 *
 * <p>Input values are not scanned for NaN/Inf (hot path; see the package documentation). Thread safety: concurrent
 * forward passes with separate arenas are safe; backward writes the parameters' gradients and must not run
 * concurrently with another backward on the same layer.
 */
public final class Linear implements Layer<Linear.Cache> {

    /**
     * @param inputRows the input as a [N, in] matrix (a view of the caller's array, or a copy if it was not
     *                  contiguous)
     * @param output    [..., out]
     */
    public record Cache(INDArray inputRows, INDArray output) implements Layer.Cache {}

    private final int in;
    private final int out;
    private final DataType type;
    private final Param weight;
    private final Param bias;

    /**
     * @param name prefix of the parameter names ({@code name + ".weight"}, {@code name + ".bias"})
     * @throws IllegalArgumentException if a width is &lt; 1 or the type is not FLOAT/DOUBLE
     */
    public Linear(String name, int in, int out, DataType type, UniformRandomProvider rng) {
        Checks.notNull("name", name);
        this.in = Checks.atLeast("in", in, 1);
        this.out = Checks.atLeast("out", out, 1);
        this.type = Tensors.paramType("type", type);
        Checks.notNull("rng", rng);
        double bound = 1.0 / Math.sqrt(in);
        this.weight = new Param(name + ".weight", Tensors.uniform(rng, bound, type, in, out));
        this.bias = new Param(name + ".bias", Tensors.uniform(rng, bound, type, out));
    }

    /** Parameters named {@code weight} and {@code bias}. */
    public Linear(int in, int out, DataType type, UniformRandomProvider rng) {
        this("linear", in, out, type, rng);
    }

    /** Seeded convenience constructor (XO_RO_SHI_RO_128_PP from {@code seed}). */
    public Linear(int in, int out, DataType type, long seed) {
        this(in, out, type, Tensors.rng(seed));
    }

    /** {@return the input width} */
    public int inputWidth() {
        return in;
    }

    /** {@return the output width} */
    public int outputWidth() {
        return out;
    }

    /** {@return the parameters' data type} */
    public DataType dataType() {
        return type;
    }

    /** [in, out]. */
    public Param weight() {
        return weight;
    }

    /** [out]. */
    public Param bias() {
        return bias;
    }

    @Override
    public List<Param> params() {
        return List.of(weight, bias);
    }

    /**
     * @param input [..., in], rank >= 2, the parameters' data type
     * @throws IllegalArgumentException on a wrong rank, last dimension, data type, or an empty input
     */
    @Override
    public Cache forward(INDArray input, Arena arena) {
        long n = Tensors.rowsOf("input", input, type, in, 2);
        INDArray x = Tensors.rows(input, n, in, arena); // [N, in]
        long[] shape = input.shape().clone();
        shape[shape.length - 1] = out;
        INDArray y = arena.get(type, shape); // [..., out]
        INDArray y2 = shape.length == 2 ? y : arena.view(y, n, out); // [N, out] view
        // y = 1 b (row copies from the host, no ND4J op), then y += x W (gemm with beta 1)
        fillRows(y2, bias.value(), Math.toIntExact(n), arena);
        Gemm.gemm(x, weight.value(), y2, false, false, 1.0, 1.0);
        return new Cache(x, y);
    }

    /**
     * Adds {@code x^T dOut} into the weight gradient and the column sums of {@code dOut} into the bias gradient.
     *
     * @param dOut same shape and type as {@code cache.output()}
     * @return dInput, the forward input's shape [..., in]
     */
    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        return backward(cache, dOut, arena, true);
    }

    /**
     * Accumulates the weight and bias gradients only, skipping {@code dx = dy W^T}: for a first layer, whose input
     * (the data) needs no gradient. Same checks as {@link #backward}.
     */
    public void backwardParams(Cache cache, INDArray dOut, Arena arena) {
        backward(cache, dOut, arena, false);
    }

    private INDArray backward(Cache cache, INDArray dOut, Arena arena, boolean inputGradient) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray x = cache.inputRows(); // [N, in]
        long n = x.size(0);
        INDArray dy = Tensors.rows(dOut, n, out, arena); // [N, out]
        // y = x W  ->  dW += x^T dy
        Gemm.gemm(x, dy, weight.grad(), true, false, 1.0, 1.0);
        // y += 1 b  ->  db += 1^T dy
        INDArray ones = arena.get(type, 1, n);
        fillOnes(ones, Math.toIntExact(n), arena);
        Gemm.gemm(ones, dy, arena.view(bias.grad(), 1, out), false, false, 1.0, 1.0);
        if (!inputGradient) {
            return null;
        }
        // y = x W  ->  dx = dy W^T
        long[] shape = dOut.shape().clone();
        shape[shape.length - 1] = in;
        INDArray dx = arena.get(type, shape);
        Gemm.gemm(dy, weight.value(), shape.length == 2 ? dx : arena.view(dx, n, in), false, true, 1.0, 0.0);
        return dx;
    }

    /**
     * {@code x W + b} for inference, as a host array {@code [N * out]} (row-major): the usual forward pass in the
     * parameters' precision, then every row whose output is not finite recomputed in double precision from host
     * copies of the parameters. A finite float input times finite float weights, summed over {@code in} terms, is
     * finite in double, so for float layers every finite input row gets a finite output; a float row overflows only
     * for inputs around 1e36 and beyond.
     *
     * @param name  the input's name for messages (e.g. {@code "phi"})
     * @param input {@code [N, in]} of the parameters' type, finite
     * @return {@code [N * out]}
     * @throws IllegalArgumentException if input is not {@code [N, in]}, has a non-finite value (the message names
     *                                  its row and column), or a row's output overflows even in double (names the row)
     */
    public double[] inferRows(String name, INDArray input) {
        Checks.rows(name, input, "in", in);
        int n = Math.toIntExact(input.size(0));
        ArrayChecks.finiteRows(name, input);
        double[] x = Host.doubles(input); // [N * in]
        double[] y = Host.doubles(forward(input, Arena.none()).output()); // [N * out]
        double[] w = null;
        for (int r = 0; r < n; r++) {
            int bad = firstNonFinite(y, r * out, out);
            if (bad < 0) {
                continue;
            }
            if (w == null) {
                w = Host.doubles(weight.value()); // [in, out]
            }
            double[] b = Host.doubles(bias.value()); // [out]
            for (int i = 0; i < in; i++) {
                for (int j = 0; j < out; j++) {
                    b[j] += x[r * in + i] * w[i * out + j];
                }
            }
            System.arraycopy(b, 0, y, r * out, out);
            bad = firstNonFinite(y, r * out, out);
            if (bad >= 0) {
                throw new IllegalArgumentException("the output of " + this + " for " + name + " row " + r + " must be "
                        + "finite, got " + y[r * out + bad] + " at column " + bad + " even in double precision");
            }
        }
        return y;
    }

    /**
     * Row {@code row} of {@code x W + b} in double precision from host copies of that input row and of the
     * parameters: what {@link #inferRows} does for a row whose output in the parameters' precision is not finite,
     * for callers that run the forward pass themselves (a prediction that fills its buffers chunk by chunk).
     *
     * @param name  the input's name for messages (e.g. {@code "phi"})
     * @param input {@code [N, in]}, any layout
     * @param row   the row, in {@code [0, N)}
     * @param label the row's number in messages (its index in the caller's whole batch)
     * @return {@code [out]}
     * @throws IllegalArgumentException if input is not {@code [N, in]}, row is out of range, the input row has a
     *                                  non-finite value (naming label and column) or the output overflows even in
     *                                  double (naming label)
     */
    public double[] inferRowInDouble(String name, INDArray input, int row, long label) {
        Checks.rows(name, input, "in", in);
        Checks.require(row >= 0 && row < input.size(0), "row must be in [0, %d), got %d", input.size(0), row);
        double[] x = Host.doubles(input.getRow(row)); // [in]
        for (int i = 0; i < in; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalArgumentException(name + " must be finite, got " + x[i] + " at row " + label
                        + ", column " + i);
            }
        }
        double[] w = Host.doubles(weight.value()); // [in, out]
        double[] y = Host.doubles(bias.value()); // [out]
        for (int i = 0; i < in; i++) {
            for (int j = 0; j < out; j++) {
                y[j] += x[i] * w[i * out + j];
            }
        }
        int bad = firstNonFinite(y, 0, out);
        if (bad >= 0) {
            throw new IllegalArgumentException("the output of " + this + " for " + name + " row " + label + " must be "
                    + "finite, got " + y[bad] + " at column " + bad + " even in double precision");
        }
        return y;
    }

    private static int firstNonFinite(double[] v, int from, int n) {
        for (int j = 0; j < n; j++) {
            if (!Double.isFinite(v[from + j])) {
                return j;
            }
        }
        return -1;
    }

    /** Every row of {@code y2} [n, out] := {@code b} [out], by bulk host copies. */
    private void fillRows(INDArray y2, INDArray b, int n, Arena arena) {
        if (type == DataType.FLOAT) {
            Host.fillRows(arena.floatsOf(b), y2);
        } else {
            Host.fillRows(arena.doublesOf(b), y2);
        }
    }

    private void fillOnes(INDArray ones, int n, Arena arena) {
        if (type == DataType.FLOAT) {
            float[] o = arena.floats(n);
            java.util.Arrays.fill(o, 1f);
            Host.write(o, ones);
        } else {
            double[] o = arena.doubles(n);
            java.util.Arrays.fill(o, 1.0);
            Host.write(o, ones);
        }
    }

    /** {@return an immutable copy of the current parameters for inference} */
    public Snapshot snapshot() {
        return new Snapshot(in, out, type, weight.value().dup('c'), Host.doubles(bias.value()));
    }

    @Override
    public String toString() {
        return "Linear(" + in + " -> " + out + ", " + type + ")";
    }

    /**
     * {@code y = x W + b} for the key/value-cached inference step, over host rows. Reference: {@link Linear#forward}.
     * The product runs through {@link Gemm#gemm} in the parameters' type (a double input is rounded to that type),
     * is read back as doubles, and the bias is added in double; forward starts from the bias and accumulates the
     * product in the parameters' type, so FLOAT results agree to rounding, not bit for bit.
     *
     * <p>Shapes: {@code x [rows, in]} row-major, results {@code [rows, out]}. Immutable (a private c-ordered copy of
     * W, a host copy of b); thread-safe.
     */
    public static final class Snapshot {
        private final int in;
        private final int out;
        private final DataType type;
        private final INDArray weight; // [in, out], c order, never written
        private final double[] bias; // [out]

        private Snapshot(int in, int out, DataType type, INDArray weight, double[] bias) {
            this.in = in;
            this.out = out;
            this.type = type;
            this.weight = weight;
            this.bias = bias;
        }

        /** {@return the output width} */
        public int outputWidth() {
            return out;
        }

        /** The weight copy {@code [in, out]}, for products that keep their own native arrays (do not modify). */
        INDArray weight() {
            return weight;
        }

        /** {@return b as floats (a float sublayer adds it in float, as a float gemm output is)} */
        float[] biasAsFloats() {
            float[] f = new float[out];
            for (int i = 0; i < out; i++) {
                f[i] = (float) bias[i];
            }
            return f;
        }

        /** b {@code [out]} (shared: do not modify). */
        double[] bias() {
            return bias;
        }

        /**
         * {@code x W + b}.
         *
         * @param x    {@code [rows, in]} (its first {@code rows * in} entries)
         * @param rows number of rows
         * @return {@code [rows, out]}
         */
        public double[] apply(double[] x, int rows) {
            double[] y = product(x, rows);
            addBias(y, rows);
            return y;
        }

        /** {@code x W} without the bias, {@code [rows, out]}. */
        public double[] product(double[] x, int rows) {
            INDArray xa = Host.create(x.length == rows * in ? x : java.util.Arrays.copyOf(x, rows * in), type, rows,
                    in);
            INDArray ya = Nd4j.create(type, rows, out);
            Gemm.gemm(xa, weight, ya, false, false, 1.0, 0.0);
            double[] y = Host.doubles(ya);
            xa.close();
            ya.close();
            return y;
        }

        /**
         * {@code x W + b} of a FLOAT layer from float rows: the product in float, read as doubles, the bias added in
         * double (the same numbers as {@link #apply(double[], int)} on x widened to double).
         *
         * @param x    {@code [rows, in]}
         * @param rows number of rows
         * @return {@code [rows, out]}
         */
        public double[] apply(float[] x, int rows) {
            INDArray xa = Host.create(x, rows, in);
            INDArray ya = Nd4j.create(DataType.FLOAT, rows, out);
            Gemm.gemm(xa, weight, ya, false, false, 1.0, 0.0);
            double[] y = Host.doubles(ya);
            addBias(y, rows);
            xa.close();
            ya.close();
            return y;
        }

        private void addBias(double[] y, int rows) {
            for (int r = 0; r < rows; r++) {
                int o = r * out;
                for (int j = 0; j < out; j++) {
                    y[o + j] += bias[j];
                }
            }
        }
    }
}
