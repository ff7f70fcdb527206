package io.regheads.tokenizers.internal;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import java.math.BigInteger;

/**
 * Exact rounding of a double to {@code M} significant base-{@code B} digits within an exponent range, shared by the
 * unnormalized tokenizer and the text number encodings.
 *
 * <p><b>Representable set.</b> Zero and {@code +-n * B^(e - M + 1)} with the integer mantissa {@code n} in
 * {@code [B^(M-1), B^M)} and the exponent {@code e} in {@code [minExponent, maxExponent]}; in scientific notation
 * {@code n * B^(e-M+1) = (m1.m2...mM)_B * B^e}. The resolution (quantum) at exponent e is {@code q = B^(e-M+1)}.
 *
 * <p><b>Rounding.</b> {@link #round(double)} returns the representable value nearest to |y|, ties away from zero
 * (round half up on the magnitude), with carry into the exponent ({@code 9.9996e2 -> 1.000e3} for B=10, M=4).
 * Magnitudes above the largest value clamp to it (round to nearest, with the top cell extended to infinity).
 * Below the smallest normal {@code B^minExponent} the nearest of {0, B^minExponent} is taken: |y| below half of
 * it goes to zero, from half of it up to the smallest normal (ties away from zero again). The decision is exact:
 * a double estimate with a proven error bound, and exact {@link BigInteger} arithmetic whenever the estimate lies
 * within that bound of a rounding boundary (exact ties, near-ties).
 *
 * <p><b>Worked example.</b> B=10, M=4: 1.23456789e-222 -> n=1235, e=-222 (1234.56789 rounds up); 999.96 -> n=1000,
 * e=3 (carry); 1000 -> n=1000, e=3 (exact powers of B stay exact); 0.00125 with M=2 -> n=13, e=-3 (a tie in
 * decimal but 0.00125 is slightly above it in binary, so the exact decision is "up").
 *
 * <p>Requirements: {@code 2 <= B <= 4096}, {@code M >= 1}, {@code B^M <= 2^45} (so that every mantissa is far
 * inside double precision and decode/re-encode is the identity), {@code minExponent <= maxExponent}, and the range
 * must hold normal, finite doubles: {@code B^minExponent >= Double.MIN_NORMAL}, {@code B^(maxExponent+1)} finite.
 * Use {@link #doubleMinExponent(int)} and {@link #doubleMaxExponent(int)} for the widest legal range.
 *
 * <p>Immutable and thread-safe.
 */
public final class SignificantDigits {
    /** Largest supported base (the vocabulary of a tokenizer grows with it). */
    public static final int MAX_BASE = 4096;
    /** {@code B^M} must not exceed this (2^45), see the class comment. */
    public static final long MAX_MANTISSA_RANGE = 1L << 45;
    /** Relative error bound of {@link #scaled} (4 ulp of 1 is 8.9e-16; this keeps a margin). */
    private static final double REL_ERR = 2e-15;

    private final int base;
    private final int digits;
    private final int minExponent;
    private final int maxExponent;
    private final long lowMantissa;  // B^(M-1)
    private final long highMantissa; // B^M
    private final int baseLog2;      // j if B = 2^j, else -1
    private final double[] exactPowers; // B^i for all i with B^i exactly a double
    private final BigInteger[] bigPowers; // B^i for i in [0, maxPower]
    private final double invLogBase;
    private final BigInteger bigBase;
    private final double smallestValue;
    // B^s = (powHi[i] + powLo[i]) * 2^powShift[i] for s = i + sMin, a double-double with powHi in [1, 2)
    private final int sMin;
    private final double[] powHi;
    private final double[] powLo;
    private final int[] powShift;

