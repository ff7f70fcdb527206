package io.regheads.heads.decoder;

import io.regheads.core.internal.Host;
import io.regheads.core.nn.CachedAttention;
import io.regheads.core.nn.LayerNorm;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.token.NumberTokenizer;
import java.util.ArrayList;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * An immutable snapshot of a {@link DecoderHead}'s parameters for key/value-cached inference ({@link DecoderState}):
 * the input projection and the embeddings, the blocks' own snapshots ({@link TransformerBlock.Snapshot}), the final
 * layer norm and the output projection. Reference: {@link DecoderHead#forward}, position by position.
 *
 * <p>The first block is {@link TransformerBlock.Tabulated tabulated}: after position 0 its input is {@code
 * token[k] + position[p]}, one of T V rows (row {@code p V + k}), so its LN1, q, k and per-head projected values are
 * looked up. The final layer norm is written as floats into the output product for FLOAT heads (the double layer
 * norm rounded once), as doubles for DOUBLE heads; that choice is made here, once.
 *
 * <p>Shapes: T positions, V vocabulary, d width; the residual rows are {@code [N, d]} doubles, logits {@code [N, V]}.
 * Thread-safe.
 */
final class DecoderSnapshot {
    final NumberTokenizer tokenizer;
    /** True when every token is allowed everywhere ({@link NumberTokenizer#everySequenceValid()}): no masks. */
    final boolean unmasked;
    final int t;
    final int v;
    final int d;
    final int inputWidth;
    private final Linear.Snapshot in;
    private final double[] tokE; // [V, d]
    private final double[] posE; // [T, d]
    private final TransformerBlock.Tabulated first;
    private final List<TransformerBlock.Snapshot> rest;
    private final Output output;

    /** Final layer norm and output projection, {@code [N, d] -> [N, V]}; one form per data type. */
    private interface Output {
        double[] logits(double[] x, int n);
    }

    DecoderSnapshot(DecoderHead h) {
        tokenizer = h.tokenizer();
        unmasked = tokenizer.everySequenceValid();
        t = tokenizer.sequenceLength();
        v = tokenizer.vocabularySize();
        d = h.block().d();
        inputWidth = h.inputWidth();
        in = h.in().snapshot();
        tokE = Host.doubles(h.token().weight().value());
        posE = Host.doubles(h.position().weight().value());
        List<TransformerBlock> blocks = h.blocks();
        rest = new ArrayList<>();
        for (int l = 1; l < blocks.size(); l++) {
            rest.add(blocks.get(l).snapshot());
        }
        // after position 0 the first block's input is token[k] + position[p]: one table row (p V + k) each
        double[] x = new double[t * v * d];
        for (int p = 0; p < t; p++) {
            for (int k = 0; k < v; k++) {
                for (int j = 0; j < d; j++) {
                    x[(p * v + k) * d + j] = tokE[k * d + j] + posE[p * d + j];
                }
            }
        }
        first = blocks.get(0).snapshot().tabulated(x, t * v);
        LayerNorm.Snapshot lnf = h.lnf().snapshot();
        Linear.Snapshot out = h.out().snapshot();
        if (h.dataType() == DataType.FLOAT) {
            output = (xs, n) -> {
                float[] hf = new float[n * d];
                lnf.apply(xs, n, hf);
                return out.apply(hf, n);
            };
        } else {
            output = (xs, n) -> {
                double[] hd = new double[n * d];
                lnf.apply(xs, n, hd);
                return out.apply(hd, n);
            };
        }
    }

    /** Number of blocks. */
    int layers() {
        return rest.size() + 1;
    }

    /** Empty caches for n rows, one per block. */
    CachedAttention.KeyValues[] newCaches(int n) {
        CachedAttention.KeyValues[] c = new CachedAttention.KeyValues[layers()];
        c[0] = first.newCache(n, t);
        for (int l = 1; l < c.length; l++) {
            c[l] = rest.get(l - 1).newCache(n, t);
        }
        return c;
    }

    /** Position 0's inputs {@code phi Win + bin + position[0]}, {@code [B, d]}, from phi {@code [B * D]}. */
    double[] firstInputs(double[] phi, int b) {
        double[] x = in.apply(phi, b);
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < d; j++) {
                x[r * d + j] += posE[j];
            }
        }
        return x;
    }

    /** Inputs at position {@code pos >= 1} after {@code tokens [N]}: {@code token[k] + position[pos]}, {@code [N, d]}. */
    double[] tokenInputs(int[] tokens, int pos) {
        int n = tokens.length;
        double[] x = new double[n * d];
        for (int r = 0; r < n; r++) {
            int e = tokens[r] * d;
            int o = r * d;
            int po = pos * d;
            for (int j = 0; j < d; j++) {
                x[o + j] = tokE[e + j] + posE[po + j];
            }
        }
        return x;
    }

    /**
     * Blocks, final layer norm and output projection for position {@code pos}: the logits {@code [N, V]}.
     *
     * @param x      {@code [N, d]} the inputs, overwritten
     * @param tokens the tokens fixed at position pos - 1 (null at position 0)
     * @param caches the rows' caches, one per block
     */
    double[] run(double[] x, int n, int pos, int[] tokens, CachedAttention.KeyValues[] caches) {
        int[] tableRows = null;
        if (tokens != null) {
            tableRows = new int[n];
            for (int r = 0; r < n; r++) {
                tableRows[r] = pos * v + tokens[r];
            }
        }
        first.step(x, n, pos, tableRows, caches[0]);
        for (int l = 1; l < caches.length; l++) {
            rest.get(l - 1).step(x, n, pos, caches[l]);
        }
        return output.logits(x, n);
    }
}
