package io.regheads.tokenizers.text;

/**
 * How the parts of a number written as {@code +-ddd E+-x} (three significant digits, integer mantissa 100..999,
 * exponent x in [-8, 8]) are grouped into tokens, after Charton (2022) as used in the xVal paper (Table 1, example
 * -6.02e1 = {@code -602 E-1}).
 *
 * <table>
 *   <caption>Schemes (our vocabulary sizes; the paper's in brackets)</caption>
 *   <tr><th>scheme</th><th>tokens of -60.2</th><th>T</th><th>V</th></tr>
 *   <tr><td>P10</td><td>{@code [-, 6, 0, 2, E-1]}</td><td>5</td><td>29 [28]</td></tr>
 *   <tr><td>P1000</td><td>{@code [-, 602, E-1]}</td><td>3</td><td>1019 [918]</td></tr>
 *   <tr><td>B1999</td><td>{@code [-602, E-1]}</td><td>2</td><td>1818 [1816]</td></tr>
 *   <tr><td>FP15</td><td>{@code [-602E-1]}</td><td>1</td><td>30601 [28800]</td></tr>
 * </table>
 *
 * <p>The vocabulary sizes differ from the paper's because we spell zero ({@code + 0 0 0 E+0}, P1000 token
 * {@code 000}, B1999 token {@code +000}, FP15 token {@code +000E+0}) and count all 17 exponents E-8..E+8 (the
 * paper's sizes imply 16), and P1000 keeps the never-allowed tokens {@code 001..099} so that token id minus 2 is
 * the three-digit value.
 */
public enum ChartonScheme {
    /** Sign, three digit tokens, exponent token: 5 tokens per number. */
    P10(5),
    /** Sign, one three-digit token, exponent token: 3 tokens per number. */
    P1000(3),
    /** Signed three-digit token, exponent token: 2 tokens per number. */
    B1999(2),
    /** One token per number. */
    FP15(1);

    private final int tokensPerNumber;

    ChartonScheme(int tokensPerNumber) {
        this.tokensPerNumber = tokensPerNumber;
    }

    /** T, the number of tokens per number. */
    public int tokensPerNumber() {
        return tokensPerNumber;
    }
}
