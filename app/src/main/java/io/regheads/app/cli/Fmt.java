package io.regheads.app.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * Numbers for the tables of the command line: a fixed number of significant digits whatever the units of y, so that
 * a target near 1e-4 and one near 3e4 both read well. With 4 digits: {@code 0.0001234}, {@code -1.980}, {@code
 * 0.8665}, {@code 1235} ({@code %.4g} from 1e-4 to below 1e4); integers from 1e4 to below 1e9 ({@code 30955}); {@code
 * %.3e} beyond ({@code 1.349e+63}, {@code 2.300e-05}); {@code inf}, {@code -inf} and {@code nan} for the non-finite.
 * Stateless and thread-safe.
 */
final class Fmt {
    private Fmt() {}

    /** {@code v} with 4 significant digits (see the class description). */
    static String sig(double v) {
        return sig(v, 4);
    }

    /**
     * {@code v} with {@code digits} significant digits: plain decimal from 1e-4 to below {@code 10^digits}, an
     * integer from there to below 1e9, scientific notation beyond.
     *
     * @param digits 1 to 15
     */
    static String sig(double v, int digits) {
        if (Double.isNaN(v)) {
            return "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return String.format(Locale.ROOT, "%." + digits + "g", 0.0);
        }
        // rounded first, so that 9999.6 is 1.000e+04's plain form and not a rolled-over %g
        double r = new BigDecimal(v).round(new MathContext(digits)).doubleValue();
        double a = Math.abs(r);
        if (a >= 1e-4 && a < Math.pow(10, digits)) {
            return String.format(Locale.ROOT, "%." + digits + "g", r);
        }
        if (a >= Math.pow(10, digits) && a < 1e9) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, "%." + (digits - 1) + "e", r);
    }

    /** A share as a percentage in its shortest plain form: 0.1 gives 10, 0.125 gives 12.5. */
    static String percent(double share) {
        return Double.isFinite(share) ? BigDecimal.valueOf(share).movePointRight(2).stripTrailingZeros().toPlainString()
                : Double.toString(share);
    }

    /** A setting such as a learning rate in its shortest plain form: 0.001, 0.0005, 20, 0.1. */
    static String plain(double v) {
        return Double.isFinite(v) ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : Double.toString(v);
    }
}
