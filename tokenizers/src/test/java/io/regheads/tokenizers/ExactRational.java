package io.regheads.tokenizers;

import java.math.BigInteger;

/**
 * Naive exact rational arithmetic for test references: a non-negative value {@code num / den}. Written
 * independently of the production rounding code (no shared helpers).
 */
record ExactRational(BigInteger num, BigInteger den) {

    static ExactRational ofDouble(double x) {
        x = Math.abs(x);
        if (x == 0) {
            return new ExactRational(BigInteger.ZERO, BigInteger.ONE);
        }
        // x = mantissa * 2^exp exactly, via Math.getExponent/scalb (independent of raw bit fiddling)
        int exp = Math.max(Math.getExponent(x), Double.MIN_EXPONENT) - 52;
        long mant = (long) Math.scalb(x, -exp);
        if (exp >= 0) {
            return new ExactRational(BigInteger.valueOf(mant).shiftLeft(exp), BigInteger.ONE);
        }
        return new ExactRational(BigInteger.valueOf(mant), BigInteger.ONE.shiftLeft(-exp));
    }

    /** n * base^p. */
    static ExactRational of(long n, int base, int p) {
        BigInteger b = BigInteger.valueOf(base);
        if (p >= 0) {
            return new ExactRational(BigInteger.valueOf(n).multiply(b.pow(p)), BigInteger.ONE);
        }
        return new ExactRational(BigInteger.valueOf(n), b.pow(-p));
    }

    int compareTo(ExactRational o) {
        return num.multiply(o.den).compareTo(o.num.multiply(den));
    }

    /** |this - o|. */
    ExactRational distance(ExactRational o) {
        BigInteger a = num.multiply(o.den).subtract(o.num.multiply(den)).abs();
        return new ExactRational(a, den.multiply(o.den));
    }

    ExactRational half() {
        return new ExactRational(num, den.shiftLeft(1));
    }
}