    /**
     * @param base        B in [2, 4096]
     * @param digits      M >= 1 with B^M &lt;= 2^45
     * @param minExponent smallest exponent (B^minExponent >= Double.MIN_NORMAL)
     * @param maxExponent largest exponent (B^(maxExponent+1) finite), >= minExponent
     * @throws IllegalArgumentException if any rule is broken (the message names it and the value)
     */
    public SignificantDigits(int base, int digits, int minExponent, int maxExponent) {
        Checks.inRange("base", base, 2, MAX_BASE);
        Checks.atLeast("digits", digits, 1);
        Checks.require(mantissaRange(base, digits) <= MAX_MANTISSA_RANGE,
                "base^digits must be <= 2^45, got %d^%d", base, digits);
        Checks.require(minExponent <= maxExponent,
                "minExponent must be <= maxExponent, got %d > %d", minExponent, maxExponent);
        Checks.require(minExponent >= doubleMinExponent(base),
                "minExponent must be >= %d for base %d (normal doubles), got %d", doubleMinExponent(base), base,
                minExponent);
        Checks.require(maxExponent <= doubleMaxExponent(base),
                "maxExponent must be <= %d for base %d (finite doubles), got %d", doubleMaxExponent(base), base,
                maxExponent);
        this.base = base;
        this.digits = digits;
        this.minExponent = minExponent;
        this.maxExponent = maxExponent;
        this.highMantissa = mantissaRange(base, digits);
        this.lowMantissa = highMantissa / base;
        this.baseLog2 = Integer.bitCount(base) == 1 ? Integer.numberOfTrailingZeros(base) : -1;
        this.invLogBase = 1.0 / Math.log(base);
        this.bigBase = BigInteger.valueOf(base);
        // exponents s = e - M + 1 of the quantum stay within [minExponent - M, maxExponent + 1] plus the range of
        // a double's own exponent (estimates during rounding), so this bounds every power used
        int maxPower = (int) Math.ceil(1100 / (Math.log(base) / Math.log(2))) + digits + 4;
        this.bigPowers = new BigInteger[maxPower + 1];
        bigPowers[0] = BigInteger.ONE;
        for (int i = 1; i <= maxPower; i++) {
            bigPowers[i] = bigPowers[i - 1].multiply(bigBase);
        }
        int count = 0;
        while (count <= maxPower && isExactDouble(bigPowers[count])) {
            count++;
        }
        this.exactPowers = new double[count];
        for (int i = 0; i < count; i++) {
            exactPowers[i] = bigPowers[i].doubleValue();
        }
        this.sMin = minExponent - digits + 1;
        int sCount = baseLog2 > 0 ? 0 : maxExponent - minExponent + 1; // powers of two need no table
        this.powHi = new double[sCount];
        this.powLo = new double[sCount];
        this.powShift = new int[sCount];
        for (int i = 0; i < sCount; i++) {
            int sp = i + sMin;
            BigInteger num = sp >= 0 ? power(sp) : BigInteger.ONE;
            BigInteger den = sp >= 0 ? BigInteger.ONE : power(-sp);
            int sh = num.bitLength() - den.bitLength();
            if (sh >= 0 ? num.compareTo(den.shiftLeft(sh)) < 0 : num.shiftLeft(-sh).compareTo(den) < 0) {
                sh--;
            }
            // x = num / den / 2^sh in [1, 2); hi = round(x) = H / 2^52; lo = round(x - hi)
            BigInteger n2 = sh >= 0 ? num : num.shiftLeft(-sh);
            BigInteger d2 = sh >= 0 ? den.shiftLeft(sh) : den;
            double hi = ratioToDouble(n2, d2);
            BigInteger bigH = BigInteger.valueOf((long) Math.scalb(hi, 52));
            BigInteger remNum = n2.shiftLeft(52).subtract(bigH.multiply(d2));
            BigInteger remDen = d2.shiftLeft(52);
            double lo = remNum.signum() == 0 ? 0.0
                    : Math.copySign(ratioToDouble(remNum.abs(), remDen), remNum.signum());
            powHi[i] = hi;
            powLo[i] = lo;
            powShift[i] = sh;
        }
        this.smallestValue = value(lowMantissa, minExponent);
    }

    /** Whether a positive integer is exactly representable as a double (at most 53 significant bits). */
    private static boolean isExactDouble(BigInteger x) {
        return x.bitLength() - x.getLowestSetBit() <= 53 && x.bitLength() <= 1024;
    }

    private BigInteger power(int p) {
        return p < bigPowers.length ? bigPowers[p] : bigBase.pow(p);
    }

