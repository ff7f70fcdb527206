package io.regheads.app.cli;

/**
 * Writes doubles with a fixed number of significant digits, fast: the value scaled by one power of ten and rounded
 * to a long, then placed as a plain decimal ({@code 1e-4 <= |v| < 1e9}) or in scientific notation ({@code
 * 1.23456789E-7}), trailing zeros dropped. Within one unit of the last digit of the correctly rounded decimal (the
 * scaling multiplies once, so it can tip a tie); Java parses the text back to within {@code 10^(1 - digits)}
 * relative. NaN and infinities as {@link Double#toString}. Stateless.
 *
 * <p>Why: {@link Double#toString} (17 digits) dominated {@code regheads predict}'s time per row, and a float model's
 * predictions carry about 7 significant digits; 9 keep every float distinct.
 */
final class DecimalFormatter {
    private static final double[] POW10 = new double[23];
    private static final long[] LPOW10 = new long[19];

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
        long q = 1;
        for (int i = 0; i < LPOW10.length; i++) {
            LPOW10[i] = q;
            q *= 10;
        }
    }

    private DecimalFormatter() {}

    /**
     * Appends {@code v} with {@code digits} significant digits (1..15).
     *
     * @return sb
     */
    static StringBuilder append(StringBuilder sb, double v, int digits) {
        if (!Double.isFinite(v)) {
            return sb.append(v);
        }
        if (v == 0) {
            return sb.append(Double.doubleToRawLongBits(v) < 0 ? "-0" : "0");
        }
        if (v < 0) {
            sb.append('-');
            v = -v;
        }
        int e = (int) Math.floor(Math.log10(v)); // decimal exponent of the first digit (may be off by one)
        int shift = digits - 1 - e;
        long m = Math.round(scale(v, shift));
        if (m >= LPOW10[digits]) { // log10 rounded up, or rounding carried into a new digit
            e++;
            shift--;
            m = Math.round(scale(v, shift));
        } else if (m < LPOW10[digits - 1]) { // log10 rounded down
            e--;
            shift++;
            m = Math.round(scale(v, shift));
        }
        if (m >= LPOW10[digits]) { // 9.99...95 rounding up to 10.0...0
            m /= 10;
            e++;
            shift--;
        }
        int frac = shift; // digits after the decimal point in plain notation
        if (e >= -4 && e < 9) {
            if (frac <= 0) { // an integer: m * 10^-frac
                sb.append(m);
                for (int i = 0; i < -frac; i++) {
                    sb.append('0');
                }
                return sb;
            }
            long intPart = m / LPOW10[frac];
            long fracPart = m % LPOW10[frac];
            sb.append(intPart);
            if (fracPart != 0) {
                sb.append('.');
                appendFraction(sb, fracPart, frac);
            }
            return sb;
        }
        // scientific: d.ddddE<e>
        long lead = m / LPOW10[digits - 1];
        long rest = m % LPOW10[digits - 1];
        sb.append(lead);
        if (rest != 0) {
            sb.append('.');
            appendFraction(sb, rest, digits - 1);
        }
        return sb.append('E').append(e);
    }

    /** {@code f} as exactly {@code width} digits with leading zeros, trailing zeros dropped. */
    private static void appendFraction(StringBuilder sb, long f, int width) {
        while (f % 10 == 0) {
            f /= 10;
            width--;
        }
        for (int w = width - 1; w >= 1 && f < LPOW10[w]; w--) {
            sb.append('0');
        }
        sb.append(f);
    }

    /** {@code v * 10^shift}, one rounding when |shift| <= 22 (two beyond). */
    private static double scale(double v, int shift) {
        if (shift >= 0) {
            return shift <= 22 ? v * POW10[shift] : v * POW10[22] * Math.pow(10, shift - 22);
        }
        return -shift <= 22 ? v / POW10[-shift] : v / POW10[22] / Math.pow(10, -shift - 22);
    }
}
