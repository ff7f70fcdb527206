package io.regheads.tokenizers.text;

import io.regheads.core.check.Checks;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The xVal text encoding (Golkar et al., "xVal: A Continuous Number Encoding for Large Language Models"): every
 * number of a string (found by {@link NumberParser}) becomes one {@code [NUM]} token and its value goes to a separate
 * list; the rest of the text is tokenized by characters ({@link CharVocabulary}). A model multiplies the embedding
 * of each {@code [NUM]} by its value ({@link XValEncoding#numberInputs()}).
 *
 * <p><b>Decode</b> puts the values back as text ({@link #format(double)}: the shortest decimal that parses back to
 * the same double, without exponent for {@code 1e-4 <= |v| < 1e15}, trailing zeros removed), so
 * {@code decode(encode(s))} re-encodes to the same tokens and values, and equals s whenever s writes its numbers in
 * that form.
 *
 * <p><b>Worked example</b>: {@code {"a": 1.5, "b": [-2, 30000.0]}} -> text {@code {"a": [NUM], "b": [[NUM],
 * [NUM]]}} (21 tokens) and values {@code [1.5, -2.0, 30000.0]}; decoded back to
 * {@code {"a": 1.5, "b": [-2, 30000]}}.
 *
 * <p>Multi-scale variant ({@link #multiScale}): paper-only, not in the reference code; implemented to the formula
 * {@code sum_{i in [-k, k]} tanh(x 10^i) [NUM_i]}. Stateless and thread-safe.
 */
public final class XValCodec {
    private XValCodec() {}

    /**
     * Encodes a string.
     *
     * @throws IllegalArgumentException if text is null or holds a number that overflows a double
     */
    public static XValEncoding encode(String text) {
        List<NumberSpan> spans = NumberParser.find(text);
        List<Integer> tokens = new ArrayList<>(text.length());
        double[] values = new double[spans.size()];
        int at = 0;
        int k = 0;
        for (NumberSpan span : spans) {
            for (int i = at; i < span.start(); i++) {
                tokens.add(CharVocabulary.id(text.charAt(i)));
            }
            tokens.add(CharVocabulary.NUM);
            values[k++] = span.value();
            at = span.end();
        }
        for (int i = at; i < text.length(); i++) {
            tokens.add(CharVocabulary.id(text.charAt(i)));
        }
        return new XValEncoding(tokens.stream().mapToInt(Integer::intValue).toArray(), values);
    }

    /** The text of an encoding, numbers written by {@link #format(double)}. */
    public static String decode(XValEncoding encoding) {
        Checks.notNull("encoding", encoding);
        int[] tokens = encoding.tokens();
        double[] values = encoding.values();
        StringBuilder sb = new StringBuilder();
        int k = 0;
        for (int t : tokens) {
            sb.append(t == CharVocabulary.NUM ? format(values[k++]) : CharVocabulary.text(t));
        }
        return sb.toString();
    }

    /**
     * A number as text: the shortest decimal that parses to the same double ({@link Double#toString}), in plain
     * notation without trailing zeros for {@code 1e-4 <= |v| < 1e15} and zero (e.g. {@code 30000.0 -> "30000"},
     * {@code -2.0 -> "-2"}, {@code 1.5 -> "1.5"}), else in scientific notation ({@code 1.0E-5}). -0.0 gives "0".
     *
     * @throws IllegalArgumentException if v is not finite
     */
    public static String format(double v) {
        Checks.finite("v", v);
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 1e-4 && a < 1e15) {
            return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
        }
        return Double.toString(v);
    }

    /**
     * The multi-scale xVal coefficients {@code tanh(x * 10^i)} for {@code i = -k..k} (index {@code i + k}).
     *
     * @param x a finite value
     * @param k {@code >= 0}
     * @return {@code [2k + 1]}
     * @throws IllegalArgumentException if x is not finite or k is negative
     */
    public static double[] multiScale(double x, int k) {
        Checks.finite("x", x);
        Checks.atLeast("k", k, 0);
        double[] c = new double[2 * k + 1];
        for (int i = -k; i <= k; i++) {
            c[i + k] = Math.tanh(x * Math.pow(10, i));
        }
        return c;
    }
}
