package io.regheads.core.nn;

import io.regheads.core.internal.Activations;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Gemm;
import io.regheads.core.internal.Host;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Pre-LayerNorm causal transformer block (GPT-2 layout; non-causal for encoders through the constructor with a
 * {@code causal} flag):
 * <pre>
 *   h = x + Attn(LN1(x))                       [B, T, d]
 *   y = h + W2 act(W1 LN2(h) + b1) + b2         MLP d -> ff -> d, act = GELU (default) or ReLU
 * backward:
 *   dh = dy + LN2'(W1'(act'(W2'(dy))))          (the residual passes dy straight through)
 *   dx = dh + LN1'(Attn'(dh))
 * </pre>
 * Parameters, in {@link #params()} order: {@code name.ln1.gain/bias}, {@code name.attn.qkv.weight/bias}, {@code
 * name.attn.out.weight/bias}, {@code name.ln2.gain/bias}, {@code name.fc1.weight/bias} [d, ff], {@code
 * name.fc2.weight/bias} [ff, d]. The GELU is the {@link GELU.Form#TANH} form (GPT-2's); {@link Activation#RELU} gives
 * the original Transformer's MLP, as the decoder block of the PyTorch reference implementation uses.
 *
 * <p>Inference: {@link #snapshot()} copies the parameters into a {@link Snapshot} whose {@link Snapshot#step} runs
 * one new position of N rows against a key/value cache of their earlier positions, the causal {@link #forward}
 * computed incrementally (a decoder's sampling and tree searches). A block whose inputs after the first position
 * come from a fixed set of rows can look its attention inputs up instead ({@link Snapshot#tabulated}).
 *
 * <p>Thread safety as {@link Linear}.
 */
public final class TransformerBlock implements Layer<TransformerBlock.Cache> {

    /**
     * Block sizes.
     *
     * @param d     model width >= 1
     * @param heads attention heads >= 1, dividing d
     * @param ff    MLP hidden width >= 1
     */
    public record Config(int d, int heads, int ff, Activation activation) {
        /** @throws IllegalArgumentException on a size &lt; 1, heads not dividing d, or a null activation */
        public Config {
            Checks.atLeast("d", d, 1);
            Checks.atLeast("heads", heads, 1);
            Checks.atLeast("ff", ff, 1);
            Checks.require(d % heads == 0, "heads must divide d = %d, got %d", d, heads);
            Checks.notNull("activation", activation);
        }

        /** A GELU block. */
        public Config(int d, int heads, int ff) {
            this(d, heads, ff, Activation.GELU);
        }

        /** The same sizes with another MLP activation. */
        public Config withActivation(Activation a) {
            return new Config(d, heads, ff, a);
        }

        /** The paper's small decoder block: d 32, 1 head, ff 128, GELU (the sizes of the PyTorch reference implementation, which uses ReLU). */
        public static Config small() {
            return new Config(32, 1, 128);
        }

        /** The paper's larger decoder block: d 128, 4 heads; ff 512 = 4 d (the paper states no ff; 4 d as above). */
        public static Config large() {
            return new Config(128, 4, 512);
        }
    }

    /** The MLP's activation. */
    public enum Activation {
        /** {@code 0.5 u (1 + tanh(sqrt(2/pi) (u + 0.044715 u^3)))}, GPT-2's. */
        GELU,
        /** {@code max(u, 0)}, the original Transformer's. */
        RELU
    }

    /**
     * Caches of every sub-layer; {@code residual} is h = x + Attn(LN1 x), {@code output} is y; {@code activation} is
     * a {@link GELU.Cache} or a {@link ReLU.Cache} by the configured activation.
     */
    public record Cache(LayerNorm.Cache ln1, MultiHeadSelfAttention.Cache attn, INDArray residual,
            LayerNorm.Cache ln2, Linear.Cache fc1, Layer.Cache activation, Linear.Cache fc2, INDArray output)
            implements Layer.Cache {}

    private final Config config;
    private final DataType type;
    private final LayerNorm ln1;
    private final MultiHeadSelfAttention attn;
    private final LayerNorm ln2;
    private final Linear fc1;
    private final GELU gelu = new GELU(GELU.Form.TANH);
    private final ReLU relu = new ReLU();
    private final Linear fc2;
    private final List<Param> params;

    /**
     * @param name   parameter name prefix
     * @param kernel attention core (see {@link MultiHeadSelfAttention.Kernel})
     */
    public TransformerBlock(String name, Config config, MultiHeadSelfAttention.Kernel kernel, DataType type,
            UniformRandomProvider rng) {
        this(name, config, kernel, true, type, rng);
    }

    /**
     * As the causal constructor, with the attention's causality chosen: {@code causal = false} gives the
     * bidirectional (encoder) block; see {@link MultiHeadSelfAttention}. Added beside the causal-only constructors;
     * backward compatible.
     *
     * @param name   parameter name prefix
     * @param kernel attention core (see {@link MultiHeadSelfAttention.Kernel})
     * @param causal whether position t attends to u &lt;= t only
     */
    public TransformerBlock(String name, Config config, MultiHeadSelfAttention.Kernel kernel, boolean causal,
            DataType type, UniformRandomProvider rng) {
        Checks.notNull("name", name);
        this.config = Checks.notNull("config", config);
        this.type = Tensors.paramType("type", type);
        Checks.notNull("rng", rng);
        this.ln1 = new LayerNorm(name + ".ln1", config.d(), type);
        this.attn = new MultiHeadSelfAttention(name + ".attn", config.d(), config.heads(), kernel, causal, type, rng);
        this.ln2 = new LayerNorm(name + ".ln2", config.d(), type);
        this.fc1 = new Linear(name + ".fc1", config.d(), config.ff(), type, rng);
        this.fc2 = new Linear(name + ".fc2", config.ff(), config.d(), type, rng);
        List<Param> p = new ArrayList<>();
        p.addAll(ln1.params());
        p.addAll(attn.params());
        p.addAll(ln2.params());
        p.addAll(fc1.params());
        p.addAll(fc2.params());
        this.params = Collections.unmodifiableList(p);
    }

    /** Name prefix {@code block}, {@link MultiHeadSelfAttention.Kernel#AUTO}, seeded. */
    public TransformerBlock(Config config, DataType type, long seed) {
        this("block", config, MultiHeadSelfAttention.Kernel.AUTO, type, Tensors.rng(seed));
    }

    /** {@return the sizes} */
    public Config config() {
        return config;
    }

    /** {@return the layer norm before attention} */
    public LayerNorm ln1() {
        return ln1;
    }

    /** {@return the attention layer} */
    public MultiHeadSelfAttention attention() {
        return attn;
    }

    /** {@return the layer norm before the MLP} */
    public LayerNorm ln2() {
        return ln2;
    }

    /** {@return the MLP's first layer (d to ff)} */
    public Linear fc1() {
        return fc1;
    }

    /** {@return the MLP's second layer (ff to d)} */
    public Linear fc2() {
        return fc2;
    }

    @Override
    public List<Param> params() {
        return params;
    }

    @Override
    public Cache forward(INDArray input, Arena arena) {
        return forward(input, null, arena);
    }

    /**
     * @param input [B, T, d]
     * @param mask  null or an additive attention mask, see {@link MultiHeadSelfAttention#forward(INDArray, INDArray,
     *              Arena)}
     */
    public Cache forward(INDArray input, INDArray mask, Arena arena) {
        Checks.rank("input", input, 3);
        Tensors.rowsOf("input", input, type, config.d(), 3);
        INDArray x = Tensors.contiguous(input);
        LayerNorm.Cache c1 = ln1.forward(x, arena);
        MultiHeadSelfAttention.Cache ca = attn.forward(c1.output(), mask, arena);
        INDArray h = Tensors.add(x, ca.output(), arena.get(type, x.shape())); // [B, T, d]
        LayerNorm.Cache c2 = ln2.forward(h, arena);
        Linear.Cache cf1 = fc1.forward(c2.output(), arena); // [B, T, ff]
        Layer.Cache cg;
        INDArray act;
        if (config.activation() == Activation.RELU) {
            ReLU.Cache cr = relu.forward(cf1.output(), arena);
            cg = cr;
            act = cr.output();
        } else {
            GELU.Cache ce = gelu.forward(cf1.output(), arena);
            cg = ce;
            act = ce.output();
        }
        Linear.Cache cf2 = fc2.forward(act, arena); // [B, T, d]
        INDArray y = Tensors.add(h, cf2.output(), arena.get(type, x.shape()));
        return new Cache(c1, ca, h, c2, cf1, cg, cf2, y);
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        Tensors.sameAs("dOut", dOut, cache.output());
        // y = h + fc2(act(fc1(ln2(h))))
        INDArray d2 = fc2.backward(cache.fc2(), dOut, arena);
        d2 = config.activation() == Activation.RELU ? relu.backward((ReLU.Cache) cache.activation(), d2, arena)
                : gelu.backward((GELU.Cache) cache.activation(), d2, arena);
        d2 = fc1.backward(cache.fc1(), d2, arena);
        d2 = ln2.backward(cache.ln2(), d2, arena);
        INDArray dh = Tensors.add(dOut, d2, arena.get(type, dOut.shape()));
        // h = x + attn(ln1(x))
        INDArray d1 = attn.backward(cache.attn(), dh, arena);
        d1 = ln1.backward(cache.ln1(), d1, arena);
        return Tensors.add(dh, d1, arena.get(type, dOut.shape()));
    }

    /** {@return an immutable copy of the current parameters for the key/value-cached step} */
    public Snapshot snapshot() {
        return new Snapshot(config, type, ln1.snapshot(), attn.snapshot(), ln2.snapshot(), fc1.snapshot(),
                fc2.snapshot());
    }

    @Override
    public String toString() {
        return "TransformerBlock(" + config + ", " + type + ")";
    }

    /**
     * The key/value-cached inference step of the block: {@code x += Attn(LN1 x)}, then {@code x += W2 act(W1 LN2(x)
     * + b1) + b2}, for N rows at one new position, attending to the cached keys and values of their earlier
     * positions. Reference: {@link TransformerBlock#forward} (causal, no mask) at that position;
     * {@code TransformerBlockStepTest} compares the two (to 1e-12 in DOUBLE, 2e-5 in FLOAT), the decoder tests the
     * whole cached decoder with its full forward.
     *
     * <p>Precision. The residual stream x is double for both types. The matrix products run through {@code
     * Gemm} in the parameters' type (see {@link Linear.Snapshot}); layer norms and
     * attention are double loops ({@link LayerNorm.Snapshot}, {@link CachedAttention}). A DOUBLE block applies its
     * activation in double; a FLOAT block keeps the MLP's ff-wide activations in float (LN2 rounded to float into the
     * fc1 product, b1 added in float, the activation by the training layers' float kernels, the fc2 product in
     * float, b2 added in double), so no double copies of the widest arrays are made. The activations are the
     * training kernels themselves ({@code FloatKernels.relu}, {@code DoubleKernels.relu}, the GELU's tanh form).
     *
     * <p>Immutable; thread-safe (the caches passed in are written).
     */
    public static final class Snapshot {
        /** One MLP sublayer form, chosen once by the data type. */
        private interface Mlp {
            void add(double[] x, double[] h, int n);
        }

        private final int d;
        private final int ff;
        private final LayerNorm.Snapshot ln1;
        private final CachedAttention attn;
        private final LayerNorm.Snapshot ln2;
        private final Linear.Snapshot fc1;
        private final Linear.Snapshot fc2;
        private final float[] fc1BiasFloat;
        private final double[] fc2Bias;
        private final BiConsumer<float[], float[]> floatActivation;
        private final BiConsumer<double[], double[]> doubleActivation;
        private final Mlp mlp;

        private Snapshot(Config config, DataType type, LayerNorm.Snapshot ln1, CachedAttention attn,
                LayerNorm.Snapshot ln2, Linear.Snapshot fc1, Linear.Snapshot fc2) {
            this.d = config.d();
            this.ff = config.ff();
            this.ln1 = ln1;
            this.attn = attn;
            this.ln2 = ln2;
            this.fc1 = fc1;
            this.fc2 = fc2;
            this.fc1BiasFloat = fc1.biasAsFloats();
            this.fc2Bias = fc2.bias();
            boolean relu = config.activation() == Activation.RELU;
            this.floatActivation = relu ? FloatKernels::relu : Activations::geluTanh;
            this.doubleActivation = relu ? DoubleKernels::relu : Activations::geluTanh;
            this.mlp = type == DataType.FLOAT ? this::mlpFloat : this::mlpDouble;
        }

        /** {@return a cache for {@link #step}: keys and values of {@code rows} rows, up to {@code positions}} */
        public CachedAttention.KeyValues newCache(int rows, int positions) {
            return attn.newCache(rows, positions);
        }

        /**
         * Runs position {@code pos} of n rows through the block.
         *
         * @param x   {@code [n, d]} the rows' inputs at pos, overwritten with the block's outputs
         * @param n   rows
         * @param pos the position, in {@code [0, T)}; the cache holds positions {@code 0 .. pos-1} of each row
         * @param kv  the rows' cache (from {@link #newCache}); position pos is written
         */
        public void step(double[] x, int n, int pos, CachedAttention.KeyValues kv) {
            double[] h = new double[n * d]; // [N, d] scratch
            ln1.apply(x, n, h);
            attn.add(x, h, n, pos, kv);
            mlp.add(x, h, n);
        }

        /**
         * This block with its attention inputs tabulated for a fixed set of input rows (a decoder's token plus
         * position embeddings): LN1, q, k and the per-head projected values of each row are computed once here.
         *
         * @param inputs {@code [rows, d]} the possible inputs
         * @param rows   their number
         */
        public Tabulated tabulated(double[] inputs, int rows) {
            double[] h = new double[rows * d];
            ln1.apply(inputs, rows, h);
            return new Tabulated(this, attn.table(h, rows));
        }

        /**
         * {@code x += fc2(act(fc1(LN2(x))))} in double; h is scratch {@code [N, d]}.
         */
        private void mlpDouble(double[] x, double[] h, int n) {
            ln2.apply(x, n, h);
            double[] f = fc1.apply(h, n); // [N, ff]
            doubleActivation.accept(f, f);
            double[] g = fc2.apply(f, n); // [N, d]
            for (int i = 0; i < x.length; i++) {
                x[i] += g[i];
            }
        }

        /**
         * The MLP of a FLOAT block with float intermediates: LN2 rounded to float into the fc1 input, the ff-wide
         * activations in float arrays (b1, then the activation into a second array written back into the same native
         * array as the fc2 input).
         */
        private void mlpFloat(double[] x, double[] scratch, int n) { // scratch unused: the float form keeps float rows
            float[] hf = new float[n * d];
            ln2.apply(x, n, hf);
            INDArray xa = Host.create(hf, n, d);
            INDArray fa = Nd4j.create(DataType.FLOAT, n, ff);
            Gemm.gemm(xa, fc1.weight(), fa, false, false, 1.0, 0.0);
            float[] f = new float[n * ff];
            Host.read(fa, f);
            for (int r = 0; r < n; r++) {
                int o = r * ff;
                for (int j = 0; j < ff; j++) {
                    f[o + j] += fc1BiasFloat[j];
                }
            }
            float[] act = new float[f.length];
            floatActivation.accept(f, act);
            Host.write(act, fa);
            INDArray ya = Nd4j.create(DataType.FLOAT, n, d);
            Gemm.gemm(fa, fc2.weight(), ya, false, false, 1.0, 0.0);
            Host.read(ya, hf);
            for (int r = 0; r < n; r++) {
                int o = r * d;
                for (int j = 0; j < d; j++) {
                    x[o + j] += hf[o + j] + fc2Bias[j];
                }
            }
            xa.close();
            fa.close();
            ya.close();
        }
    }

    /**
     * A {@link Snapshot} whose attention inputs after the first position are rows of a table ({@link
     * Snapshot#tabulated}): at the first position the rows' own inputs are normalised and projected as in {@link
     * Snapshot#step}; at later positions the input of row r is table row {@code tableRows[r]}, so LN1, the qkv
     * product and the output projection are looked up. Its cache holds per-head projected values ({@link
     * CachedAttention}'s projected form). The same function as {@link Snapshot#step} on the table's input rows, to
     * rounding. Immutable; thread-safe (the caches passed in are written).
     */
    public static final class Tabulated {
        private final Snapshot block;
        private final CachedAttention.Table table;

        private Tabulated(Snapshot block, CachedAttention.Table table) {
            this.block = block;
            this.table = table;
        }

        /** {@return a cache for {@link #step}: keys and per-head projected values} */
        public CachedAttention.KeyValues newCache(int rows, int positions) {
            return block.attn.newProjectedCache(rows, positions);
        }

        /**
         * Runs position {@code pos} of n rows through the block.
         *
         * @param x         {@code [n, d]} the rows' inputs at pos, overwritten with the block's outputs
         * @param n         rows
         * @param pos       the position; the cache holds positions {@code 0 .. pos-1}
         * @param tableRows null: x holds row-specific inputs (a first position); else {@code [n]}, the table row
         *                  equal to each row's input
         * @param kv        the rows' cache (from {@link #newCache}); position pos is written
         */
        public void step(double[] x, int n, int pos, int[] tableRows, CachedAttention.KeyValues kv) {
            if (tableRows == null) {
                double[] h = new double[n * block.d];
                block.ln1.apply(x, n, h);
                block.attn.addProjected(x, h, n, pos, kv);
            } else {
                block.attn.addProjected(x, table, tableRows, n, pos, kv);
            }
            block.mlp.add(x, new double[n * block.d], n);
        }
    }
}