    /** {@code B^M}, saturated at {@code Long.MAX_VALUE}. */
    public static long mantissaRange(int base, int digits) {
        long r = 1;
        for (int i = 0; i < digits; i++) {
            if (r > Long.MAX_VALUE / base) {
                return Long.MAX_VALUE;
            }
            r *= base;
        }
        return r;
    }

    /** The smallest e with {@code B^e >= Double.MIN_NORMAL}, e.g. -307 for B=10, -1022 for B=2. */
    public static int doubleMinExponent(int base) {
        Checks.inRange("base", base, 2, MAX_BASE);
        int e = 0;
        while (Math.pow(base, e - 1) >= Double.MIN_NORMAL) {
            e--;
        }
        return e;
    }

    /** The largest e with {@code B^(e+1)} finite, e.g. 307 for B=10, 1022 for B=2. */
    public static int doubleMaxExponent(int base) {
        Checks.inRange("base", base, 2, MAX_BASE);
        int e = 0;
        while (Double.isFinite(Math.pow(base, e + 2))) {
            e++;
        }
        return e;
    }

    /** B. */
    public int base() {
        return base;
    }

    /** M. */
    public int digits() {
        return digits;
    }

    /** The smallest exponent e of a non-zero value. */
    public int minExponent() {
        return minExponent;
    }

    /** The largest exponent e. */
    public int maxExponent() {
        return maxExponent;
    }

    /** {@code B^(M-1)}, the smallest integer mantissa. */
    public long lowMantissa() {
        return lowMantissa;
    }

    /** {@code B^M}, one above the largest integer mantissa. */
    public long highMantissa() {
        return highMantissa;
    }

    /**
     * A rounded magnitude: {@code mantissa * B^(exponent - M + 1)}; {@code mantissa == 0} (and exponent 0) for zero.
     */
    public record Rounded(long mantissa, int exponent) {
        /** Whether this is zero. */
        public boolean isZero() {
            return mantissa == 0;
        }
    }

    /**
     * Rounds |y| to the nearest representable magnitude (see the class comment).
     *
     * @param y any finite double (the sign is ignored; -0.0 and 0.0 give zero)
     * @throws IllegalArgumentException if y is NaN or infinite
     */
    public Rounded round(double y) {
        Checks.finite("y", y);
        double a = Math.abs(y);
        if (a == 0) {
            return new Rounded(0, 0);
        }
        int e = (int) Math.floor(Math.log(a) * invLogBase);
        long n = 0;
        for (int iter = 0; iter < 8; iter++) {
            int s = e - digits + 1;
            n = roundedQuotient(a, s);
            if (n > highMantissa) {
                e++;
            } else if (n == highMantissa) {
                n = lowMantissa;
                e++;
                break;
            } else if (n < lowMantissa) {
                e--;
            } else {
                break;
            }
        }
        if (n < lowMantissa || n >= highMantissa) { // unreachable: the log estimate is off by at most one
            throw new IllegalStateException("rounding of " + y + " did not converge");
        }
        if (e > maxExponent) {
            return new Rounded(highMantissa - 1, maxExponent);
        }
        if (e < minExponent) {
            // nearest of {0, B^minExponent}: compare 2a with B^minExponent, exactly only when close
            double ratio = 2 * a / smallestValue;
            boolean up = ratio > 1 + 1e-9 || (ratio >= 1 - 1e-9 && compare(a, BigInteger.ONE, minExponent, -1) >= 0);
            return up ? new Rounded(lowMantissa, minExponent) : new Rounded(0, 0);
        }
        return new Rounded(n, e);
    }

    /** {@code round_half_up(a / B^s)} for a > 0, exactly; saturates at Long.MAX_VALUE. */
    private long roundedQuotient(double a, int s) {
        double t = scaled(a, -s);
        double u = t + 0.5;
        double fl = Math.floor(u);
        double frac = u - fl;
        double err = t * REL_ERR + Math.ulp(t);
        if (frac > err && 1 - frac > err && fl < 0x1p62) {
            return (long) fl;
        }
        return exactRoundedQuotient(a, s);
    }

