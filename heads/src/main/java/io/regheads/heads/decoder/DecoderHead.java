package io.regheads.heads.decoder;

import io.regheads.core.head.Decoding;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Embedding;
import io.regheads.core.nn.LayerNorm;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.MultiHeadSelfAttention;
import io.regheads.core.nn.Param;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.token.NumberTokenizer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Transformer decoder head over any {@link NumberTokenizer} (the decoder of Song and Bahri, "Decoding-based
 * Regression", arXiv:2501.19383):
 * <pre>
 *   x[b, 0]   = phi[b] Win + bin + pos[0]                       phi [B, D] -> [B, d]
 *   x[b, t]   = emb[token[b, t-1]] + pos[t]        t = 1..T-1   (teacher forcing on the target tokens)
 *   x         = block_L(... block_1(x))                          pre-LN causal blocks, [B, T, d]
 *   logits    = LN_f(x) Wout + bout                              [B, T, V]
 *   mask[b,t] = tokenizer.allowed(t, token[b, 0..t-1])           [B, T, V], 1 allowed / 0 masked
 *               (null when tokenizer.everySequenceValid(), e.g. normalized digits)
 * </pre>
 * The output is {@link TokenLogits} with the tokenizer's token values, its place values ({@link
 * NumberTokenizer#placeValues}: number-level and place-weighted NTL, and NTL on the mantissa digits only of
 * unnormalized tokens) and the mask, so every token loss (CE,
 * CE + lambda NTL-WAS, GCE, place-weighted NTL) trains it under the same masked softmax that scoring and sampling
 * use ({@link DecoderDistribution}, {@link DecoderState}).
 *
 * <p>Parameters, in order: {@code decoder.in.weight [D, d]/bias}, {@code decoder.token.weight [V, d]}, {@code
 * decoder.position.weight [T, d]}, the blocks' parameters ({@code decoder.block<i>.*}), {@code
 * decoder.lnf.gain/bias}, {@code decoder.out.weight [d, V]/bias}.
 *
 * <p>Thread safety: concurrent forward passes with separate arenas are safe; backward writes gradients.
 */
public final class DecoderHead implements RegressionHead<DecoderHead.Cache> {

    /**
     * What backward needs from one teacher-forced pass (immutable; callers pass it back unchanged).
     *
     * @param batch    B
     * @param tokens   the target tokens {@code [B * T]} (a private copy)
     * @param in       {@code phi Win + bin}, {@code [B, d]}
     * @param token    the token embeddings of positions 1..T-1, {@code [B, T-1, d]} (null when T = 1)
     * @param position the position embeddings, {@code [B, T, d]}
     * @param blocks   one cache per transformer block
     * @param lnf      the final layer norm
     * @param out      the output projection, logits {@code [B, T, V]}
     */
    public record Cache(int batch, int[] tokens, Linear.Cache in, Embedding.Cache token, Embedding.Cache position,
            List<TransformerBlock.Cache> blocks, LayerNorm.Cache lnf, Linear.Cache out) {}

    private final NumberTokenizer tokenizer;
    private final int inputWidth;
    private final TransformerBlock.Config block;
    private final int layers;
    private final long seed;
    private final DataType type;
    private final int t;
    private final int v;
    private final int d;
    private final double[] tokenValues;
    private final double[] places; // [T] or null
    private final Linear in;
    private final Embedding token;
    private final Embedding position;
    private final List<TransformerBlock> blocks;
    private final LayerNorm lnf;
    private final Linear out;
    private final List<Param> params;

