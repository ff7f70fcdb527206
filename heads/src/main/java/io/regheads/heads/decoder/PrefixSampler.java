package io.regheads.heads.decoder;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Ancestral sampling of n sequences per input row with one decoder evaluation per <em>distinct</em> prefix instead
 * of one per sample and position.
 *
 * <p>All n samples of a row start at the same (empty) prefix. At each position every distinct prefix of the level
 * is evaluated once; each sample currently on it draws its next token independently from that node's (temperature,
 * top-k, top-p transformed) distribution, and the samples are grouped by token into the children. So the joint
 * law of the n returned sequences is exactly that of n independent ancestral draws, each sample keeps its own slot
 * (no reordering), and the number of evaluations is the number of distinct prefixes, at most {@code n * T} but
 * usually far fewer (a concentrated distribution shares its leading digits).
 *
 * <p>Stateless; not part of the public API (called by {@link DecoderSampling#sampleSequences}).
 */
final class PrefixSampler {

    private PrefixSampler() {}

    /**
     * @param start    position-0 state of all B input rows
     * @param n        samples per input row
     * @param sampling temperature, top-k and top-p
     * @param block    input rows processed together (bounds the state's memory)
     * @return {@code [B * n][T]}, row r's samples at {@code r * n .. r * n + n - 1}
     */
    static int[][] sample(DecoderState start, int n, DecoderSampling.Settings sampling, UniformRandomProvider rng,
            int block) {
        int b = start.rows();
        int t = start.positions();
        int v = start.vocabulary();
        int[][] out = new int[b * n][];
        double[] p = new double[v];
        int[] count = new int[v];
        for (int r0 = 0; r0 < b; r0 += block) {
            int r1 = Math.min(b, r0 + block);
            int m = r1 - r0;
            int[] rows = new int[m];
            int[][] ids = new int[m][]; // the sample slots sitting on each state row
            for (int i = 0; i < m; i++) {
                rows[i] = r0 + i;
                ids[i] = new int[n];
                for (int j = 0; j < n; j++) {
                    ids[i][j] = (r0 + i) * n + j;
                }
            }
            DecoderState s = start.select(rows);
            for (int pos = 0; pos < t; pos++) {
                int rowsNow = s.rows();
                int children = 0;
                int[] par = new int[Math.min(rowsNow * v, m * n)];
                int[] dig = new int[par.length];
                int[][] childIds = new int[par.length][];
                for (int i = 0; i < rowsNow; i++) {
                    s.probabilities(i, sampling.temperature(), p);
                    DecoderSampling.filter(p, sampling.topK(), sampling.topP());
                    int[] mine = ids[i];
                    int[] drawn = new int[mine.length];
                    Arrays.fill(count, 0);
                    for (int j = 0; j < mine.length; j++) {
                        int k = DecoderSampling.draw(p, rng.nextDouble());
                        drawn[j] = k;
                        count[k]++;
                    }
                    int[] slotOf = new int[v];
                    for (int k = 0; k < v; k++) {
                        if (count[k] > 0) {
                            slotOf[k] = children;
                            par[children] = i;
                            dig[children] = k;
                            childIds[children] = new int[count[k]];
                            count[k] = 0; // reused as a fill pointer
                            children++;
                        }
                    }
                    for (int j = 0; j < mine.length; j++) {
                        int c = slotOf[drawn[j]];
                        childIds[c][count[drawn[j]]++] = mine[j];
                    }
                }
                if (pos == t - 1) {
                    for (int c = 0; c < children; c++) {
                        int[] seq = s.prefix(par[c]);
                        seq[t - 1] = dig[c];
                        for (int id : childIds[c]) {
                            out[id] = seq.clone();
                        }
                    }
                } else {
                    s = s.select(Arrays.copyOf(par, children));
                    s.advance(Arrays.copyOf(dig, children));
                    ids = Arrays.copyOf(childIds, children);
                }
            }
        }
        return out;
    }
}
