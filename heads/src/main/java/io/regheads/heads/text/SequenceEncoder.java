package io.regheads.heads.text;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Embedding;
import io.regheads.core.nn.LayerNorm;
import io.regheads.core.nn.MultiHeadSelfAttention;
import io.regheads.core.nn.Param;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.heads.text.SequenceEncoderConfig.NumberEmbedding;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Transformer encoder for token sequences that contain numbers, producing features phi for any regression head
 * (Golkar et al., "xVal: A Continuous Number Encoding for Large Language Models", arXiv:2310.02989, section 2.1):
 * <pre>
 *   h0[b, t] = E[tok] + P[t]                                  ordinary token (and every token for NONE)
 *   h0[b, t] = x[b, t] * E[NUM] + P[t]                        [NUM] with value x, XVAL
 *   h0[b, t] = sum_{i=-k..k} tanh(x 10^i) M[i + k] + P[t]     [NUM], XVAL_MULTISCALE
 *   mask[b, t, u] = 0 if u &lt; len[b] else -inf                 padding mask, [B, T, T]
 *   h = block_L(... block_1(h0, mask), mask)                 pre-LN, NON-causal attention, [B, T, d]
 *   phi[b] = mean_{t &lt; len[b]} LN_f(h)[b, t]                  [B, d]
 * </pre>
 * The position embedding is added <em>after</em> the scaling, so the first layer norm, which sees {@code x e + p},
 * keeps the magnitude of x: {@code LN(x e)} alone would be {@code sign(x) LN(e)}. For small |x| the normalised row
 * is affine in x to first order, for large |x| it saturates towards {@code sign(x) LN(e)} (hence the paper's
 * effective input range of a few units: scale the numbers accordingly). Values stay in the parameters' float type
 * (float32 or float64; never float16 as in the reference code).
 *
 * <p>Backward: {@code dphi} is spread as {@code dphi / len} over the real rows, through {@code LN_f} and the blocks
 * to {@code dh0}; then {@code dP[t] += dh0}, {@code dE[tok] += dh0} (ordinary), {@code dE[NUM] += x dh0} (XVAL),
 * {@code dM[i + k] += tanh(x 10^i) dh0} (multi-scale). Padded positions never influence phi (their columns are
 * masked and they are left out of the mean), so their gradients are exactly zero.
 *
 * <p>Parameters, in order: {@code encoder.token.weight [V, d]}, {@code encoder.position.weight [L, d]}, {@code
 * encoder.num.weight [2k + 1, d]} (multi-scale only), the blocks' ({@code encoder.block<i>.*}), {@code
 * encoder.lnf.gain/bias}. Embeddings are initialised N(0, 1) (PyTorch), the blocks as {@link TransformerBlock}.
 *
 * <p>Thread safety: concurrent forward passes with separate arenas are safe; backward writes gradients.
 */
public final class SequenceEncoder {

    /** Everything backward needs; {@code phi} is the output {@code [B, d]}. */
    public record Cache(SequenceBatch batch, Embedding.Cache tokens, Embedding.Cache positions, INDArray embedded,
            INDArray mask, List<TransformerBlock.Cache> blocks, LayerNorm.Cache lnf, INDArray phi) {}

    private final SequenceEncoderConfig config;
    private final DataType type;
    private final int d;
    private final Embedding token;
    private final Embedding position;
    private final Param num; // [2k + 1, d], multi-scale only
    private final List<TransformerBlock> blocks;
    private final LayerNorm lnf;
    private final List<Param> params;

