package io.regheads.losses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.LossValue;
import io.regheads.core.head.Targets;
import io.regheads.core.testing.GradientCheck;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Every token loss against the naive reference (values), finite differences (gradients), and the rules for masks,
 * IGNORE, non-number labels and float logits. Fixture: B = 2, T = 3, V = 8 with irregular, unsorted number values
 * and two text tokens.
 */
class TokenLossTest {
    static final int B = 2;
    static final int T = 3;
    static final int V = 8;
    static final double[] TOKEN_VALUES = {3.0, 0.0, Double.NaN, 7.5, 2.0, Double.NaN, 0.5, 7.0};
    // rows: number 2.0, text, IGNORE | number 0.5, number 7.0, text
    static final int[] TOKENS = {4, 2, Targets.IGNORE, 6, 7, 5};
    static final double[] VALUES = {2.3, Double.NaN, 1.0, 0.5, 6.2, Double.NaN};

    record Case(String label, Loss loss, NaiveTokenLosses.Kind kind, double param, double[] positionWeights) {
        @Override
        public String toString() {
            return label;
        }
    }

    static List<Case> cases() {
        double[] pw = {1.0, 0.1, 0.01};
        return List.of(
                new Case("ce", Losses.ce(), NaiveTokenLosses.Kind.CE, 0, null),
                new Case("gce(0.7)", Losses.gce(0.7), NaiveTokenLosses.Kind.GCE, 0.7, null),
                new Case("ntl-mse", Losses.ntlMse(), NaiveTokenLosses.Kind.MSE, 0, null),
                new Case("ntl-mae", Losses.ntlMae(), NaiveTokenLosses.Kind.MAE, 0, null),
                new Case("ntl-huber(0.5)", Losses.ntlHuber(0.5), NaiveTokenLosses.Kind.HUBER, 0.5, null),
                new Case("ntl-huber(50)", Losses.ntlHuber(50), NaiveTokenLosses.Kind.HUBER, 50, null),
                new Case("ntl-was", Losses.ntlWas(), NaiveTokenLosses.Kind.WAS, 0, null),
                new Case("ntl-was-cdf", Losses.ntlWasCdf(), NaiveTokenLosses.Kind.WAS_CDF_POINT, 0, null),
                new Case("ntl-was-cdf(gauss 0.8)", Losses.ntlWasCdf(TargetDistribution.gaussian(0.8)),
                        NaiveTokenLosses.Kind.WAS_CDF_GAUSS, 0.8, null),
                new Case("ntl-was place-weighted", Losses.ntlWas().withPositionWeights(pw),
                        NaiveTokenLosses.Kind.WAS, 0, pw),
                new Case("ce place-weighted", Losses.ce().withPositionWeights(pw), NaiveTokenLosses.Kind.CE, 0, pw));
    }

    static Stream<Arguments> variants() {
        return cases().stream().flatMap(c -> Stream.of(
                Arguments.of(c, false, false), Arguments.of(c, true, false),
                Arguments.of(c, false, true), Arguments.of(c, true, true)));
    }

    static double[][][] logits(long seed) {
        Random r = new Random(seed);
        double[][][] z = new double[B][T][V];
        for (double[][] a : z) {
            for (double[] row : a) {
                for (int j = 0; j < V; j++) {
                    row[j] = 1.5 * r.nextGaussian();
                }
            }
        }
        return z;
    }

    /** Masks id 3 and 5 at (0,0), ids 0 and 2 at (1,0); everything else valid. */
    static boolean[][][] mask() {
        boolean[][][] m = new boolean[B][T][V];
        for (boolean[][] a : m) {
            for (boolean[] row : a) {
                java.util.Arrays.fill(row, true);
            }
        }
        m[0][0][3] = false;
        m[0][0][5] = false;
        m[1][0][0] = false;
        m[1][0][2] = false;
        return m;
    }