    private long exactRoundedQuotient(double a, int s) {
        long bits = Double.doubleToRawLongBits(a);
        int biased = (int) (bits >>> 52) & 0x7ff;
        long m = bits & 0xfffffffffffffL;
        int k;
        if (biased == 0) {
            k = -1074;
        } else {
            m |= 1L << 52;
            k = biased - 1075;
        }
        BigInteger num = BigInteger.valueOf(m);
        BigInteger den = BigInteger.ONE;
        if (k >= 0) {
            num = num.shiftLeft(k);
        } else {
            den = den.shiftLeft(-k);
        }
        if (s >= 0) {
            den = den.multiply(power(s));
        } else {
            num = num.multiply(power(-s));
        }
        BigInteger q = num.shiftLeft(1).add(den).divide(den.shiftLeft(1));
        return q.bitLength() < 63 ? q.longValue() : Long.MAX_VALUE;
    }

    /**
     * Exact comparison of a > 0 with {@code c * B^powB * 2^pow2}; returns the sign of {@code a - c*B^powB*2^pow2}.
     */
    private int compare(double a, BigInteger c, int powB, int pow2) {
        long bits = Double.doubleToRawLongBits(a);
        int biased = (int) (bits >>> 52) & 0x7ff;
        long m = bits & 0xfffffffffffffL;
        int k;
        if (biased == 0) {
            k = -1074;
        } else {
            m |= 1L << 52;
            k = biased - 1075;
        }
        BigInteger left = BigInteger.valueOf(m);
        BigInteger right = c;
        if (powB >= 0) {
            right = right.multiply(power(powB));
        } else {
            left = left.multiply(power(-powB));
        }
        int d = k - pow2;
        if (d >= 0) {
            left = left.shiftLeft(d);
        } else {
            right = right.shiftLeft(-d);
        }
        return left.compareTo(right);
    }

    /**
     * {@code x * B^p} in double: exact for power-of-two bases, correctly rounded while {@code B^|p| < 2^53},
     * otherwise within 4 ulp (two {@link Math#pow} calls of at most 1 ulp each, two products). x must be positive
     * and finite; the result must be a normal double.
     */
    public double scaled(double x, int p) {
        if (baseLog2 > 0) {
            return Math.scalb(x, baseLog2 * p);
        }
        if (p >= 0 && p < exactPowers.length) {
            return x * exactPowers[p];
        }
        if (p < 0 && -p < exactPowers.length) {
            return x / exactPowers[-p];
        }
        int shift = 0;
        if (x < Double.MIN_NORMAL) {
            x = Math.scalb(x, 64);
            shift = -64;
        }
        int ex = Math.getExponent(x);
        double x1 = Math.scalb(x, -ex); // [1, 2)
        int twos = ex + shift;          // x = x1 * 2^twos
        int p1 = p / 2;
        int p2 = p - p1;
        double log2b = Math.log(base) / Math.log(2);
        int s1 = (int) -Math.round(p1 * log2b);
        int s2 = (int) -Math.round(p2 * log2b);
        double f1 = Math.scalb(Math.pow(base, p1), s1);
        double f2 = Math.scalb(Math.pow(base, p2), s2);
        return Math.scalb(x1 * (f1 * f2), twos - s1 - s2);
    }

    /**
     * The value {@code n * B^(e - M + 1)} for an integer {@code 0 <= n < 2^53}, correctly rounded to the nearest
     * double (ties to even, like {@link Double#parseDouble}), so for example decoding the spelling of 1e-300 gives
     * exactly the double 1e-300. Uses one double product when {@code B^|s|} is an exact double, exact
     * {@link BigInteger} division otherwise.
     */
    public double value(long n, int e) {
        if (n == 0) {
            return 0.0;
        }
        int s = e - digits + 1;
        if (baseLog2 > 0 || Math.abs(s) < exactPowers.length) {
            return scaled((double) n, s);
        }
        int idx = s - sMin;
        if (idx >= 0 && idx < powHi.length && n < (1L << 53)) {
            // double-double product n * (hi + lo); fall back to exact arithmetic only if the result lies within
            // 2^-45 ulp of a rounding midpoint (the double-double error is about 2^-100 relative)
            double nd = n;
            double p = nd * powHi[idx];
            double err = Math.fma(nd, powHi[idx], -p);
            double tail = err + nd * powLo[idx];
            double r = p + tail;
            double rr = (p - r) + tail;
            double halfUlp = 0.5 * Math.ulp(r);
            boolean powerOfTwo = (Double.doubleToRawLongBits(r) & 0xfffffffffffffL) == 0;
            if (!powerOfTwo && Math.abs(Math.abs(rr) - halfUlp) > halfUlp * 0x1p-44) {
                return Math.scalb(r, powShift[idx]);
            }
        }
        BigInteger num = BigInteger.valueOf(n);
        BigInteger den = BigInteger.ONE;
        if (s >= 0) {
            num = num.multiply(power(s));
        } else {
            den = power(-s);
        }
        return ratioToDouble(num, den);
    }

