package io.regheads.losses;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.LossValue;
import io.regheads.core.head.Targets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Golden values from independent sources, identities between variants, composition, edge cases and errors. */
class GoldenAndRulesTest {
    static final double[] DIGITS = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    // golden values G1, G2: computed with numpy by src/test/resources/io/regheads/losses/golden/golden.py; its output
    // (golden-output.txt beside it) holds every value asserted below
    static final double[] G2_LOGITS = {0.1, -0.3, 0.7, 1.1, 0.0, 2.0, -1.0, 0.4, 0.9, -0.2, 1.5, 0.3};
    static final double[] G2_VALUES = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, Double.NaN, Double.NaN};

    static TokenLogits single(double[] logits, double[] tokenValues) {
        return new TokenLogits(Nd4j.createFromArray(logits).reshape(1, 1, logits.length), tokenValues, null);
    }

    static Targets.Tokens label(int token) {
        return new Targets.Tokens(new int[] {token}, null, 1);
    }

    static double value(Loss loss, TokenLogits out, Targets t) {
        return loss.evaluate(out, t).value();
    }

    @Test
    void goldenG1FromNtlossTestSuite() {
        // ntloss "positive logits" case: digits 0..3 finite, 4..9 at -inf, label 1
        double[] z = {0.5, 1.0, 1.2, 1.5, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        TokenLogits out = single(z, DIGITS);
        assertEquals(1.1449120640, value(Losses.ntlWas(), out, label(1)), 1e-9);
        assertEquals(0.7637660640, value(Losses.ntlMse(), out, label(1)), 1e-9);
        INDArray g = ((TokenLogits) Losses.ntlWas().evaluate(out, label(1)).gradient()).logits();
        assertEquals(0.0, g.getDouble(0, 0, 7), "a -inf logit has zero probability and zero gradient");
    }

    @Test
    void goldenG2AllLosses() {
        TokenLogits out = single(G2_LOGITS, G2_VALUES);
        Targets.Tokens y = label(7);
        assertEquals(2.8666197219, value(Losses.ce(), out, y), 1e-9);
        assertEquals(2.7713002881, value(Losses.ntlWas(), out, y), 1e-9);
        assertEquals(5.6142934844, value(Losses.ntlMse(), out, y), 1e-9);
        assertEquals(2.3694500384, value(Losses.ntlMae(), out, y), 1e-9);
        assertEquals(1.8694500384, value(Losses.ntlHuber(1.0), out, y), 1e-9);
        assertEquals(2.7713002881, value(Losses.ntlWasCdf(), out, y), 1e-9);
        // the reference adds 1e-8 to the Gaussian target's normaliser; we do not: agreement to 1e-6
        assertEquals(2.3555482222, value(Losses.ntlWasCdf(TargetDistribution.gaussian(1.0)), out, y), 1e-6);
        assertEquals(3.0328401682, value(Losses.gce(1.0), out, y), 1e-6);
    }

    @Test
    void goldenG2Gradients() {
        TokenLogits out = single(G2_LOGITS, G2_VALUES);
        double[] was = {0.2291910888, 0.1173007378, 0.2200995363, 0.1810219004, 0.0112157172, -0.2794949020,
            -0.0319564954};
        double[] mse = {1.1893262579, 0.6250619433, 1.2310953098, 1.1384056050, 0.1465407764, -0.6344299320,
            -0.1170821517};
        INDArray gw = ((TokenLogits) Losses.ntlWas().evaluate(out, label(7)).gradient()).logits();
        INDArray gm = ((TokenLogits) Losses.ntlMse().evaluate(out, label(7)).gradient()).logits();
        for (int j = 0; j < was.length; j++) {
            assertEquals(was[j], gw.getDouble(0, 0, j), 1e-9, "dWAS/dz " + j);
            assertEquals(mse[j], gm.getDouble(0, 0, j), 1e-9, "dMSE/dz " + j);
        }
        assertEquals(0.0, gw.getDouble(0, 0, 10), "text token");
    }

    @Test
    void wasCdfUsesValueSpacingNotRank() {
        // by hand: values {0, 1, 5}, q = 1/3 each, label value 1:
        // W1 = (|0-1| + |1-1| + |5-1|) / 3 = 5/3; the CDF form: |1/3 - 0| * 1 + |2/3 - 1| * 4 = 5/3
        // (rank space, as in the TUM code, would give 2/3)
        TokenLogits out = single(new double[] {0, 0, 0}, new double[] {0, 1, 5});
        assertEquals(5.0 / 3, value(Losses.ntlWasCdf(), out, label(1)), 1e-15);
        assertEquals(5.0 / 3, value(Losses.ntlWas(), out, label(1)), 1e-15);
    }

    @Test
    void wasCdfEqualsWasOnOneHotTargetsWithUnitSpacing() {
        Random r = new Random(3);
        int b = 4;
        int t = 5;
        int v = 13;
        double[] tokenValues = new double[v];
        Arrays.fill(tokenValues, Double.NaN);
        for (int d = 0; d < 10; d++) {
            tokenValues[2 + d] = d; // ids 2..11 are the digits; 0, 1, 12 text
        }
        double[] z = new double[b * t * v];
        for (int i = 0; i < z.length; i++) {
            z[i] = 2 * r.nextGaussian();
        }
        int[] tokens = new int[b * t];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = i % 4 == 3 ? 12 : 2 + r.nextInt(10);
        }
        TokenLogits out = new TokenLogits(Nd4j.createFromArray(z).reshape(b, t, v), tokenValues, null);
        Targets.Tokens y = new Targets.Tokens(tokens, null, b);
        LossValue was = Losses.ntlWas().evaluate(out, y);
        LossValue cdf = Losses.ntlWasCdf().evaluate(out, y);
        assertEquals(was.value(), cdf.value(), 1e-13);
        assertArrayEquals(was.perExample(), cdf.perExample(), 1e-13);
        INDArray gw = ((TokenLogits) was.gradient()).logits();
        INDArray gc = ((TokenLogits) cdf.gradient()).logits();
        assertTrue(gw.sub(gc).amaxNumber().doubleValue() < 1e-13, "gradients agree");
    }

    @Test
    void lambdaZeroLeavesCeUnchangedAndSumsAreFused() {
        TokenLogits out = TokenLossTest.output(TokenLossTest.logits(21), true, DataType.DOUBLE);
        Targets.Tokens y = TokenLossTest.targets(false);
        LossValue ce = Losses.ce().evaluate(out, y);
        LossValue ce0 = Losses.ce().plus(0.0, Losses.ntlMse()).evaluate(out, y);
        assertEquals(ce.value(), ce0.value(), 0.0);
        assertArrayEquals(ce.perExample(), ce0.perExample(), 0.0);
        assertTrue(((TokenLogits) ce.gradient()).logits().equals(((TokenLogits) ce0.gradient()).logits()));

        LossValue was = Losses.ntlWas().evaluate(out, y);
        LossValue sum = Losses.ce().plus(0.3, Losses.ntlWas()).evaluate(out, y);
        assertEquals(ce.value() + 0.3 * was.value(), sum.value(), 1e-12);
        INDArray expected = ((TokenLogits) ce.gradient()).logits()
                .add(((TokenLogits) was.gradient()).logits().mul(0.3));
        assertTrue(expected.sub(((TokenLogits) sum.gradient()).logits()).amaxNumber().doubleValue() < 1e-12);
        assertEquals("ce+0.3*ntl-was", Losses.ceWithNtlWas().name());
    }

    @Test
    void batchWithoutNumberPositionsContributesExactlyZero() {
        TokenLogits out = TokenLossTest.output(TokenLossTest.logits(22), false, DataType.DOUBLE);
        int[] text = {2, 5, Targets.IGNORE, 2, 5, Targets.IGNORE};
        for (Loss loss : new Loss[] {Losses.ntlMse(), Losses.ntlWas(), Losses.ntlWasCdf(), Losses.ntlHuber(1)}) {
            LossValue lv = loss.evaluate(out, new Targets.Tokens(text, null, 2));
            assertEquals(0.0, lv.value());
            assertArrayEquals(new double[2], lv.perExample());
            assertEquals(0.0, ((TokenLogits) lv.gradient()).logits().amaxNumber().doubleValue());
        }
        int[] ignored = new int[6];
        Arrays.fill(ignored, Targets.IGNORE);
        LossValue ce = Losses.ce().plus(0.3, Losses.ntlWas()).evaluate(out, new Targets.Tokens(ignored, null, 2));
        assertEquals(0.0, ce.value());
        assertEquals(0.0, ((TokenLogits) ce.gradient()).logits().amaxNumber().doubleValue());
    }

    @Test
    void ceStaysFiniteForHugeLogitGaps() {
        // ND4J's LogSoftMax returns -inf once gaps pass ~100 (measured on ND4J 1.0.0-M2.1); by hand:
        // -log p_1 = 1000 + log(1 + 2 exp(-1000)) = 1000 in double precision, and the gradient is (1, -1, 0) up to
        // exp(-1000)
        TokenLogits out = single(new double[] {1000, 0, 0}, new double[] {0, 1, 2});
        LossValue lv = Losses.ce().evaluate(out, label(1));
        assertEquals(1000.0, lv.value(), 1e-12);
        INDArray g = ((TokenLogits) lv.gradient()).logits();
        assertEquals(1.0, g.getDouble(0, 0, 0), 1e-12);
        assertEquals(-1.0, g.getDouble(0, 0, 1), 1e-12);
    }

    static void assertMessage(Executable e, String... parts) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        for (String p : parts) {
            assertTrue(ex.getMessage().contains(p), "message '" + ex.getMessage() + "' should contain '" + p + "'");
        }
    }

    @Test
    void badArgumentsNameArgumentRuleAndValue() {
        TokenLogits out = TokenLossTest.output(TokenLossTest.logits(23), true, DataType.DOUBLE);
        Targets.Tokens ok = TokenLossTest.targets(false);
        Loss was = Losses.ntlWas();
        assertMessage(() -> was.evaluate(out, new Targets.Values(new double[] {1, 2})), "Targets.Tokens", "Values");
        assertMessage(() -> was.evaluate(out, new Targets.Tokens(new int[] {4, 2, 8, 6, 7, 5}, null, 2)),
                "targets tokens", "[0, 8)", "got 8", "index 2");
        assertMessage(() -> Losses.ce().evaluate(out, new Targets.Tokens(new int[] {4, 2, -1, 6, 7, 5}, null, 2)),
                "targets tokens", "got -1");
        assertMessage(() -> was.evaluate(out, new Targets.Tokens(new int[] {4, 2}, null, 2)),
                "targets tokens must have length B * T = 6", "got 2");
        assertMessage(() -> was.accumulate(out, ok, 1.0, new TokenLogits(Nd4j.zeros(2, 3, 7), new double[7], null),
                new double[2]), "gradient logits must have shape [2, 3, 8]", "[2, 3, 7]");
        assertMessage(() -> was.accumulate(out, ok, Double.NaN, out.zerosLike(), new double[2]),
                "weight must be finite", "NaN");
        assertMessage(() -> was.accumulate(out, ok, 1.0, out.zerosLike(), new double[3]),
                "perExample must have length B = 2", "got 3");
        assertMessage(() -> Losses.ntlWas().withPositionWeights(new double[] {1, 2}).evaluate(out, ok),
                "positionWeights must have length T = 3", "got 2");
        assertMessage(() -> Losses.ntlWas().withPositionWeights(new double[] {1, -2, 0}),
                "position weights must be >= 0", "-2.0", "index 1");
        assertMessage(() -> Losses.ntlHuber(0), "delta must be > 0", "0.0");
        assertMessage(() -> Losses.gce(Double.NaN), "sigma must be > 0", "NaN");
        assertMessage(() -> Losses.gce(1.0, 0), "n must be in [1, 150]", "got 0");
        assertMessage(() -> Losses.ntlWasCdf(null), "target must not be null");
        assertMessage(() -> Losses.ce().evaluate(out, new Targets.Tokens(new int[] {3, 2, 1, 6, 7, 5}, null, 2)),
                "target token must be valid", "token 3", "(b=0, t=0)");
        assertMessage(() -> was.evaluate(out, new Targets.Tokens(TokenLossTest.TOKENS,
                new double[] {Double.POSITIVE_INFINITY, 0, 0, 0, 0, 0}, 2)), "targets values", "Infinity", "index 0");
        INDArray bad = out.logits().dup();
        bad.putScalar(new long[] {1, 1, 4}, Double.NaN);
        assertMessage(() -> Losses.ce().evaluate(new TokenLogits(bad, TokenLossTest.TOKEN_VALUES, null), ok),
                "logits must be finite", "(b=1, t=1)", "NaN");
        INDArray ints = Nd4j.zeros(DataType.INT, 2, 3, 8);
        assertMessage(() -> Losses.ce().evaluate(new TokenLogits(ints, TokenLossTest.TOKEN_VALUES, null), ok),
                "logits must be FLOAT or DOUBLE", "INT");
        GaussianMixture mix = new GaussianMixture(Nd4j.zeros(2, 1), Nd4j.zeros(2, 1), Nd4j.ones(2, 1));
        assertMessage(() -> Losses.ce().evaluate(mix, ok), "ce on GaussianMixture needs Targets.Values", "Tokens");
        assertMessage(() -> Losses.ntlWas().evaluate(mix,
                new Targets.Values(new double[] {1, 2, 3})), "targets y must have length B = 2", "got 3");
        GaussianMixture negative = new GaussianMixture(Nd4j.zeros(2, 1), Nd4j.zeros(2, 1),
                Nd4j.createFromArray(new double[][] {{1}, {-0.5}}));
        assertMessage(() -> Losses.ce().evaluate(negative, new Targets.Values(new double[] {1, 2})),
                "stds must be > 0", "-0.5", "[1, 0]");
        assertMessage(() -> Losses.ce().accumulate(mix, new Targets.Values(new double[] {1, 2}), 1.0,
                out.zerosLike(), new double[2]), "gradient must be GaussianMixture", "TokenLogits");
    }
}