    static INDArray maskArray(boolean[][][] m, DataType type) {
        double[][][] d = new double[B][T][V];
        for (int i = 0; i < B; i++) {
            for (int p = 0; p < T; p++) {
                for (int j = 0; j < V; j++) {
                    d[i][p][j] = m[i][p][j] ? 1 : 0;
                }
            }
        }
        return Nd4j.createFromArray(d).castTo(type);
    }

    static TokenLogits output(double[][][] z, boolean masked, DataType type) {
        return new TokenLogits(Nd4j.createFromArray(z).castTo(type), TOKEN_VALUES,
                masked ? maskArray(mask(), type) : null);
    }

    static Targets.Tokens targets(boolean withValues) {
        return new Targets.Tokens(TOKENS, withValues ? VALUES : null, B);
    }

    @ParameterizedTest(name = "{0} masked={1} values={2}")
    @MethodSource("variants")
    void valueMatchesNaiveReference(Case c, boolean masked, boolean withValues) {
        double[][][] z = logits(11);
        LossValue lv = c.loss().evaluate(output(z, masked, DataType.DOUBLE), targets(withValues));
        double expected = NaiveTokenLosses.value(c.kind(), c.param(), z, TOKEN_VALUES, masked ? mask() : null,
                TOKENS, withValues ? VALUES : null, c.positionWeights());
        assertEquals(expected, lv.value(), 1e-12 * Math.max(1, Math.abs(expected)), c.label());
        assertEquals(lv.value(), lv.perExample()[0] + lv.perExample()[1], 1e-12, "per-example sum");
        assertTrue(expected > 0, "fixture must make the loss non-trivial");
    }