    /** {@code num / den} (both positive) correctly rounded, ties to even; the result must be a normal double. */
    public static double ratioToDouble(BigInteger num, BigInteger den) {
        int shift = num.bitLength() - den.bitLength() - 55;
        BigInteger[] qr = shift >= 0 ? num.divideAndRemainder(den.shiftLeft(shift))
                : num.shiftLeft(-shift).divideAndRemainder(den);
        long q = qr[0].longValueExact(); // 55 or 56 bits
        boolean sticky = qr[1].signum() != 0;
        int extra = 64 - Long.numberOfLeadingZeros(q) - 53;
        long mant = q >>> extra;
        long rem = q & ((1L << extra) - 1);
        long half = 1L << (extra - 1);
        if (rem > half || (rem == half && (sticky || (mant & 1) == 1))) {
            mant++;
        }
        return Math.scalb((double) mant, shift + extra);
    }

    /** The resolution at exponent e: {@code B^(e - M + 1)}. */
    public double quantum(int e) {
        return scaled(1.0, e - digits + 1);
    }

    /** The smallest positive representable value {@code B^minExponent}. */
    public double smallest() {
        return value(lowMantissa, minExponent);
    }

    /** The largest representable value {@code (B^M - 1) * B^(maxExponent - M + 1)}. */
    public double largest() {
        return value(highMantissa - 1, maxExponent);
    }

    /**
     * The rounding cell of a positive representable value: the y with {@link #round} giving {@code (n, e)}.
     * Interior: {@code [v - q/2, v + q/2)}; at the start of a decade ({@code n = B^(M-1)}) the lower half-width is
     * {@code q/(2B)} (the quantum of the decade below); for the smallest value the cell starts at half of it; for
     * the largest value (whose true cell extends to infinity through clamping) the finite {@code [v - q/2, v + q/2)}
     * is returned so that densities stay finite.
     */
    public Interval cell(long n, int e) {
        if (n < lowMantissa || n >= highMantissa) {
            throw new IllegalArgumentException(
                    "mantissa must be in [" + lowMantissa + ", " + highMantissa + "), got " + n);
        }
        if (e < minExponent || e > maxExponent) {
            throw new IllegalArgumentException(
                    "exponent must be in [" + minExponent + ", " + maxExponent + "], got " + e);
        }
        double hi = 0.5 * value(2 * n + 1, e);
        if (hi == Double.POSITIVE_INFINITY) { // 2n+1 overflows near Double.MAX_VALUE: within an ulp is fine there
            hi = value(n, e) + 0.5 * quantum(e);
        }
        double lo;
        if (n > lowMantissa) {
            lo = 0.5 * value(2 * n - 1, e);
            if (lo == Double.POSITIVE_INFINITY) {
                lo = value(n, e) - 0.5 * quantum(e);
            }
        } else if (e > minExponent) {
            lo = 0.5 * value(2 * highMantissa - 1, e - 1);
        } else {
            lo = 0.5 * value(n, e);
        }
        return new Interval(lo, hi);
    }

    /** The rounding cell of zero: {@code [-B^minExponent / 2, B^minExponent / 2)}. */
    public Interval zeroCell() {
        double h = 0.5 * smallest();
        return new Interval(-h, h);
    }

    @Override
    public String toString() {
        return "SignificantDigits[base=" + base + ", digits=" + digits + ", exponents=[" + minExponent + ", "
                + maxExponent + "]]";
    }
}
