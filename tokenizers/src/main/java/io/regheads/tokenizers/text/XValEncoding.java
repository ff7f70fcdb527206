package io.regheads.tokenizers.text;

import io.regheads.core.check.Checks;

/**
 * A text in the xVal encoding: character tokens with one {@link CharVocabulary#NUM} per number, and the numbers'
 * values in order ({@code values.length} = number of NUM tokens).
 *
 * @param tokens {@code [L]} ids of {@link CharVocabulary}
 * @param values {@code [count of NUM]} the numbers, finite
 */
public record XValEncoding(int[] tokens, double[] values) {
    /** Validates the ids and the value count, and copies both arrays. */
    public XValEncoding {
        Checks.notNull("tokens", tokens);
        Checks.allFinite("values", values);
        int count = 0;
        for (int t : tokens) {
            Checks.require(t >= 0 && t < CharVocabulary.SIZE, "tokens must be in [0, %d), got %d",
                    CharVocabulary.SIZE, t);
            if (t == CharVocabulary.NUM) {
                count++;
            }
        }
        Checks.require(count == values.length, "values must have one entry per [NUM] token (%d), got %d", count,
                values.length);
        tokens = tokens.clone();
        values = values.clone();
    }

    /** {@return a copy of the token ids} */
    @Override
    public int[] tokens() {
        return tokens.clone();
    }

    /** {@return a copy of the number values} */
    @Override
    public double[] values() {
        return values.clone();
    }

    /**
     * The per-token number input of the xVal embedding {@code h = E[token] * x_num}: the value at each NUM token, 1
     * elsewhere (as in the reference code).
     *
     * @return {@code [L]}
     */
    public double[] numberInputs() {
        double[] x = new double[tokens.length];
        int k = 0;
        for (int i = 0; i < tokens.length; i++) {
            x[i] = tokens[i] == CharVocabulary.NUM ? values[k++] : 1.0;
        }
        return x;
    }
}