    @ParameterizedTest(name = "{0} masked={1} values={2}")
    @MethodSource("variants")
    void gradientMatchesFiniteDifferences(Case c, boolean masked, boolean withValues) {
        TokenLogits out = output(logits(12), masked, DataType.DOUBLE);
        Targets.Tokens tg = targets(withValues);
        TokenLogits[] grad = new TokenLogits[1];
        GradientCheck.check(() -> c.loss().evaluate(out, tg).value(),
                () -> grad[0] = (TokenLogits) c.loss().evaluate(out, tg).gradient(),
                List.of(new GradientCheck.Variable("logits", out.logits(), () -> grad[0].logits())),
                GradientCheck.Tolerance.standard());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void maskedTokensAndIgnoredPositionsGetZeroGradient(Case c) {
        TokenLogits out = output(logits(13), true, DataType.DOUBLE);
        INDArray g = ((TokenLogits) c.loss().evaluate(out, targets(false)).gradient()).logits();
        assertEquals(0.0, g.getDouble(0, 0, 3));
        assertEquals(0.0, g.getDouble(0, 0, 5));
        assertEquals(0.0, g.getDouble(1, 0, 0));
        assertEquals(0.0, g.getDouble(1, 0, 2));
        for (int j = 0; j < V; j++) {
            assertEquals(0.0, g.getDouble(0, 2, j), "IGNORE position, token " + j);
        }
        double norm = 0;
        for (int j = 0; j < V; j++) {
            norm += Math.abs(g.getDouble(0, 0, j));
        }
        assertTrue(norm > 0, "number position has a gradient");
    }

    @Test
    void ntlTouchesOnlyNumberColumnsAtNumberPositions() {
        TokenLogits out = output(logits(14), false, DataType.DOUBLE);
        INDArray g = ((TokenLogits) Losses.ntlWas().evaluate(out, targets(false)).gradient()).logits();
        for (int row = 0; row < B * T; row++) {
            for (int j = 0; j < V; j++) {
                boolean numberPosition = TOKENS[row] != Targets.IGNORE && Double.isFinite(TOKEN_VALUES[TOKENS[row]]);
                double gj = g.getDouble(row / T, row % T, j);
                if (!numberPosition || Double.isNaN(TOKEN_VALUES[j])) {
                    assertEquals(0.0, gj, "row " + row + " token " + j);
                } else {
                    assertTrue(gj != 0, "row " + row + " token " + j);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void floatLogitsAgreeWithDouble(Case c) {
        double[][][] z = logits(15);
        LossValue d = c.loss().evaluate(output(z, true, DataType.DOUBLE), targets(true));
        LossValue f = c.loss().evaluate(output(z, true, DataType.FLOAT), targets(true));
        assertEquals(d.value(), f.value(), 1e-5 * Math.max(1, Math.abs(d.value())));
        INDArray gd = ((TokenLogits) d.gradient()).logits();
        INDArray gf = ((TokenLogits) f.gradient()).logits();
        assertEquals(DataType.FLOAT, gf.dataType());
        double diff = gd.sub(gf.castTo(DataType.DOUBLE)).amaxNumber().doubleValue();
        assertTrue(diff < 1e-5, "max |g_double - g_float| = " + diff);
    }

    @Test
    void anyMaskTypeAndNonContiguousLogitsGiveTheSameResult() {
        double[][][] z = logits(17);
        Loss loss = Losses.ce().plus(0.3, Losses.ntlWasCdf());
        TokenLogits reference = output(z, true, DataType.DOUBLE);
        LossValue expected = loss.evaluate(reference, targets(true));
        INDArray fOrder = Nd4j.create(DataType.DOUBLE, new long[] {B, T, V}, 'f').assign(reference.logits());
        for (TokenLogits variant : List.of(
                new TokenLogits(reference.logits(), TOKEN_VALUES, maskArray(mask(), DataType.BOOL)),
                new TokenLogits(reference.logits(), TOKEN_VALUES, maskArray(mask(), DataType.INT)),
                new TokenLogits(fOrder, TOKEN_VALUES, reference.validMask()))) {
            LossValue got = loss.evaluate(variant, targets(true));
            assertEquals(expected.value(), got.value(), 0.0);
            INDArray g = ((TokenLogits) got.gradient()).logits().dup('c');
            assertTrue(g.equals(((TokenLogits) expected.gradient()).logits()), "same gradient");
        }
        // a gradient buffer that is not c-order is accumulated through a copy: added into, not overwritten
        INDArray fGrad = Nd4j.create(DataType.DOUBLE, new long[] {B, T, V}, 'f').assign(1.0);
        loss.accumulate(reference, targets(true), 1.0, new TokenLogits(fGrad, TOKEN_VALUES, null), new double[B]);
        assertTrue(fGrad.sub(1.0).equalsWithEps(((TokenLogits) expected.gradient()).logits(), 1e-15),
                "added into the f-order buffer");
    }

    @Test
    void viewsAndChunkedBuffersReadTheRightElements() {
        INDArray big = Nd4j.createFromArray(logits(16)).reshape(B * T, V); // [6, 8]
        INDArray view = big.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(2, 6),
                org.nd4j.linalg.indexing.NDArrayIndex.all()); // rows 2..5, offset 16
        for (DataType type : new DataType[] {DataType.DOUBLE, DataType.FLOAT}) {
            INDArray v = type == DataType.DOUBLE ? view : big.castTo(type).get(
                    org.nd4j.linalg.indexing.NDArrayIndex.interval(2, 6), org.nd4j.linalg.indexing.NDArrayIndex.all());
            HostRows rows = HostRows.of("x", v, true, 3 * V); // 3 rows per block: blocks move
            double[] row = new double[V];
            for (int r = 0; r < 4; r++) {
                rows.read(r, row);
                for (int j = 0; j < V; j++) {
                    assertEquals(v.getDouble(r, j), row[j], 0.0);
                    assertEquals(v.getDouble(r, j), rows.get(r, j), 0.0);
                }
            }
            double before = v.getDouble(3, 5);
            rows.add(3, 5, 0.25);
            rows.flush();
            assertEquals(before + 0.25, v.getDouble(3, 5), 1e-6);
            double[] ones = new double[V];
            java.util.Arrays.fill(ones, 1.0);
            double before2 = v.getDouble(2, 1);
            rows.addScaled(2, 0.5, ones);
            rows.read(0, row); // moves the block away from row 2: the change is written back
            assertEquals(before2 + 0.5, v.getDouble(2, 1), 1e-6);
            assertEquals(before + 0.25, v.getDouble(3, 5), 1e-6);
        }
    }
}
