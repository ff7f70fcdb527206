package io.regheads.heads.decoder;

import io.regheads.core.internal.Activations;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Gemm;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.GELU;
import io.regheads.core.nn.ReLU;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.token.NumberTokenizer;
import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Key/value-cached incremental decoding of N rows (each a prefix of one input row): every {@link #advance} runs
 * exactly one new position through the network, attending to the cached keys and values of the earlier ones.
 * Computes the same function as {@link DecoderHead#forward} on the same prefix (tested to 1e-9 in double).
 *
 * <p>After {@link #start}, {@link #logits()} holds position 0's logits for every row; {@code advance(tokens)}
 * appends one token per row and computes the next position's logits. {@link #select} copies rows (with their
 * caches) to branch a tree level, a beam or a batch of samples. Matrix products go through {@code Gemm.gemm} in
 * the model's data type over all N rows at once; layer norms, attention and activations are host loops.
 *
 * <p>Shapes: {@code logits [N * V]} row-major; caches {@code [N, T, d]} per layer. Not thread-safe (mutable);
 * the weights snapshot it reads is immutable and shared.
 */
final class DecoderState {

    /** An immutable snapshot of a head's parameters for inference. */
    static final class Weights {
        final NumberTokenizer tokenizer;
        /** True when every token is allowed everywhere ({@link NumberTokenizer#everySequenceValid()}): no masks. */
        final boolean unmasked;
        final DataType type;
        final int t;
        final int v;
        final int d;
        final int heads;
        final int ff;
        /** The blocks' MLP activation is ReLU (else GELU, tanh form). */
        final boolean relu;
        final int inputWidth;
        final INDArray inW;
        final double[] inB;
        final double[] tokE;
        final double[] posE;
        final List<Layer> layers = new ArrayList<>();
        final double[] lnfG;
        final double[] lnfB;
        final INDArray outW;
        final double[] outB;
        /**
         * First-layer tables for positions >= 1, row {@code pos * V + token}: q, k {@code [T*V, d]}, pv
         * {@code [T*V, heads*d]}.
         */
        final double[] tabQ;
        final double[] tabK;
        final double[] tabPV;

        record Layer(double[] ln1G, double[] ln1B, INDArray qkvW, double[] qkvB, INDArray projW, double[] projB,
                double[] ln2G, double[] ln2B, INDArray fc1W, double[] fc1B, INDArray fc2W, double[] fc2B) {
            /** fc1's bias as floats (the float MLP adds it in float, as the training kernel's gemm output is). */
            float[] fc1BF() {
                float[] f = new float[fc1B.length];
                for (int i = 0; i < f.length; i++) {
                    f[i] = (float) fc1B[i];
                }
                return f;
            }
        }

        Weights(DecoderHead h) {
            tokenizer = h.tokenizer();
            unmasked = tokenizer.everySequenceValid();
            type = h.dataType();
            t = tokenizer.sequenceLength();
            v = tokenizer.vocabularySize();
            TransformerBlock.Config bc = h.config().block();
            d = bc.d();
            heads = bc.heads();
            ff = bc.ff();
            relu = bc.activation() == TransformerBlock.Activation.RELU;
            inputWidth = h.inputWidth();
            inW = h.in().weight().value().dup('c');
            inB = Host.doubles(h.in().bias().value());
            tokE = Host.doubles(h.token().weight().value());
            posE = Host.doubles(h.position().weight().value());
            for (TransformerBlock b : h.blocks()) {
                layers.add(new Layer(Host.doubles(b.ln1().gain().value()), Host.doubles(b.ln1().bias().value()),
                        b.attention().qkv().weight().value().dup('c'), Host.doubles(b.attention().qkv().bias().value()),
                        b.attention().out().weight().value().dup('c'), Host.doubles(b.attention().out().bias().value()),
                        Host.doubles(b.ln2().gain().value()), Host.doubles(b.ln2().bias().value()),
                        b.fc1().weight().value().dup('c'), Host.doubles(b.fc1().bias().value()),
                        b.fc2().weight().value().dup('c'), Host.doubles(b.fc2().bias().value())));
            }
            lnfG = Host.doubles(h.lnf().gain().value());
            lnfB = Host.doubles(h.lnf().bias().value());
            outW = h.out().weight().value().dup('c');
            outB = Host.doubles(h.out().bias().value());
            // first layer, positions >= 1: the input is tokE[token] + posE[pos], so LN1, q, k and the per-head
            // projected values depend on (pos, token) only: one table row each (row pos * V + token)
            int rows = t * v;
            double[] x = new double[rows * d];
            for (int p = 0; p < t; p++) {
                for (int k = 0; k < v; k++) {
                    for (int j = 0; j < d; j++) {
                        x[(p * v + k) * d + j] = tokE[k * d + j] + posE[p * d + j];
                    }
                }
            }
            Layer first = layers.get(0);
            double[] hn = new double[rows * d];
            layerNorm(x, rows, first.ln1G(), first.ln1B(), hn);
            double[] qkv = gemm(hn, rows, d, first.qkvW(), 3 * d, first.qkvB(), type);
            tabQ = new double[rows * d];
            tabK = new double[rows * d];
            for (int r = 0; r < rows; r++) {
                System.arraycopy(qkv, r * 3 * d, tabQ, r * d, d);
                System.arraycopy(qkv, r * 3 * d + d, tabK, r * d, d);
            }
            tabPV = projectHeads(qkv, rows, this);
        }
    }

    /**
     * Per-head projected values of the first layer: for each row r and head h, {@code v_h W_o[h rows, :]} (the
     * head's value slice through its rows of the output projection, no bias), {@code [rows, heads * d]}. The first
     * layer's attention output after projection is then {@code sum_h sum_u p_hu pv_hu + b_o}.
     *
     * @param qkv {@code [rows, 3d]} (values at columns 2d..3d)
     */
    static double[] projectHeads(double[] qkv, int rows, Weights w) {
        int d = w.d;
        int dh = d / w.heads;
        double[] m = new double[rows * w.heads * d]; // row (r, h): head h's value entries, zeros elsewhere
        for (int r = 0; r < rows; r++) {
            for (int hh = 0; hh < w.heads; hh++) {
                System.arraycopy(qkv, r * 3 * d + 2 * d + hh * dh, m, (r * w.heads + hh) * d + hh * dh, dh);
            }
        }
        return gemm(m, rows * w.heads, d, w.layers.get(0).projW(), d, null, w.type);
    }

    private static final double LN_EPS = 1e-5;
    private static final double GELU_C = Math.sqrt(2.0 / Math.PI);

    private final Weights w;
    private final int n;
    private int pos;
    private final int[] prefix; // [N, T]
    private final int[] source; // [N] the input row each state row belongs to
    private final double[][] keys; // per layer [N, T, d]
    private final double[][] values;
    private double[] logits; // [N, V]

    private DecoderState(Weights w, int n, int pos, int[] prefix, int[] source, double[][] keys, double[][] values,
            double[] logits) {
        this.w = w;
        this.n = n;
        this.pos = pos;
        this.prefix = prefix;
        this.source = source;
        this.keys = keys;
        this.values = values;
        this.logits = logits;
    }

    /**
     * Runs position 0 for every row of phi.
     *
     * @param phi {@code [B * D]} row-major host features
     */
    static DecoderState start(Weights w, double[] phi, int b) {
        Checks.require(phi.length == b * w.inputWidth, "phi must have %d x %d entries, got %d", b, w.inputWidth, phi.length);
        int layers = w.layers.size();
        double[][] k = new double[layers][b * w.t * w.d];
        double[][] vv = new double[layers][];
        for (int l = 0; l < layers; l++) {
            vv[l] = new double[b * valueStride(w, l)];
        }
        int[] src = new int[b];
        for (int i = 0; i < b; i++) {
            src[i] = i;
        }
        DecoderState s = new DecoderState(w, b, 0, new int[b * w.t], src, k, vv, null);
        double[] x = gemm(phi, b, w.inputWidth, w.inW, w.d, w.inB, w.type);
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < w.d; j++) {
                x[r * w.d + j] += w.posE[j];
            }
        }
        s.logits = s.run(x, null);
        return s;
    }

    /** Number of rows N. */
    public int rows() {
        return n;
    }

    /** The position whose logits {@link #logits()} holds (= number of tokens fixed so far); T when finished. */
    public int position() {
        return pos;
    }

    /** The input row (0..B-1) that state row r decodes. */
    public int source(int r) {
        return source[r];
    }

    /** Token at {@code position} of row r (position < {@link #position()}). */
    public int token(int r, int position) {
        return prefix[r * w.t + position];
    }

    /** A copy of row r's tokens so far, padded to T with zeros. */
    public int[] prefix(int r) {
        int[] p = new int[w.t];
        System.arraycopy(prefix, r * w.t, p, 0, w.t);
        return p;
    }

    /** Raw logits of the current position, {@code [N * V]} (shared: do not modify). */
    public double[] logits() {
        Checks.require(pos < w.t, "the sequence is complete (position %d = T)", pos);
        return logits;
    }

    /**
     * Masked log-probabilities of the current position for row r at a temperature: {@code log softmax(z / tau)}
     * over the tokens the tokenizer allows after the row's prefix; masked tokens get {@code -Infinity}.
     *
     * @param dst {@code [V]} output
     */
    public void logProbabilities(int r, double temperature, double[] dst) {
        requireTemperature(temperature);
        boolean[] allowed = allowed(r);
        int o = r * w.v;
        double max = allowedMax(o, temperature, allowed);
        double s = 0;
        for (int k = 0; k < w.v; k++) {
            if (allowed == null || allowed[k]) {
                s += Math.exp(logits[o + k] / temperature - max);
            }
        }
        double lse = max + Math.log(s);
        for (int k = 0; k < w.v; k++) {
            dst[k] = allowed == null || allowed[k] ? logits[o + k] / temperature - lse : Double.NEGATIVE_INFINITY;
        }
    }

    /**
     * Masked probabilities of the current position for row r at a temperature, {@code softmax(z / tau)} over the
     * allowed tokens (0 elsewhere): as {@link #logProbabilities} without the logarithms.
     *
     * @param dst {@code [V]} output
     */
    public void probabilities(int r, double temperature, double[] dst) {
        requireTemperature(temperature);
        boolean[] allowed = allowed(r);
        int o = r * w.v;
        double max = allowedMax(o, temperature, allowed);
        double s = 0;
        for (int k = 0; k < w.v; k++) {
            double e = allowed == null || allowed[k] ? Math.exp(logits[o + k] / temperature - max) : 0;
            dst[k] = e;
            s += e;
        }
        for (int k = 0; k < w.v; k++) {
            dst[k] /= s;
        }
    }

    private static void requireTemperature(double temperature) {
        if (!(temperature > 0 && temperature < Double.POSITIVE_INFINITY)) { // no boxing on the hot path
            throw new IllegalArgumentException("temperature must be > 0 and finite, got " + temperature);
        }
    }

    /**
     * {@code max z_k / tau} over the allowed tokens of the row starting at logits offset o (the shift of the softmax
     * that {@link #logProbabilities} and {@link #probabilities} share).
     */
    private double allowedMax(int o, double temperature, boolean[] allowed) {
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < w.v; k++) {
            if (allowed == null || allowed[k]) {
                max = Math.max(max, logits[o + k] / temperature);
            }
        }
        if (!(max > Double.NEGATIVE_INFINITY)) {
            throw new IllegalArgumentException("tokenizer allows no token at position " + pos);
        }
        return max;
    }

    /** The tokenizer's mask at the current position for row r; null when every token is allowed. */
    private boolean[] allowed(int r) {
        if (w.unmasked) {
            return null;
        }
        return w.tokenizer.allowed(pos, prefix(r));
    }

    /** A new state with rows {@code rows[i]} of this one (caches copied). */
    public DecoderState select(int[] rows) {
        Checks.notNull("rows", rows);
        int m = rows.length;
        Checks.require(m > 0, "rows must not be empty");
        int td = w.t * w.d;
        int used = Math.min(pos + 1, w.t) * w.d; // keys/values of positions 0..pos are cached
        double[][] k = new double[keys.length][m * td];
        double[][] vv = new double[keys.length][];
        for (int l = 0; l < keys.length; l++) {
            vv[l] = new double[m * valueStride(w, l)];
        }
        int[] p = new int[m * w.t];
        int[] src = new int[m];
        double[] lg = pos < w.t ? new double[m * w.v] : null;
        for (int i = 0; i < m; i++) {
            int r = rows[i];
            Checks.require(r >= 0 && r < n, "rows[%d] must be in [0, %d), got %d", i, n, r);
            for (int l = 0; l < keys.length; l++) {
                System.arraycopy(keys[l], r * td, k[l], i * td, used);
                int vs = valueStride(w, l);
                int vused = used / w.d * (vs / w.t);
                System.arraycopy(values[l], r * vs, vv[l], i * vs, vused);
            }
            System.arraycopy(prefix, r * w.t, p, i * w.t, w.t);
            src[i] = source[r];
            if (lg != null) {
                System.arraycopy(logits, r * w.v, lg, i * w.v, w.v);
            }
        }
        return new DecoderState(w, m, pos, p, src, k, vv, lg);
    }

    /**
     * Fixes one token per row at the current position and computes the next position's logits (none after the
     * last position).
     *
     * @param tokens {@code [N]}, each allowed after its row's prefix
     * @throws IllegalArgumentException on a wrong length, a finished sequence or a disallowed token
     */
    public void advance(int[] tokens) {
        Checks.require(tokens != null && tokens.length == n, "tokens must have length %d", n);
        Checks.require(pos < w.t, "the sequence is complete (position %d = T)", pos);
        for (int r = 0; r < n; r++) {
            int tok = tokens[r];
            if (!(tok >= 0 && tok < w.v && (w.unmasked || w.tokenizer.allowed(pos, prefix(r))[tok]))) {
                throw new IllegalArgumentException("tokens[" + r + "] = " + tok + " is not allowed at position " + pos);
            }
            prefix[r * w.t + pos] = tok;
        }
        pos++;
        if (pos == w.t) {
            logits = null;
            return;
        }
        double[] x = new double[n * w.d];
        for (int r = 0; r < n; r++) {
            int e = tokens[r] * w.d;
            int o = r * w.d;
            int po = pos * w.d;
            for (int j = 0; j < w.d; j++) {
                x[o + j] = w.tokE[e + j] + w.posE[po + j];
            }
        }
        logits = run(x, tokens);
    }

    /** Value-cache entries per row of layer l: the first layer caches per-head projected values. */
    private static int valueStride(Weights w, int l) {
        return l == 0 ? w.t * w.heads * w.d : w.t * w.d;
    }

    /**
     * The first layer's attention sublayer, {@code x += attention(LN1(x)) W_o + b_o}, from cached keys and per-head
     * projected values: at position 0 (row-specific input) q, k and pv are computed; at later positions the input
     * is a token embedding, so they come from the weights' tables.
     */
    private void firstAttention(double[] x, int[] tokens, Weights.Layer L) {
        int d = w.d;
        int hs = w.heads;
        int dh = d / hs;
        int td = w.t * d;
        int tp = w.t * hs * d;
        double scale = 1.0 / Math.sqrt(dh);
        double[] q;
        int[] qOff = new int[n];
        double[] kc = keys[0];
        double[] pc = values[0];
        if (pos == 0) {
            double[] h = new double[n * d];
            layerNorm(x, n, L.ln1G(), L.ln1B(), h);
            q = gemm(h, n, d, L.qkvW(), 3 * d, L.qkvB(), w.type);
            double[] pv = projectHeads(q, n, w);
            for (int r = 0; r < n; r++) {
                qOff[r] = r * 3 * d;
                System.arraycopy(q, r * 3 * d + d, kc, r * td, d);
                System.arraycopy(pv, r * hs * d, pc, r * tp, hs * d);
            }
        } else {
            q = w.tabQ;
            for (int r = 0; r < n; r++) {
                int e = pos * w.v + tokens[r];
                qOff[r] = e * d;
                System.arraycopy(w.tabK, e * d, kc, r * td + pos * d, d);
                System.arraycopy(w.tabPV, e * hs * d, pc, r * tp + pos * hs * d, hs * d);
            }
        }
        double[] sc = new double[pos + 1];
        double[] bo = L.projB();
        for (int r = 0; r < n; r++) {
            int xo = r * d;
            for (int j = 0; j < d; j++) {
                x[xo + j] += bo[j];
            }
            for (int hh = 0; hh < hs; hh++) {
                int qo = qOff[r] + hh * dh;
                double max = Double.NEGATIVE_INFINITY;
                for (int u = 0; u <= pos; u++) {
                    int ko = r * td + u * d + hh * dh;
                    double s = 0;
                    for (int j = 0; j < dh; j++) {
                        s += q[qo + j] * kc[ko + j];
                    }
                    sc[u] = s * scale;
                    max = Math.max(max, sc[u]);
                }
                double z = 0;
                for (int u = 0; u <= pos; u++) {
                    sc[u] = Math.exp(sc[u] - max);
                    z += sc[u];
                }
                for (int u = 0; u <= pos; u++) {
                    double p = sc[u] / z;
                    int po = r * tp + (u * hs + hh) * d;
                    for (int j = 0; j < d; j++) {
                        x[xo + j] += p * pc[po + j];
                    }
                }
            }
        }
    }

    /**
     * Blocks, final LN and output projection for position {@code pos}; x [N, d] is overwritten.
     *
     * @param tokens the tokens just fixed at position pos - 1 (null at position 0)
     */
    private double[] run(double[] x, int[] tokens) {
        int d = w.d;
        int dh = d / w.heads;
        double scale = 1.0 / Math.sqrt(dh);
        double[] h = new double[n * d];
        double[] a = new double[n * d];
        double[] sc = new double[pos + 1];
        for (int l = 0; l < w.layers.size(); l++) {
            Weights.Layer L = w.layers.get(l);
            if (l == 0) {
                firstAttention(x, tokens, L);
                mlp(x, h, L);
                continue;
            }
            layerNorm(x, n, L.ln1G(), L.ln1B(), h);
            double[] qkv = gemm(h, n, d, L.qkvW(), 3 * d, L.qkvB(), w.type); // [N, 3d]
            double[] kc = keys[l];
            double[] vc = values[l];
            int td = w.t * d;
            for (int r = 0; r < n; r++) {
                System.arraycopy(qkv, r * 3 * d + d, kc, r * td + pos * d, d);
                System.arraycopy(qkv, r * 3 * d + 2 * d, vc, r * td + pos * d, d);
                for (int hh = 0; hh < w.heads; hh++) {
                    int qo = r * 3 * d + hh * dh;
                    double max = Double.NEGATIVE_INFINITY;
                    for (int u = 0; u <= pos; u++) {
                        int ko = r * td + u * d + hh * dh;
                        double s = 0;
                        for (int j = 0; j < dh; j++) {
                            s += qkv[qo + j] * kc[ko + j];
                        }
                        sc[u] = s * scale;
                        max = Math.max(max, sc[u]);
                    }
                    double z = 0;
                    for (int u = 0; u <= pos; u++) {
                        sc[u] = Math.exp(sc[u] - max);
                        z += sc[u];
                    }
                    int ao = r * d + hh * dh;
                    for (int j = 0; j < dh; j++) {
                        a[ao + j] = 0;
                    }
                    for (int u = 0; u <= pos; u++) {
                        double p = sc[u] / z;
                        int vo = r * td + u * d + hh * dh;
                        for (int j = 0; j < dh; j++) {
                            a[ao + j] += p * vc[vo + j];
                        }
                    }
                }
            }
            double[] o = gemm(a, n, d, L.projW(), d, L.projB(), w.type);
            for (int i = 0; i < x.length; i++) {
                x[i] += o[i];
            }
            mlp(x, h, L);
        }
        if (w.type == DataType.FLOAT) {
            return outputFloat(x);
        }
        layerNorm(x, n, w.lnfG, w.lnfB, h);
        return gemm(h, n, d, w.outW, w.v, w.outB, w.type);
    }

    /** Final LN written as floats into the output gemm's input; logits {@code [N, V]} back as doubles. */
    private double[] outputFloat(double[] x) {
        int d = w.d;
        float[] hf = new float[n * d];
        layerNormFloat(x, n, w.lnfG, w.lnfB, hf);
        INDArray xa = Host.create(hf, n, d);
        INDArray ya = Nd4j.create(DataType.FLOAT, n, w.v);
        Gemm.gemm(xa, w.outW, ya, false, false, 1.0, 0.0);
        float[] z = new float[n * w.v];
        Host.read(ya, z);
        double[] out = new double[z.length];
        for (int r = 0; r < n; r++) {
            int o = r * w.v;
            for (int k = 0; k < w.v; k++) {
                out[o + k] = z[o + k] + w.outB[k];
            }
        }
        xa.close();
        ya.close();
        return out;
    }

    /** Row-wise layer norm of {@code x [rows, d]} (computed in double) stored as floats. */
    private static void layerNormFloat(double[] x, int rows, double[] g, double[] b, float[] y) {
        int d = g.length;
        for (int r = 0; r < rows; r++) {
            int o = r * d;
            double m = rowMean(x, o, d);
            double rs = rowRstd(x, o, d, m);
            for (int j = 0; j < d; j++) {
                y[o + j] = (float) ((x[o + j] - m) * rs * g[j] + b[j]);
            }
        }
    }

    /**
     * {@code x += fc2(act(fc1(LN2(x))))}, act = GELU or ReLU as the blocks; h is scratch {@code [N, d]}. Double models
     * here; float: {@link #mlpFloat}.
     */
    private void mlp(double[] x, double[] h, Weights.Layer L) {
        if (w.type == DataType.FLOAT) {
            mlpFloat(x, L);
            return;
        }
        int d = w.d;
        layerNorm(x, n, L.ln2G(), L.ln2B(), h);
        double[] f = gemm(h, n, d, L.fc1W(), w.ff, L.fc1B(), w.type);
        for (int i = 0; i < f.length; i++) {
            double u = f[i];
            f[i] = w.relu ? Math.max(u, 0) : 0.5 * u * (1 + Math.tanh(GELU_C * (u + 0.044715 * u * u * u)));
        }
        double[] g = gemm(f, n, w.ff, L.fc2W(), d, L.fc2B(), w.type);
        for (int i = 0; i < x.length; i++) {
            x[i] += g[i];
        }
    }

    /**
     * The MLP sublayer of a float model with float intermediates: LN2 written as floats into the fc1 input, the
     * ff-wide activations stay in float arrays (bias, then GELU into a second array written back into the same
     * native array as the fc2 input), so no double copies of the widest arrays.
     */
    private void mlpFloat(double[] x, Weights.Layer L) {
        int d = w.d;
        int ff = w.ff;
        float[] hf = new float[n * d];
        layerNormFloat(x, n, L.ln2G(), L.ln2B(), hf);
        INDArray xa = Host.create(hf, n, d);
        INDArray fa = Nd4j.create(DataType.FLOAT, n, ff);
        Gemm.gemm(xa, L.fc1W(), fa, false, false, 1.0, 0.0);
        float[] f = new float[n * ff];
        Host.read(fa, f);
        float[] b1 = L.fc1BF();
        for (int r = 0; r < n; r++) {
            int o = r * ff;
            for (int j = 0; j < ff; j++) {
                f[o + j] += b1[j];
            }
        }
        float[] act = new float[f.length];
        if (w.relu) {
            Activations.relu(f, act);
        } else {
            Activations.geluTanh(f, act);
        }
        Host.write(act, fa);
        INDArray ya = Nd4j.create(DataType.FLOAT, n, d);
        Gemm.gemm(fa, L.fc2W(), ya, false, false, 1.0, 0.0);
        Host.read(ya, hf);
        double[] b2 = L.fc2B();
        for (int r = 0; r < n; r++) {
            int o = r * d;
            for (int j = 0; j < d; j++) {
                x[o + j] += hf[o + j] + b2[j];
            }
        }
        xa.close();
        fa.close();
        ya.close();
    }

    /** Mean of {@code x[o .. o + d)}. */
    private static double rowMean(double[] x, int o, int d) {
        double m = 0;
        for (int j = 0; j < d; j++) {
            m += x[o + j];
        }
        return m / d;
    }

    /** {@code 1 / sqrt(var + eps)} of {@code x[o .. o + d)} around its mean m (biased variance, as LayerNorm). */
    private static double rowRstd(double[] x, int o, int d, double m) {
        double s2 = 0;
        for (int j = 0; j < d; j++) {
            double c = x[o + j] - m;
            s2 += c * c;
        }
        return 1.0 / Math.sqrt(s2 / d + LN_EPS);
    }

    /** Row-wise layer norm of {@code x [rows, d]} into y. */
    static void layerNorm(double[] x, int rows, double[] g, double[] b, double[] y) {
        int d = g.length;
        for (int r = 0; r < rows; r++) {
            int o = r * d;
            double m = rowMean(x, o, d);
            double rs = rowRstd(x, o, d, m);
            for (int j = 0; j < d; j++) {
                y[o + j] = (x[o + j] - m) * rs * g[j] + b[j];
            }
        }
    }

    /** {@code x [rows, in] W [in, out] + b} through Gemm.gemm in the given type (bias may be null). */
    static double[] gemm(double[] x, int rows, int in, INDArray wt, int out, double[] bias, DataType type) {
        INDArray xa = Host.create(x.length == rows * in ? x : java.util.Arrays.copyOf(x, rows * in), type, rows, in);
        INDArray ya = Nd4j.create(type, rows, out);
        Gemm.gemm(xa, wt, ya, false, false, 1.0, 0.0);
        double[] y = Host.doubles(ya);
        if (bias != null) {
            for (int r = 0; r < rows; r++) {
                int o = r * out;
                for (int j = 0; j < out; j++) {
                    y[o + j] += bias[j];
                }
            }
        }
        xa.close();
        ya.close();
        return y;
    }
}
