package io.regheads.app.arith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.arith.ArithmeticBenchmark.Metrics;
import io.regheads.app.arith.ArithmeticBenchmark.Task;
import io.regheads.app.arith.ArithmeticTask.Example;
import io.regheads.app.arith.ArithmeticTask.Split;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ArithmeticTaskTest {

    /** An independent recursive-descent evaluator of fully parenthesised expressions; collects the operands. */
    static final class Parser {
        final String s;
        int at;
        final List<BigDecimal> operands = new ArrayList<>();

        Parser(String s) {
            this.s = s;
        }

        BigDecimal expr() {
            if (s.charAt(at) == '(') {
                at++;
                BigDecimal a = expr();
                assertEquals(' ', s.charAt(at++));
                char op = s.charAt(at++);
                assertEquals(' ', s.charAt(at++));
                BigDecimal b = expr();
                assertEquals(')', s.charAt(at++));
                return op == '+' ? a.add(b) : op == '-' ? a.subtract(b) : a.multiply(b);
            }
            int start = at;
            while (at < s.length() && (Character.isDigit(s.charAt(at)) || s.charAt(at) == '.')) {
                at++;
            }
            BigDecimal v = new BigDecimal(s.substring(start, at));
            operands.add(v);
            return v;
        }
    }

    @Test
    void expressionsEvaluateToTheirLabelsAndRespectTheOperandRanges() {
        for (Split split : Split.values()) {
            List<Example> ex = ArithmeticTask.expressions(300, split, 2, 4, 5);
            int[] counts = new int[5];
            for (Example e : ex) {
                Parser p = new Parser(e.text());
                BigDecimal v = p.expr();
                assertEquals(e.text().length(), p.at, e.text());
                BigDecimal want = v.signum() == 0 ? BigDecimal.ZERO : v.round(new MathContext(3, RoundingMode.HALF_UP));
                assertEquals(want.doubleValue(), e.value(), 0.0, e.text());
                counts[p.operands.size()]++;
                for (BigDecimal o : p.operands) {
                    double d = o.doubleValue();
                    assertEquals(2, o.scale(), e.text());
                    boolean band = d >= 4.0 && d < 5.0;
                    assertTrue(d >= 1.0 && d < 10.0, e.text());
                    assertEquals(split == Split.TEST_OUT, band, e.text());
                }
            }
            assertTrue(counts[2] > 50 && counts[3] > 50 && counts[4] > 50, java.util.Arrays.toString(counts));
        }
        assertEquals(ArithmeticTask.expressions(5, Split.TRAIN, 2, 4, 5), ArithmeticTask.expressions(5, Split.TRAIN, 2,
                4, 5));
        assertNotEquals(ArithmeticTask.expressions(5, Split.TRAIN, 2, 4, 5), ArithmeticTask.expressions(5,
                Split.TEST_IN, 2, 4, 5));
    }

    /**
     * The benchmark's test sets hold no training problem: without the exclusion, more than a tenth of the
     * in-distribution multiplications (many with two one-digit factors) repeat a training one; with it, none, in
     * either task.
     */
    @Test
    void testProblemsAreNeverTrainingProblems() {
        for (ArithmeticBenchmark.Task task : ArithmeticBenchmark.Task.values()) {
            ArithmeticBenchmark.Config c = task == ArithmeticBenchmark.Task.EXPRESSIONS
                    ? ArithmeticBenchmark.Config.expressions(3000, 1000, 1, 7)
                    : ArithmeticBenchmark.Config.multiplication(3000, 1000, 1, 7);
            List<Example> train = ArithmeticBenchmark.data(c, Split.TRAIN, c.trainSize(), Set.of());
            Set<String> seen = train.stream().map(Example::text).collect(Collectors.toSet());
            List<Example> overlapping = ArithmeticBenchmark.data(c, Split.TEST_IN, c.testSize(), Set.of());
            long repeats = overlapping.stream().filter(e -> seen.contains(e.text())).count();
            if (task == ArithmeticBenchmark.Task.MULTIPLICATION) {
                assertTrue(repeats > 100, "the unrestricted draw repeats training problems: " + repeats);
            }
            for (Split split : new Split[] {Split.TEST_IN, Split.TEST_OUT}) {
                List<Example> test = ArithmeticBenchmark.data(c, split, c.testSize(), seen);
                assertEquals(c.testSize(), test.size());
                assertTrue(test.stream().noneMatch(e -> seen.contains(e.text())), task + " " + split);
            }
        }
        assertThrows(IllegalStateException.class, () -> ArithmeticTask.multiplications(10, Split.TRAIN, 1,
                new java.util.AbstractSet<String>() { // every problem excluded
                    public boolean contains(Object o) {
                        return true;
                    }

                    public java.util.Iterator<String> iterator() {
                        return java.util.Collections.emptyIterator();
                    }

                    public int size() {
                        return Integer.MAX_VALUE;
                    }
                }));
    }

    @Test
    void multiplicationsHaveTheRightDigitCounts() {
        for (Split split : Split.values()) {
            for (Example e : ArithmeticTask.multiplications(300, split, 2)) {
                String[] f = e.text().split("\\*");
                long a = Long.parseLong(f[0]);
                long b = Long.parseLong(f[1]);
                assertEquals((double) (a * b), e.value(), 0.0);
                int la = f[0].length();
                int lb = f[1].length();
                assertTrue(a > 0 && b > 0);
                if (split == Split.TEST_OUT) {
                    assertTrue(Math.max(la, lb) == 4, e.text());
                } else {
                    assertTrue(la <= 3 && lb <= 3, e.text());
                }
            }
        }
    }

    @Test
    void metricsMatchAHandComputation() {
        // y = [1, 2, 3, 4], pred = [1, 2.5, 3, 3]: mean 2.5, SS_res 1.25, SS_tot 5 -> R^2 0.75; MAE 1.5 / 4;
        // exact 2 of 4; MAPE (0.5/2 + 1/4) / 4 = 12.5 %.
        Metrics m = ArithmeticBenchmark.metrics(new double[] {1, 2, 3, 4}, new double[] {1, 2.5, 3, 3},
                Task.EXPRESSIONS);
        assertEquals(0.75, m.r2(), 1e-12);
        assertEquals(0.375, m.mae(), 1e-12);
        assertEquals(0.5, m.exact(), 1e-12);
        assertEquals(12.5, m.mape(), 1e-12);
        // Rounding: 2.3449 -> 2.34 (3 significant digits) matches the label 2.34; products round to integers.
        assertEquals(1.0, ArithmeticBenchmark.metrics(new double[] {2.34}, new double[] {2.3449}, Task.EXPRESSIONS)
                .exact());
        assertEquals(1.0, ArithmeticBenchmark.metrics(new double[] {56088}, new double[] {56087.6},
                Task.MULTIPLICATION).exact());
        assertEquals(2.35, ArithmeticTask.round3(2.345), 0.0);
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> ArithmeticTask.expressions(0, Split.TRAIN, 2, 4, 1));
        assertThrows(IllegalArgumentException.class, () -> ArithmeticTask.expressions(5, Split.TRAIN, 3, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> ArithmeticTask.expressions(5, Split.TRAIN, 2, 5, 1));
        assertThrows(IllegalArgumentException.class, () -> ArithmeticBenchmark.metrics(new double[] {1},
                new double[] {1, 2}, Task.EXPRESSIONS));
        assertThrows(IllegalArgumentException.class, () -> ArithmeticBenchmark.run(
                ArithmeticBenchmark.Config.multiplication(100, 10, 1, 0), List.of(ArithmeticBenchmark.Variant.XVAL),
                io.regheads.core.train.ProgressListener.none()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ArithmeticBenchmark.run(
                ArithmeticBenchmark.Config.multiplication(100, 10, 1, 0),
                List.of(ArithmeticBenchmark.Variant.XVAL_MULTISCALE), io.regheads.core.train.ProgressListener.none()));
        assertEquals("variant XVAL_MULTISCALE applies to EXPRESSIONS only, got task MULTIPLICATION", e.getMessage());
    }
}