    /**
     * @param type FLOAT or DOUBLE
     * @throws IllegalArgumentException on a null config or another type
     */
    public SequenceEncoder(SequenceEncoderConfig config, DataType type) {
        this.config = Checks.notNull("config", config);
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE, "type must be FLOAT or DOUBLE, got %s",
                type);
        this.type = type;
        this.d = config.width();
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed());
        this.token = new Embedding("encoder.token", config.vocabulary(), d, type, rng);
        this.position = new Embedding("encoder.position", config.maxLength(), d, type, rng);
        if (config.numbers() == NumberEmbedding.XVAL_MULTISCALE) {
            Embedding m = new Embedding("encoder.num", 2 * config.scales() + 1, d, type, rng);
            this.num = m.weight();
        } else {
            this.num = null;
        }
        List<TransformerBlock> bl = new ArrayList<>();
        for (int i = 0; i < config.layers(); i++) {
            bl.add(new TransformerBlock("encoder.block" + i, config.block(), MultiHeadSelfAttention.Kernel.JAVA,
                    false, type, rng));
        }
        this.blocks = Collections.unmodifiableList(bl);
        this.lnf = new LayerNorm("encoder.lnf", d, type);
        List<Param> p = new ArrayList<>();
        p.addAll(token.params());
        p.addAll(position.params());
        if (num != null) {
            p.add(num);
        }
        blocks.forEach(b -> p.addAll(b.params()));
        p.addAll(lnf.params());
        this.params = Collections.unmodifiableList(p);
    }

    /** {@return the sizes} */
    public SequenceEncoderConfig config() {
        return config;
    }

    /** {@return the parameters' data type} */
    public DataType dataType() {
        return type;
    }

    /** Width d of phi. */
    public int width() {
        return d;
    }

    /** The blocks, first to last (read access for tests and diagnostics). */
    public List<TransformerBlock> blocks() {
        return blocks;
    }

    /** {@return the parameters in a fixed order} */
    public List<Param> params() {
        return params;
    }

    /**
     * The input embedding h0 alone: {@code [B, T, d]} (see the class formula), in a fresh array.
     *
     * @throws IllegalArgumentException if the batch is longer than maxLength or holds an id outside [0, V)
     */
    public INDArray embed(SequenceBatch batch) {
        Arena arena = Arena.none();
        return embed(batch, arena).embedded();
    }

    private record Embedded(Embedding.Cache tokens, Embedding.Cache positions, INDArray embedded) {}

    private Embedded embed(SequenceBatch batch, Arena arena) {
        Checks.notNull("batch", batch);
        int b = batch.batch();
        int t = batch.length();
        Checks.require(t <= config.maxLength(), "batch length must be <= maxLength %d, got %d", config.maxLength(), t);
        int[] ids = new int[b * t];
        int[] pos = new int[b * t];
        for (int i = 0; i < b; i++) {
            for (int u = 0; u < t; u++) {
                ids[i * t + u] = u < batch.lengthOf(i) ? batch.token(i, u) : SequenceBatch.PAD;
                pos[i * t + u] = u;
            }
        }
        Embedding.Cache te = token.forward(ids, b, arena); // [B, T, d]
        Embedding.Cache pe = position.forward(pos, b, arena); // [B, T, d]
        INDArray h0 = arena.get(type, b, t, d); // [B, T, d]
        double[] e = Host.doubles(te.output()); // [B * T * d]
        double[] p = Host.doubles(pe.output());
        double[] h = new double[b * t * d];
        double[] m = num == null ? null : Host.doubles(num.value()); // [2k + 1, d]
        int k = config.scales();
        double[] c = new double[2 * k + 1];
        for (int i = 0; i < b; i++) {
            for (int u = 0; u < t; u++) {
                int row = (i * t + u) * d;
                boolean isNum = u < batch.lengthOf(i) && ids[i * t + u] == config.numToken();
                double x = batch.number(i, u);
                if (isNum && config.numbers() == NumberEmbedding.XVAL) {
                    for (int j = 0; j < d; j++) {
                        h[row + j] = x * e[row + j] + p[row + j];
                    }
                } else if (isNum && config.numbers() == NumberEmbedding.XVAL_MULTISCALE) {
                    coefficients(x, c);
                    for (int j = 0; j < d; j++) {
                        double s = p[row + j];
                        for (int q = 0; q < c.length; q++) {
                            s += c[q] * m[q * d + j];
                        }
                        h[row + j] = s;
                    }
                } else {
                    for (int j = 0; j < d; j++) {
                        h[row + j] = e[row + j] + p[row + j];
                    }
                }
            }
        }
        Host.write(h, h0);
        return new Embedded(te, pe, h0);
    }

    /** c[i + k] = tanh(x 10^i), i = -k..k. */
    private void coefficients(double x, double[] c) {
        int k = config.scales();
        for (int i = -k; i <= k; i++) {
            c[i + k] = Math.tanh(x * Math.pow(10, i));
        }
    }

    /**
     * Encodes a batch.
     *
     * @return the cache; {@code cache.phi()} is {@code [B, d]}
     * @throws IllegalArgumentException if the batch is longer than maxLength or holds an id outside [0, V)
     */
    public Cache forward(SequenceBatch batch, Arena arena) {
        Embedded em = embed(batch, arena);
        int b = batch.batch();
        int t = batch.length();
        INDArray mask = arena.get(type, b, t, t); // [B, T, T]
        double[] mv = new double[b * t * t];
        for (int i = 0; i < b; i++) {
            int len = batch.lengthOf(i);
            for (int r = 0; r < t; r++) {
                for (int u = 0; u < t; u++) {
                    mv[(i * t + r) * t + u] = u < len ? 0.0 : Double.NEGATIVE_INFINITY;
                }
            }
        }
        Host.write(mv, mask);
        INDArray x = em.embedded();
        List<TransformerBlock.Cache> caches = new ArrayList<>(blocks.size());
        for (TransformerBlock blk : blocks) {
            TransformerBlock.Cache c = blk.forward(x, mask, arena);
            caches.add(c);
            x = c.output();
        }
        LayerNorm.Cache cl = lnf.forward(x, arena); // [B, T, d]
        INDArray phi = arena.get(type, b, d); // [B, d]
        double[] o = Host.doubles(cl.output()); // [B * T * d]
        double[] f = new double[b * d];
        for (int i = 0; i < b; i++) {
            int len = batch.lengthOf(i);
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int u = 0; u < len; u++) {
                    s += o[(i * t + u) * d + j];
                }
                f[i * d + j] = s / len;
            }
        }
        Host.write(f, phi);
        return new Cache(batch, em.tokens(), em.positions(), em.embedded(), mask,
                Collections.unmodifiableList(caches), cl, phi);
    }

    /**
     * Backpropagates {@code dPhi [B, d]}; adds into every parameter's gradient.
     *
     * @throws IllegalArgumentException if dPhi's shape or type differs from {@code cache.phi()}
     */
    public void backward(Cache cache, INDArray dPhi, Arena arena) {
        Checks.notNull("cache", cache);
        Checks.shape("dPhi", dPhi, cache.phi().shape());
        Checks.require(dPhi.dataType() == type, "dPhi must have data type %s, got %s", type, dPhi.dataType());
        SequenceBatch batch = cache.batch();
        int b = batch.batch();
        int t = batch.length();
        // phi[b] = mean_{u < len} o[b, u]
        INDArray dO = arena.get(type, b, t, d); // [B, T, d]
        double[] g = Host.doubles(dPhi); // [B * d]
        double[] dov = new double[b * t * d];
        for (int i = 0; i < b; i++) {
            int len = batch.lengthOf(i);
            for (int u = 0; u < t; u++) {
                for (int j = 0; j < d; j++) {
                    dov[(i * t + u) * d + j] = u < len ? g[i * d + j] / len : 0.0;
                }
            }
        }
        Host.write(dov, dO);
        INDArray dx = lnf.backward(cache.lnf(), dO, arena);
        for (int l = blocks.size() - 1; l >= 0; l--) {
            dx = blocks.get(l).backward(cache.blocks().get(l), dx, arena);
        }
        // h0 = x E[tok] (+ ...) + P[t]
        position.backward(cache.positions(), dx);
        INDArray dE = arena.get(type, b, t, d); // [B, T, d]
        double[] dh = Host.doubles(dx); // [B * T * d]
        double[] de = new double[b * t * d];
        double[] dm = num == null ? null : Host.doubles(num.grad()); // [2k + 1, d], accumulated
        int[] ids = cache.tokens().ids();
        int k = config.scales();
        double[] c = new double[2 * k + 1];
        for (int i = 0; i < b; i++) {
            for (int u = 0; u < t; u++) {
                int row = (i * t + u) * d;
                boolean isNum = u < batch.lengthOf(i) && ids[i * t + u] == config.numToken();
                double x = batch.number(i, u);
                if (isNum && config.numbers() == NumberEmbedding.XVAL) {
                    for (int j = 0; j < d; j++) {
                        de[row + j] = x * dh[row + j];
                    }
                } else if (isNum && config.numbers() == NumberEmbedding.XVAL_MULTISCALE) {
                    coefficients(x, c);
                    for (int j = 0; j < d; j++) {
                        double gj = dh[row + j];
                        de[row + j] = 0.0;
                        for (int q = 0; q < c.length; q++) {
                            dm[q * d + j] += c[q] * gj;
                        }
                    }
                } else {
                    for (int j = 0; j < d; j++) {
                        de[row + j] = dh[row + j];
                    }
                }
            }
        }
        Host.write(de, dE);
        if (dm != null) {
            Host.write(dm, num.grad());
        }
        token.backward(cache.tokens(), dE);
    }

    @Override
    public String toString() {
        return "SequenceEncoder(" + config + ", " + type + ")";
    }
}
