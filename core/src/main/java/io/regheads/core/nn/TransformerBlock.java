package io.regheads.core.nn;

import io.regheads.core.internal.Checks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

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

    @Override
    public String toString() {
        return "TransformerBlock(" + config + ", " + type + ")";
    }
}
