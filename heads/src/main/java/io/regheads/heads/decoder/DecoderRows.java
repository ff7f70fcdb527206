package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.ArrayChecks;
import io.regheads.core.internal.Host;
import io.regheads.core.token.FixedPointDigits;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import java.util.Arrays;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The decoder conditioned on B rows of phi: a snapshot of the head's parameters and a host copy of the rows, from
 * which every inference strategy starts its cached decoding ({@link #start}) or scores given token sequences
 * ({@link #score}, teacher-forced through the cached step). Immutable; thread-safe.
 *
 * <p>Shapes: B rows, T positions, V vocabulary; phi {@code [B * D]}.
 */
final class DecoderRows {
    final NumberTokenizer tok;
    final int b;
    final int t;
    final int v;
    private final DecoderSnapshot w;
    private final double[] phi; // [B * D]

    /** Per row: {@code log P(tokens)} and the mass of every sequence before it in token order. */
    record Scores(double[] logProbability, double[] below) {}

    /** @throws IllegalArgumentException if phi is not {@code [B, D]} or has a non-finite value (naming the row) */
    DecoderRows(DecoderHead head, INDArray phi) {
        Checks.rows("phi", phi, "D", head.inputWidth());
        ArrayChecks.finiteRows("phi", phi);
        this.w = new DecoderSnapshot(head);
        this.tok = head.tokenizer();
        this.phi = Host.doubles(phi);
        this.b = Math.toIntExact(phi.size(0));
        this.t = w.t;
        this.v = w.v;
    }

    /** A fresh key/value-cached decoder at position 0 for every row. */
    DecoderState start() {
        return DecoderState.start(w, phi, b);
    }

    /** Teacher-forced scores of one sequence per row ({@code tokens[r]}, T tokens each). */
    Scores score(int[][] tokens) {
        DecoderState s = start();
        double[] lp = new double[b];
        double[] below = new double[b];
        double[] path = new double[b];
        Arrays.fill(path, 1.0);
        double[] row = new double[v];
        int[] next = new int[b];
        for (int p = 0; p < t; p++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row);
                int tk = tokens[r][p];
                double before = 0;
                for (int k = 0; k < tk; k++) {
                    before += Math.exp(row[k]);
                }
                below[r] += path[r] * before;
                lp[r] += row[tk];
                path[r] *= Math.exp(row[tk]);
                next[r] = tk;
            }
            s.advance(next);
        }
        return new Scores(lp, below);
    }

    /**
     * Which y are in the support; the tokens of each (a placeholder leaf for y outside). Fixed-point digits: the
     * support is [0, 1]. Other tokenizers: {@code encode(y)} (which may refuse values outside its domain, e.g. a
     * tokenizer without overflow clamping), then y must lie in the interval of its own spelling (a clamped
     * overflow does not).
     */
    int[][] tokensOf(double[] y, boolean[] inside) {
        boolean ordered = tok instanceof FixedPointDigits;
        int[][] tk = new int[b][];
        int[] any = null;
        for (int r = 0; r < b; r++) {
            inside[r] = Double.isFinite(y[r]) && (!ordered || y[r] >= 0 && y[r] <= 1);
            if (inside[r]) {
                tk[r] = tok.encode(y[r]);
                Interval iv = tok.interval(tk[r]);
                inside[r] = iv.contains(y[r]) || y[r] == iv.hi();
                any = tk[r];
            }
        }
        for (int r = 0; r < b; r++) {
            if (tk[r] == null) {
                tk[r] = any != null ? any : tok.encode(ordered ? 0.0 : 1.0);
            }
        }
        return tk;
    }

    /**
     * {@code log density(y)} of Y given Y finite by one teacher-forced pass along the tokens of y: {@code log P(tokens)
     * - log width - log P(finite)}; {@code -Infinity} outside the support.
     *
     * @param finite P(Y finite) per row
     */
    double[] scoredLogDensity(double[] y, double[] finite) {
        boolean[] inside = new boolean[b];
        int[][] tk = tokensOf(y, inside);
        double[] lp = score(tk).logProbability();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = inside[r] ? lp[r] - Math.log(tok.interval(tk[r]).width()) - Math.log(finite[r])
                    : Double.NEGATIVE_INFINITY;
        }
        return out;
    }
}
