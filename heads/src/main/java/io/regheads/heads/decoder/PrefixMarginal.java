package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.token.FixedPointDigits;
import io.regheads.heads.histogram.HistogramDistribution;

/**
 * The marginal of a decoder over its first k tokens (the decoding paper's k-level histograms, Fig. 3): for
 * fixed-point digits of [0, 1] in base V, the prefix {@code t1..tk} covers {@code [i V^-k, (i + 1) V^-k)} with {@code
 * i = (t1..tk)} read in base V, and its probability is the product of the decoder's conditional probabilities
 * {@code P(t1) P(t2 | t1) ... P(tk | t1..tk-1)}, which equals the sum of the probabilities of all its completions. So
 * a decoder trained on K digits carries K histograms, with V, V^2, ..., V^K equal bins; the k-th is a Riemann
 * distribution ({@link HistogramDistribution} without tails, V^k bins on [0, 1]).
 *
 * <p>Computed by expanding every prefix: k cached decoder steps over {@code B V^(k-1)} partial sequences (in chunks of
 * rows), no enumeration of the {@code V^K} full sequences. Reference: the brute-force sum over the full sequences in
 * the tests.
 *
 * <p>Shapes: B rows; the result has {@code V^k} bins per row. Stateless.
 */
final class PrefixMarginal {
    /** Partial sequences expanded at once: bounds the decoder caches of one chunk. */
    private static final int CHUNK_SEQUENCES = 8192;

    private PrefixMarginal() {}

    /**
     * The k-level histograms of the rows.
     *
     * @param rows      the decoder conditioned on B rows of phi; its tokenizer must be fixed-point
     * @param k         prefix length in [1, T]
     * @param maxLeaves the largest number of bins {@code V^k} allowed
     * @throws IllegalArgumentException if the tokenizer is not fixed-point, k is outside [1, T] or {@code V^k} exceeds
     *                                  maxLeaves
     */
    static HistogramDistribution of(DecoderRows rows, int k, int maxLeaves) {
        Checks.require(rows.tok instanceof FixedPointDigits, "firstTokens needs fixed-point digits of [0, 1] (a "
                + "normalized decoder's tokenizer, FixedPointDigits), got %s", rows.tok);
        Checks.inRange("k", k, 1, rows.t);
        int v = rows.v;
        double bins = Math.pow(v, k);
        Checks.require(bins <= maxLeaves, "V^k must be at most maxLeaves = %d, got %d^%d = %.0f", maxLeaves, v, k, bins);
        int n = (int) bins;
        int last = n / v; // V^(k-1) partial sequences per row at the last step
        int perChunk = Math.max(1, CHUNK_SEQUENCES / last);
        DecoderState start = rows.start();
        double[][] probs = new double[rows.b][];
        for (int first = 0; first < rows.b; first += perChunk) {
            int m = Math.min(perChunk, rows.b - first);
            int[] chunk = new int[m];
            for (int i = 0; i < m; i++) {
                chunk[i] = first + i;
            }
            double[][] p = expand(start.select(chunk), k, v, n);
            System.arraycopy(p, 0, probs, first, m);
        }
        return new HistogramDistribution(HistogramDistribution.equalBorders(n, 0, 1), probs, false);
    }

    /**
     * Expands the m rows of a state at position 0 into all {@code V^k} prefixes; state row {@code r V^j + i} after j
     * steps holds source row r's prefix number i (digits in token order, so the prefixes of a row are in value order).
     *
     * @return {@code [m][V^k]} prefix probabilities
     */
    private static double[][] expand(DecoderState s, int k, int v, int n) {
        int m = s.rows();
        double[] logP = new double[m]; // [m * V^j] log probability of each partial sequence
        double[] row = new double[v];
        int width = 1; // V^j prefixes per source row
        for (int j = 0; j < k; j++) {
            double[] next = new double[logP.length * v];
            for (int r = 0; r < logP.length; r++) {
                s.logProbabilities(r, 1.0, row);
                for (int t = 0; t < v; t++) {
                    next[r * v + t] = logP[r] + row[t];
                }
            }
            logP = next;
            width *= v;
            if (j < k - 1) { // the last token's successors are not needed
                int[] select = new int[logP.length];
                int[] tokens = new int[logP.length];
                for (int i = 0; i < select.length; i++) {
                    select[i] = i / v;
                    tokens[i] = i % v;
                }
                s = s.select(select);
                s.advance(tokens);
            }
        }
        double[][] out = new double[m][n];
        for (int r = 0; r < m; r++) {
            for (int i = 0; i < width; i++) {
                out[r][i] = Math.exp(logP[r * width + i]);
            }
        }
        return out;
    }
}
