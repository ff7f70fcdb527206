package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.nn.CachedAttention;

/**
 * Key/value-cached incremental decoding of N rows (each a prefix of one input row): every {@link #advance} runs
 * exactly one new position through the network, attending to the cached keys and values of the earlier ones.
 * Computes the same function as {@link DecoderHead#forward} on the same prefix (tested to 1e-9 in double).
 *
 * <p>This class keeps the books: each row's prefix and input row, the blocks' caches ({@link
 * CachedAttention.KeyValues}) and the current logits, and it applies the tokenizer's masks. The network itself is
 * the head's {@link DecoderSnapshot}, whose blocks step through {@link
 * io.regheads.core.nn.TransformerBlock.Snapshot}, the blocks' own inference form.
 *
 * <p>After {@link #start}, {@link #logits()} holds position 0's logits for every row; {@code advance(tokens)}
 * appends one token per row and computes the next position's logits. {@link #select} copies rows (with their
 * caches) to branch a tree level, a beam or a batch of samples.
 *
 * <p>Shapes: {@code logits [N * V]} row-major; caches {@code [N, T, d]} per block. Not thread-safe (mutable); the
 * snapshot it reads is immutable and shared.
 */
final class DecoderState {

    private final DecoderSnapshot w;
    private final int n;
    private int pos;
    private final int[] prefix; // [N, T]
    private final int[] source; // [N] the input row each state row belongs to
    private final CachedAttention.KeyValues[] caches; // one per block
    private double[] logits; // [N, V]

    private DecoderState(DecoderSnapshot w, int n, int pos, int[] prefix, int[] source,
            CachedAttention.KeyValues[] caches, double[] logits) {
        this.w = w;
        this.n = n;
        this.pos = pos;
        this.prefix = prefix;
        this.source = source;
        this.caches = caches;
        this.logits = logits;
    }

    /**
     * Runs position 0 for every row of phi.
     *
     * @param phi {@code [B * D]} row-major host features
     */
    static DecoderState start(DecoderSnapshot w, double[] phi, int b) {
        Checks.require(phi.length == b * w.inputWidth, "phi must have %d x %d entries, got %d", b, w.inputWidth,
                phi.length);
        int[] src = new int[b];
        for (int i = 0; i < b; i++) {
            src[i] = i;
        }
        DecoderState s = new DecoderState(w, b, 0, new int[b * w.t], src, w.newCaches(b), null);
        s.logits = w.run(w.firstInputs(phi, b), b, 0, null, s.caches);
        return s;
    }

    /** Number of rows N. */
    public int rows() {
        return n;
    }

    /** T, the number of positions. */
    public int positions() {
        return w.t;
    }

    /** V, the vocabulary size. */
    public int vocabulary() {
        return w.v;
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
        int[] p = new int[m * w.t];
        int[] src = new int[m];
        double[] lg = pos < w.t ? new double[m * w.v] : null;
        for (int i = 0; i < m; i++) {
            int r = rows[i];
            Checks.require(r >= 0 && r < n, "rows[%d] must be in [0, %d), got %d", i, n, r);
            System.arraycopy(prefix, r * w.t, p, i * w.t, w.t);
            src[i] = source[r];
            if (lg != null) {
                System.arraycopy(logits, r * w.v, lg, i * w.v, w.v);
            }
        }
        int used = Math.min(pos + 1, w.t); // keys/values of positions 0..pos are cached
        CachedAttention.KeyValues[] c = new CachedAttention.KeyValues[caches.length];
        for (int l = 0; l < c.length; l++) {
            c[l] = caches[l].select(rows, used);
        }
        return new DecoderState(w, m, pos, p, src, c, lg);
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
        logits = w.run(w.tokenInputs(tokens, pos), n, pos, tokens, caches);
    }
}