    /**
     * A fresh head. A model builds it from its spec ({@link DecoderSpec}, {@link UnnormalizedDecoderSpec}), which
     * saves these settings; code that decodes with another tokenizer (a Hamming or repetition code) calls this
     * constructor directly.
     *
     * <p>Example: {@code new DecoderHead(NormalizedTokenizer.of(10, 4), 64, TransformerBlock.Config.small(), 1, 7,
     * DataType.FLOAT)} has the sizes of the PyTorch reference implementation's decoder (1 layer, d = 32, 1 head,
     * ff = 128, here with GELU) over 4 decimal digits, for 64 features.
     *
     * @param tokenizer  how y is spelled (T = {@code tokenizer.sequenceLength()} >= 1, V = {@code vocabularySize()})
     * @param inputWidth D, the width of phi, >= 1
     * @param block      width, heads, MLP width and activation of every block
     * @param layers     number of blocks, >= 1
     * @param seed       initialisation seed
     * @param type       FLOAT or DOUBLE
     * @throws IllegalArgumentException on a null tokenizer or block, a size &lt; 1, or an unsupported type
     */
    public DecoderHead(NumberTokenizer tokenizer, int inputWidth, TransformerBlock.Config block, int layers, long seed,
            DataType type) {
        this.tokenizer = Checks.notNull("tokenizer", tokenizer);
        this.block = Checks.notNull("block", block);
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.layers = Checks.atLeast("layers", layers, 1);
        Checks.atLeast("tokenizer.sequenceLength()", tokenizer.sequenceLength(), 1);
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE, "type must be FLOAT or DOUBLE, got %s", type);
        this.seed = seed;
        this.type = type;
        this.t = tokenizer.sequenceLength();
        this.v = tokenizer.vocabularySize();
        this.d = block.d();
        this.tokenValues = tokenizer.tokenValues();
        this.places = tokenizer.placeValues();
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        this.in = new Linear("decoder.in", inputWidth, d, type, rng);
        this.token = new Embedding("decoder.token", v, d, type, rng);
        this.position = new Embedding("decoder.position", t, d, type, rng);
        List<TransformerBlock> bl = new ArrayList<>();
        for (int i = 0; i < layers; i++) {
            bl.add(new TransformerBlock("decoder.block" + i, block, MultiHeadSelfAttention.Kernel.AUTO, type, rng));
        }
        this.blocks = Collections.unmodifiableList(bl);
        this.lnf = new LayerNorm("decoder.lnf", d, type);
        this.out = new Linear("decoder.out", d, v, type, rng);
        List<Param> p = new ArrayList<>();
        p.addAll(in.params());
        p.addAll(token.params());
        p.addAll(position.params());
        blocks.forEach(b -> p.addAll(b.params()));
        p.addAll(lnf.params());
        p.addAll(out.params());
        this.params = Collections.unmodifiableList(p);
    }

    /** The paper's small decoder: 1 layer of {@link TransformerBlock.Config#small()} (32 units, 1 head, ff 128). */
    public static DecoderHead small(NumberTokenizer tokenizer, int inputWidth, long seed, DataType type) {
        return new DecoderHead(tokenizer, inputWidth, TransformerBlock.Config.small(), 1, seed, type);
    }

    /** The paper's larger decoder: 3 layers of {@link TransformerBlock.Config#large()} (128 units, 4 heads, ff 512). */
    public static DecoderHead large(NumberTokenizer tokenizer, int inputWidth, long seed, DataType type) {
        return new DecoderHead(tokenizer, inputWidth, TransformerBlock.Config.large(), 3, seed, type);
    }

    /** {@return the sizes of every block} */
    public TransformerBlock.Config block() {
        return block;
    }

    /** {@return the number of blocks} */
    public int layers() {
        return layers;
    }

    /** {@return the initialisation seed} */
    public long seed() {
        return seed;
    }

    /** {@return the tokenizer that spells y} */
    public NumberTokenizer tokenizer() {
        return tokenizer;
    }

    /** {@return the parameters' data type} */
    public DataType dataType() {
        return type;
    }

    Linear in() {
        return in;
    }

    Embedding token() {
        return token;
    }

    Embedding position() {
        return position;
    }

    List<TransformerBlock> blocks() {
        return blocks;
    }

    LayerNorm lnf() {
        return lnf;
    }

    Linear out() {
        return out;
    }

    double[] tokenValuesShared() {
        return tokenValues;
    }

    @Override
    public int inputWidth() {
        return inputWidth;
    }

    @Override
    public List<Param> params() {
        return params;
    }

    /**
     * The tokens of each label, {@code [B * T]} row-major; values null (each position's label value is its token's
     * value).
     *
     * <p>NaN and +-Infinity are labels too when the tokenizer spells them ({@link NumberTokenizer#hasSpecialTokens()},
     * e.g. sign-exponent-mantissa tokens with special tokens: {@code <nan> + 0..0 0..0}); the model then learns
     * P(NaN), P(+-Inf) by cross-entropy like any other sequence (number-token losses skip them: the special token has no value and the forced zeros after it
     * carry no loss).
     *
     * @throws IllegalArgumentException if y is null or empty, or a label is outside the tokenizer's domain (e.g.
     *                                  NaN without special tokens; the tokenizer's message names the value)
     */
    @Override
    public Targets targets(double[] y) {
        Checks.notNull("y", y);
        Checks.require(y.length > 0, "y must not be empty, got length 0");
        int[] tokens = new int[y.length * t];
        for (int i = 0; i < y.length; i++) {
            System.arraycopy(tokenizer.encode(y[i]), 0, tokens, i * t, t);
        }
        return new Targets.Tokens(tokens, null, y.length);
    }

    /**
     * Teacher-forced pass on the target tokens.
     *
     * @param phi     {@code [B, D]}
     * @param targets {@link Targets.Tokens} with T tokens per row (required: teacher forcing)
     * @throws IllegalArgumentException on missing or mismatched targets, a wrong phi shape, or an invalid token
     */
    @Override
    public Forward<Cache> forward(INDArray phi, Targets targets, Arena arena) {
        Checks.require(targets instanceof Targets.Tokens, "targets must be Targets.Tokens (teacher forcing), got %s",
                targets == null ? "null" : targets.getClass().getSimpleName());
        Checks.rows("phi", phi, "D", inputWidth());
        Targets.Tokens tt = (Targets.Tokens) targets;
        int b = Math.toIntExact(phi.size(0));
        Checks.require(tt.batchSize() == b && tt.positions() == t,
                "targets must have batch %d and %d positions, got batch %d and %d positions", b, t, tt.batchSize(),
                tt.positions());
        int[] tokens = tt.tokens();
        for (int i = 0; i < tokens.length; i++) {
            Checks.require(tokens[i] >= 0 && tokens[i] < v, "target tokens must be in [0, %d), got %d at index %d", v,
                    tokens[i], i);
        }
        Linear.Cache ci = in.forward(phi, arena); // [B, d]
        int[] posIds = new int[b * t];
        for (int i = 0; i < posIds.length; i++) {
            posIds[i] = i % t;
        }
        Embedding.Cache cp = position.forward(posIds, b, arena); // [B, T, d]
        Embedding.Cache ct = null;
        if (t > 1) {
            int[] prev = new int[b * (t - 1)];
            for (int r = 0; r < b; r++) {
                System.arraycopy(tokens, r * t, prev, r * (t - 1), t - 1);
            }
            ct = token.forward(prev, b, arena); // [B, T-1, d]
        }
        double[] xs = Host.doubles(cp.output()); // [B, T, d]: pos, then + input
        double[] xi = Host.doubles(ci.output());
        double[] xt = ct == null ? null : Host.doubles(ct.output());
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < d; j++) {
                xs[(r * t) * d + j] += xi[r * d + j];
            }
            for (int p = 1; p < t; p++) {
                int dst = (r * t + p) * d;
                int src = (r * (t - 1) + p - 1) * d;
                for (int j = 0; j < d; j++) {
                    xs[dst + j] += xt[src + j];
                }
            }
        }
        INDArray x = arena.get(type, b, t, d);
        Host.write(xs, x);
        List<TransformerBlock.Cache> cb = new ArrayList<>(blocks.size());
        for (TransformerBlock block : blocks) {
            TransformerBlock.Cache c = block.forward(x, arena);
            cb.add(c);
            x = c.output();
        }
        LayerNorm.Cache cl = lnf.forward(x, arena);
        Linear.Cache co = out.forward(cl.output(), arena); // [B, T, V]
        INDArray mask = null; // every token allowed everywhere (e.g. normalized digits): no mask needed
        if (!tokenizer.everySequenceValid()) {
            mask = arena.get(type, b, t, v);
            Host.write(masks(tokens, b), mask);
        }
        return new Forward<>(new TokenLogits(co.output(), tokenValues, mask, places),
                new Cache(b, tokens.clone(), ci, ct, cp, cb, cl, co));
    }

    /** {@code [B * T * V]}: 1 where {@code tokenizer.allowed(t, tokens[b, 0..t-1])}, else 0. */
    double[] masks(int[] tokens, int b) {
        double[] m = new double[b * t * v];
        int[] prefix = new int[t];
        for (int r = 0; r < b; r++) {
            System.arraycopy(tokens, r * t, prefix, 0, t);
            for (int p = 0; p < t; p++) {
                boolean[] a = tokenizer.allowed(p, prefix);
                int o = (r * t + p) * v;
                for (int k = 0; k < v; k++) {
                    m[o + k] = a[k] ? 1 : 0;
                }
            }
        }
        return m;
    }

    /** @return {@code dPhi [B, D]}; adds every parameter gradient */
    @Override
    public INDArray backward(Forward<Cache> forward, HeadOutput dOutput, Arena arena) {
        Checks.require(dOutput instanceof TokenLogits, "dOutput must be TokenLogits, got %s",
                dOutput == null ? "null" : dOutput.getClass().getSimpleName());
        Cache c = Checks.notNull("forward.cache", forward.cache());
        int b = c.batch();
        Checks.shape("dOutput logits", ((TokenLogits) dOutput).logits(), b, t, v);
        // logits = LN_f(x) Wout + bout
        INDArray dx = out.backward(c.out(), ((TokenLogits) dOutput).logits(), arena);
        dx = lnf.backward(c.lnf(), dx, arena);
        for (int i = blocks.size() - 1; i >= 0; i--) {
            dx = blocks.get(i).backward(c.blocks().get(i), dx, arena);
        }
        // x[b, t] = pos[t] + (t == 0 ? phi Win + bin : emb[token[b, t-1]])
        position.backward(c.position(), Host.contiguous(dx, dx.dataType()));
        double[] dxs = Host.doubles(dx); // [B, T, d]
        double[] dIn = new double[b * d];
        double[] dTok = t > 1 ? new double[b * (t - 1) * d] : null;
        for (int r = 0; r < b; r++) {
            System.arraycopy(dxs, r * t * d, dIn, r * d, d);
            if (dTok != null) {
                System.arraycopy(dxs, (r * t + 1) * d, dTok, r * (t - 1) * d, (t - 1) * d);
            }
        }
        if (dTok != null) {
            INDArray dt = arena.get(type, b, t - 1, d);
            Host.write(dTok, dt);
            token.backward(c.token(), dt);
        }
        INDArray di = arena.get(type, b, d);
        Host.write(dIn, di);
        return in.backward(c.in(), di, arena);
    }

    /**
     * The predictive distributions for rows of phi, from a snapshot of the current parameters (computed in double
     * precision).
     *
     * @param phi {@code [B, D]}, finite
     * @throws IllegalArgumentException if phi is not {@code [B, D]} or has a non-finite value (naming the row)
     */
    @Override
    public DecoderDistribution distribution(INDArray phi) {
        return new DecoderDistribution(this, phi, DecoderDistribution.Options.defaults());
    }

    /**
     * Point predictions: {@link DecoderDistribution#point} with {@link Decoding#of(PointEstimate)}'s settings:
     * GREEDY is {@link DecoderSampling#greedy()} (the most probable token at each position; T decoder steps), MEAN the
     * certified mean, MEDIAN the tree-walk median, MODE the density mode by a beam of {@link
     * DecoderDistribution.Options#beamWidth()}, AUTO the certified mean where it is finite and certified, else the
     * median; the sample-based ones draw {@link Decoding#DEFAULT_SAMPLES} plain samples.
     *
     * @param phi      {@code [B, D]}
     * @param estimate which summary
     * @return {@code [B]} in the tokenizer's units
     * @throws IllegalArgumentException if estimate is null or phi is invalid
     */
    @Override
    public double[] point(INDArray phi, PointEstimate estimate) {
        Checks.notNull("estimate", estimate);
        return point(phi, Decoding.of(estimate));
    }

    /**
     * Point predictions decoded as {@code decoding} says ({@link DecoderDistribution#point}): temperature, top-k and
     * top-p act at every position of the sample-based estimates (SAMPLE_MEAN, SAMPLE_MEDIAN).
     *
     * @param phi      {@code [B, D]}
     * @param decoding the summary and its sampling settings
     * @return {@code [B]} in the tokenizer's units
     * @throws IllegalArgumentException if decoding is null or phi is invalid
     */
    @Override
    public double[] point(INDArray phi, Decoding decoding) {
        Checks.notNull("decoding", decoding);
        return distribution(phi).point(decoding);
    }

    /** @return true: the prediction is generated token by token, so sampling filters apply */
    @Override
    public boolean generatesTokens() {
        return true;
    }

    /** As {@link #distribution(INDArray)} with explicit inference options. */
    public DecoderDistribution distribution(INDArray phi, DecoderDistribution.Options options) {
        return new DecoderDistribution(this, phi, options);
    }

    @Override
    public String toString() {
        return "DecoderHead(" + tokenizer + ", D " + inputWidth + ", " + block + " x " + layers + ", seed " + seed
                + ", " + type + ")";
    }
}
