package io.regheads.app.arith;

import io.regheads.core.check.Checks;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Seeded generators of the two arithmetic tasks.
 *
 * <p><b>Expressions</b> (xVal paper, appendix B): a random binary tree over n operands (n uniform in [minOperands,
 * maxOperands], 2..4), each inner node one of {@code +, -, *} (uniform), every node parenthesised, operators between
 * spaces: {@code ((1.32 * 3.21) + (1.42 - 8.20))}. The tree is drawn by splitting the operands at a uniform point
 * recursively. Operands have three significant digits, {@code k / 100} with k uniform over the allowed integers:
 * in distribution {@code [1.00, 3.99] U [5.00, 9.99]}; out of distribution every operand from the held-out band
 * {@code [4.00, 4.99]} (a gap inside the training range: interpolation for a continuous encoding, unseen leading
 * digits for a text encoding). The label is the exact value (BigDecimal) rounded half-up to three significant
 * digits, so the decoders' 3-digit mantissa spells it exactly; exact match compares predictions rounded the same way.
 *
 * <p><b>Multiplication</b> (NTL paper, section 4.4 and Table 5, scaled down): {@code a*b} written in digits without
 * spaces, each factor with d digits (d uniform in 1..3, the factor uniform among d-digit integers) in training and the
 * in-distribution test; out of distribution one factor (random side) has 4 digits and the other 1..4. The label is
 * the exact product.
 *
 * <p>Train and test sets are drawn with different seeds from the same distribution, and a test set drawn with the
 * training set's problems as {@code exclude} holds none of them: a draw that repeats an excluded problem is
 * replaced by the next draw (the small multiplications repeat often: about 1 in 9 training problems has two
 * one-digit factors, of which there are only 81).
 *
 * <p>Stateless and thread-safe.
 */
public final class ArithmeticTask {

    /** Which population to draw from. */
    public enum Split {
        /** Training distribution. */
        TRAIN,
        /** Fresh draws from the training distribution. */
        TEST_IN,
        /** The held-out distribution (operand band [4.00, 4.99], or 4-digit factors). */
        TEST_OUT
    }

    /**
     * One problem.
     *
     * @param text  the expression
     * @param value the label, finite
     */
    public record Example(String text, double value) {
        /** @throws IllegalArgumentException on a null text or non-finite value */
        public Example {
            Checks.notNull("text", text);
            Checks.finite("value", value);
        }
    }

    private ArithmeticTask() {}

    /**
     * Expressions with 2..4 operands.
     *
     * @param n           >= 1 examples
     * @param minOperands in [2, 4]
     * @param maxOperands in [minOperands, 4]
     * @throws IllegalArgumentException on an argument out of range
     */
    public static List<Example> expressions(int n, Split split, int minOperands, int maxOperands, long seed) {
        return expressions(n, split, minOperands, maxOperands, seed, Set.of());
    }

    /**
     * As {@link #expressions(int, Split, int, int, long)}, none of whose texts is in {@code exclude}.
     *
     * @throws IllegalStateException if 1000 n draws do not give n problems outside {@code exclude}
     */
    public static List<Example> expressions(int n, Split split, int minOperands, int maxOperands, long seed,
            Set<String> exclude) {
        Checks.atLeast("n", n, 1);
        Checks.notNull("split", split);
        Checks.inRange("minOperands", minOperands, 2, 4);
        Checks.inRange("maxOperands", maxOperands, minOperands, 4);
        Checks.notNull("exclude", exclude);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed * 3 + split.ordinal());
        List<Example> out = new ArrayList<>(n);
        for (long draws = 0; out.size() < n; draws++) {
            checkDraws(draws, n, exclude);
            int ops = minOperands + rng.nextInt(maxOperands - minOperands + 1);
            BigDecimal[] value = new BigDecimal[1];
            String text = tree(ops, split, rng, value);
            BigDecimal r = value[0].signum() == 0 ? BigDecimal.ZERO : value[0].round(new MathContext(3, RoundingMode.HALF_UP));
            if (!exclude.contains(text)) {
                out.add(new Example(text, r.doubleValue()));
            }
        }
        return out;
    }

    private static String tree(int ops, Split split, UniformRandomProvider rng, BigDecimal[] value) {
        if (ops == 1) {
            int k;
            if (split == Split.TEST_OUT) {
                k = 400 + rng.nextInt(100);
            } else {
                k = 100 + rng.nextInt(800); // 100..899 mapped around the band
                if (k >= 400) {
                    k += 100;
                }
            }
            value[0] = BigDecimal.valueOf(k, 2);
            return value[0].toPlainString();
        }
        int left = 1 + rng.nextInt(ops - 1);
        BigDecimal[] a = new BigDecimal[1];
        BigDecimal[] b = new BigDecimal[1];
        String l = tree(left, split, rng, a);
        String r = tree(ops - left, split, rng, b);
        int op = rng.nextInt(3);
        String sym;
        if (op == 0) {
            sym = "+";
            value[0] = a[0].add(b[0]);
        } else if (op == 1) {
            sym = "-";
            value[0] = a[0].subtract(b[0]);
        } else {
            sym = "*";
            value[0] = a[0].multiply(b[0]);
        }
        return "(" + l + " " + sym + " " + r + ")";
    }

    /**
     * Multiplications {@code a*b}.
     *
     * @param n >= 1 examples
     * @throws IllegalArgumentException if n < 1 or split is null
     */
    public static List<Example> multiplications(int n, Split split, long seed) {
        return multiplications(n, split, seed, Set.of());
    }

    /**
     * As {@link #multiplications(int, Split, long)}, none of whose texts is in {@code exclude}.
     *
     * @throws IllegalStateException if 1000 n draws do not give n problems outside {@code exclude}
     */
    public static List<Example> multiplications(int n, Split split, long seed, Set<String> exclude) {
        Checks.atLeast("n", n, 1);
        Checks.notNull("split", split);
        Checks.notNull("exclude", exclude);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed * 3 + split.ordinal() + 1_000_003);
        List<Example> out = new ArrayList<>(n);
        for (long draws = 0; out.size() < n; draws++) {
            checkDraws(draws, n, exclude);
            long a;
            long b;
            if (split == Split.TEST_OUT) {
                long four = factor(4, rng);
                long other = factor(1 + rng.nextInt(4), rng);
                boolean swap = rng.nextBoolean();
                a = swap ? other : four;
                b = swap ? four : other;
            } else {
                a = factor(1 + rng.nextInt(3), rng);
                b = factor(1 + rng.nextInt(3), rng);
            }
            String text = a + "*" + b;
            if (!exclude.contains(text)) {
                out.add(new Example(text, (double) (a * b)));
            }
        }
        return out;
    }

    private static void checkDraws(long draws, int n, Set<String> exclude) {
        if (draws >= 1000L * n) {
            throw new IllegalStateException(draws + " draws gave fewer than " + n + " problems outside the "
                    + exclude.size() + " excluded ones");
        }
    }

    /** A uniform d-digit integer (1..9 for d = 1). */
    private static long factor(int digits, UniformRandomProvider rng) {
        long lo = digits == 1 ? 1 : (long) Math.pow(10, digits - 1);
        long hi = (long) Math.pow(10, digits) - 1;
        return lo + rng.nextLong(hi - lo + 1);
    }

    /** v rounded half-up to three significant digits (0 stays 0); the rule exact match uses for expressions. */
    public static double round3(double v) {
        Checks.finite("v", v);
        if (v == 0) {
            return 0;
        }
        return BigDecimal.valueOf(v).round(new MathContext(3, RoundingMode.HALF_UP)).doubleValue();
    }
}
