package io.regheads.losses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.LossValue;
import io.regheads.core.head.Targets;
import io.regheads.core.testing.GradientCheck;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * NTL on decoder outputs with place values, as an unnormalized base-4 tokenizer with E = 1, M = 2 lays them out:
 * positions {@code <s> <se> e m1 m2}, places {@code [NaN, NaN, NaN, 1, 1/4]}; tokens 0..3 digits, 4 and 5 signs
 * (value NaN). Against a naive reference (plain loops from the definitions) and finite differences (double).
 */
class DecoderNtlTest {
    static final int B = 3;
    static final int T = 5;
    static final int V = 6;
    static final double[] VALUES = {0, 1, 2, 3, Double.NaN, Double.NaN};
    static final double[] PLACES = {Double.NaN, Double.NaN, Double.NaN, 1, 0.25};
    // + - 1 3 2 (3.5 * 4^-1) | + + 2 1 0 (1.0 * 4^2) | - + 0 2 3 (-2.75)
    static final int[] TOKENS = {4, 5, 1, 3, 2, 4, 4, 2, 1, 0, 5, 4, 0, 2, 3};

    enum Mode { DIGITS, ALL, PLACE, NUMBER }

    record Case(String label, Loss loss, boolean was, Penalty f, Mode mode) {
        @Override
        public String toString() {
            return label;
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("ntl-was", Losses.ntlWas(), true, null, Mode.DIGITS),
                new Case("ntl-was:all", Losses.ntlWas().onAllDigits(), true, null, Mode.ALL),
                new Case("ntl-was:place", Losses.ntlWas().placeWeighted(), true, null, Mode.PLACE),
                new Case("ntl-mse:place", Losses.ntlMse().placeWeighted(), false, Penalty.squared(), Mode.PLACE),
                new Case("ntl-mse:number", Losses.ntlMse().numberLevel(), false, Penalty.squared(), Mode.NUMBER),
                new Case("ntl-mae:number", Losses.ntlMae().numberLevel(), false, Penalty.absolute(), Mode.NUMBER),
                new Case("ntl-huber(0.3):number", Losses.ntlHuber(0.3).numberLevel(), false, Penalty.huber(0.3),
                        Mode.NUMBER),
                new Case("ce+0.3*ntl-was:place", Losses.ce().plus(0.3, Losses.ntlWas().placeWeighted()), true, null,
                        null));
    }

    static double[][][] logits(long seed) {
        Random r = new Random(seed);
        double[][][] z = new double[B][T][V];
        for (double[][] a : z) {
            for (double[] row : a) {
                for (int j = 0; j < V; j++) {
                    row[j] = 1.2 * r.nextGaussian();
                }
            }
        }
        return z;
    }

    /** Mask as the tokenizer would: signs at 0-1, digits after; m1 != 0 except on row 2 (no further masking). */
    static boolean[][][] mask() {
        boolean[][][] m = new boolean[B][T][V];
        for (int i = 0; i < B; i++) {
            for (int p = 0; p < T; p++) {
                for (int j = 0; j < V; j++) {
                    m[i][p][j] = p < 2 ? j >= 4 : j < 4;
                }
            }
            m[i][3][0] = false;
        }
        return m;
    }

    static TokenLogits output(double[][][] z) {
        boolean[][][] m = mask();
        double[][][] d = new double[B][T][V];
        for (int i = 0; i < B; i++) {
            for (int p = 0; p < T; p++) {
                for (int j = 0; j < V; j++) {
                    d[i][p][j] = m[i][p][j] ? 1 : 0;
                }
            }
        }
        return new TokenLogits(Nd4j.createFromArray(z), VALUES, Nd4j.createFromArray(d), PLACES);
    }

    /** Masked softmax over the valid digit tokens at (i, p), indexed by token id (0 elsewhere). */
    static double[] q(double[][][] z, int i, int p) {
        boolean[][][] m = mask();
        double s = 0;
        double[] q = new double[V];
        for (int j = 0; j < 4; j++) {
            if (m[i][p][j]) {
                q[j] = Math.exp(z[i][p][j]);
                s += q[j];
            }
        }
        for (int j = 0; j < 4; j++) {
            q[j] /= s;
        }
        return q;
    }

    /** Naive reference straight from the definitions (NumberTokenLoss class comment). */
    static double naive(Case c, double[][][] z) {
        if (c.mode() == null) { // ce + 0.3 ntl-was:place
            double ce = 0;
            int n = 0;
            boolean[][][] m = mask();
            for (int i = 0; i < B; i++) {
                for (int p = 0; p < T; p++) {
                    double s = 0;
                    for (int j = 0; j < V; j++) {
                        s += m[i][p][j] ? Math.exp(z[i][p][j]) : 0;
                    }
                    ce -= z[i][p][TOKENS[i * T + p]] - Math.log(s);
                    n++;
                }
            }
            return ce / n + 0.3 * naive(new Case("", null, true, null, Mode.PLACE), z);
        }
        if (c.mode() == Mode.NUMBER) {
            double sum = 0;
            for (int i = 0; i < B; i++) {
                double yHat = 0;
                double y = 0;
                for (int p = 3; p < T; p++) {
                    double[] q = q(z, i, p);
                    double e = 0;
                    for (int j = 0; j < 4; j++) {
                        e += q[j] * j;
                    }
                    yHat += PLACES[p] * e;
                    y += PLACES[p] * TOKENS[i * T + p];
                }
                sum += c.f().value(yHat - y);
            }
            return sum / B;
        }
        double num = 0;
        double den = 0;
        for (int i = 0; i < B; i++) {
            for (int p = 2; p < T; p++) { // the digit positions: exponent (2) and mantissa (3, 4)
                if (p == 2 && c.mode() != Mode.ALL) {
                    continue;
                }
                double w = c.mode() == Mode.PLACE ? PLACES[p] : 1;
                double[] q = q(z, i, p);
                double y = TOKENS[i * T + p];
                double l;
                if (c.was()) {
                    l = 0;
                    for (int j = 0; j < 4; j++) {
                        l += q[j] * Math.abs(y - j);
                    }
                } else {
                    double e = 0;
                    for (int j = 0; j < 4; j++) {
                        e += q[j] * j;
                    }
                    l = c.f().value(e - y);
                }
                num += w * l;
                den += w;
            }
        }
        return num / den;
    }

