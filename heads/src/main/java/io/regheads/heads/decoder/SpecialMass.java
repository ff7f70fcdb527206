package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import java.util.Arrays;

/**
 * P(NaN), P(+Inf) and P(-Inf) per row of a decoder whose tokenizer spells them ({@link
 * io.regheads.core.token.NumberTokenizer#hasSpecialTokens()}): the probability of each special spelling ({@code
 * encode(NaN)}, ...), one teacher-forced pass each, computed on first use; zeros for other tokenizers. Every summary
 * but the vote table's describes Y given Y finite, dividing by {@link #finite()}. Immutable; thread-safe.
 */
final class SpecialMass {
    private final int b;
    private final Once<double[][]> masses; // [3][B]

    SpecialMass(DecoderRows rows) {
        this.b = rows.b;
        this.masses = new Once<>(() -> compute(rows));
    }

    private static double[][] compute(DecoderRows rows) {
        double[][] sp = new double[3][rows.b];
        if (rows.tok.hasSpecialTokens()) {
            double[] which = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
            for (int k = 0; k < 3; k++) {
                int[][] seq = new int[rows.b][];
                Arrays.fill(seq, rows.tok.encode(which[k]));
                double[] lp = rows.score(seq).logProbability();
                for (int r = 0; r < rows.b; r++) {
                    sp[k][r] = Math.exp(lp[r]);
                }
            }
        }
        return sp;
    }

    /** {@code [3][B]}: P(NaN), P(+Inf), P(-Inf) per row (shared: do not modify). */
    double[][] get() {
        return masses.get();
    }

    /**
     * P(Y finite) per row, the mass the finite part is divided by (1 without special tokens).
     *
     * @throws IllegalArgumentException naming a row whose whole mass is on NaN/Inf tokens
     */
    double[] finite() {
        double[][] sp = get();
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = 1 - sp[0][r] - sp[1][r] - sp[2][r];
            Checks.require(out[r] > 0, "row %d: the model puts all its mass on NaN/Inf tokens: the finite part has no"
                    + " distribution", r);
        }
        return out;
    }
}