    static Stream<Case> all() {
        return cases().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void valueMatchesNaiveReference(Case c) {
        double[][][] z = logits(5);
        LossValue lv = c.loss().evaluate(output(z), new Targets.Tokens(TOKENS, null, B));
        double expected = naive(c, z);
        assertTrue(expected > 0, "fixture must make the loss non-trivial");
        assertEquals(expected, lv.value(), 1e-12 * Math.max(1, expected), c.label());
        double sum = 0;
        for (double e : lv.perExample()) {
            sum += e;
        }
        assertEquals(lv.value(), sum, 1e-12, "per-example sum");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void gradientMatchesFiniteDifferences(Case c) {
        TokenLogits out = output(logits(6));
        Targets.Tokens tg = new Targets.Tokens(TOKENS, null, B);
        TokenLogits[] grad = new TokenLogits[1];
        GradientCheck.check(() -> c.loss().evaluate(out, tg).value(),
                () -> grad[0] = (TokenLogits) c.loss().evaluate(out, tg).gradient(),
                List.of(new GradientCheck.Variable("logits", out.logits(), () -> grad[0].logits())),
                GradientCheck.Tolerance.standard());
    }

    /**
     * The default NTL leaves the exponent digit (position 2) alone: no gradient there; {@code all} acts on it.
     * Normalized digits (all places finite) are unaffected by the default; without places nothing changes.
     */
    @Test
    void exponentDigitsAreLeftAloneUnlessAsked() {
        TokenLogits out = output(logits(7));
        Targets.Tokens tg = new Targets.Tokens(TOKENS, null, B);
        TokenLogits g = (TokenLogits) Losses.ntlWas().evaluate(out, tg).gradient();
        TokenLogits gAll = (TokenLogits) Losses.ntlWas().onAllDigits().evaluate(out, tg).gradient();
        double onExp = 0;
        double onExpAll = 0;
        for (int i = 0; i < B; i++) {
            for (int j = 0; j < V; j++) {
                onExp += Math.abs(g.logits().getDouble(i, 2, j));
                onExpAll += Math.abs(gAll.logits().getDouble(i, 2, j));
            }
        }
        assertEquals(0.0, onExp);
        assertTrue(onExpAll > 0);
        // places [1/4, 1/16] on all positions: the default equals the plain per-digit NTL without places
        double[][][] z = logits(8);
        TokenLogits plain = new TokenLogits(Nd4j.createFromArray(z), VALUES, null);
        TokenLogits placed = new TokenLogits(Nd4j.createFromArray(z), VALUES, null, new double[] {1, 0.5, 0.25, 0.1, 0.01});
        Targets.Tokens digits = new Targets.Tokens(new int[] {1, 2, 3, 0, 1, 2, 2, 2, 3, 0, 0, 0, 1, 1, 1}, null, B);
        assertEquals(Losses.ntlWas().evaluate(plain, digits).value(), Losses.ntlWas().evaluate(placed, digits).value(),
                1e-15);
        // place weights without places: refused for T > 1
        assertThrows(IllegalArgumentException.class, () -> Losses.ntlWas().placeWeighted().evaluate(plain, digits));
        assertThrows(IllegalArgumentException.class, () -> Losses.ntlMse().numberLevel().evaluate(plain, digits));
        assertThrows(IllegalArgumentException.class, () -> Losses.ntlWas().numberLevel());
    }

    /** Number-level NTL with one-hot predictions at the label has value 0 and no gradient; off by one ulp of m2: 1/16. */
    @Test
    void numberLevelByHand() {
        double[][][] z = new double[B][T][V];
        for (int i = 0; i < B; i++) {
            for (int p = 0; p < T; p++) {
                z[i][p][TOKENS[i * T + p]] = 60; // softmax ~ one-hot
            }
        }
        LossValue exact = Losses.ntlMse().numberLevel().evaluate(output(z), new Targets.Tokens(TOKENS, null, B));
        assertEquals(0.0, exact.value(), 1e-20);
        z[0][4][2] = 0;
        z[0][4][3] = 60; // row 0's m2 says 3 instead of 2: the significand is off by 1/4, squared 1/16, mean over 3
        LossValue off = Losses.ntlMse().numberLevel().evaluate(output(z), new Targets.Tokens(TOKENS, null, B));
        assertEquals(1.0 / 16 / 3, off.value(), 1e-15);
    }
}
