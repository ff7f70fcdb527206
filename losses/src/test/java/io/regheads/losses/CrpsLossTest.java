package io.regheads.losses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.QuantileKnots;
import io.regheads.core.head.Scalar;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.loss.Loss;
import io.regheads.core.loss.LossValue;
import io.regheads.core.head.Targets;
import io.regheads.core.testing.GradientCheck;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.stream.Stream;
import org.apache.commons.numbers.gamma.Erfc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.factory.Nd4j;

/**
 * CRPS and pinball losses: gradients by finite differences, values against numerical integration of {@code (F(z) -
 * 1{z >= y})^2} with each output's cdf written out here independently, and the variants against each other.
 */
class CrpsLossTest {

    // ------------------------------------------------------------------ independent cdfs and the integral

    static double normalCdf(double z) {
        return 0.5 * Erfc.value(-z / Math.sqrt(2));
    }

    /**
     * {@code int_lo^hi (F(z) - 1{z >= y})^2 dz} by Simpson's rule with 4000 panels between consecutive breakpoints
     * (the cdf is smooth between them), lo and hi far enough out that the rest is below 1e-12.
     */
    static double integral(DoubleUnaryOperator cdf, double y, double lo, double hi, double... breaks) {
        double[] pts = java.util.stream.DoubleStream.concat(Arrays.stream(breaks), java.util.stream.DoubleStream.of(lo,
                hi, y)).filter(v -> v >= lo && v <= hi).sorted().distinct().toArray();
        double total = 0;
        for (int k = 0; k + 1 < pts.length; k++) {
            double a = pts[k];
            double b = pts[k + 1];
            int n = 4000;
            double h = (b - a) / n;
            double s = 0;
            for (int i = 0; i <= n; i++) {
                double z = i == n ? b : a + i * h;
                // the step of the indicator sits on a breakpoint; inside a panel take the side of its midpoint
                double step = (a + b) / 2 >= y ? 1 : 0;
                double d = cdf.applyAsDouble(z) - step;
                s += (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2) * d * d;
            }
            total += s * h / 3;
        }
        return total;
    }

    static double mixtureCdf(double[] w, double[] mu, double[] s, double z) {
        double f = 0;
        for (int m = 0; m < w.length; m++) {
            f += w[m] * normalCdf((z - mu[m]) / s[m]);
        }
        return f;
    }

    /** A histogram's cdf: uniform bins, half-normal outer components where a scale is > 0. */
    static double histogramCdf(double[] e, double[] p, double sl, double sr, double z) {
        int v = p.length;
        double f = 0;
        for (int i = 0; i < v; i++) {
            double c;
            if (i == 0 && sl > 0) {
                c = z >= e[1] ? 1 : Erfc.value((e[1] - z) / (sl * Math.sqrt(2)));
            } else if (i == v - 1 && sr > 0) {
                c = z <= e[v - 1] ? 0 : 1 - Erfc.value((z - e[v - 1]) / (sr * Math.sqrt(2)));
            } else {
                c = Math.min(1, Math.max(0, (z - e[i]) / (e[i + 1] - e[i])));
            }
            f += p[i] * c;
        }
        return f;
    }

    /** The knots' cdf as QuantileKnots defines it, written out from the definition. */
    static double knotCdf(double[] t, double[] q, double z) {
        int n = t.length;
        double bl = t[0] * (q[1] - q[0]) / (t[1] - t[0]);
        double br = (1 - t[n - 1]) * (q[n - 1] - q[n - 2]) / (t[n - 1] - t[n - 2]);
        if (z < q[0]) {
            return t[0] * Math.exp((z - q[0]) / bl);
        }
        if (z >= q[n - 1]) {
            return 1 - (1 - t[n - 1]) * Math.exp(-(z - q[n - 1]) / br);
        }
        for (int i = 0; i + 1 < n; i++) {
            if (z < q[i + 1]) {
                return t[i] + (t[i + 1] - t[i]) * (z - q[i]) / (q[i + 1] - q[i]);
            }
        }
        throw new AssertionError();
    }

    static double[] softmax(double[] z) {
        double max = Arrays.stream(z).max().orElseThrow();
        double[] p = Arrays.stream(z).map(v -> Math.exp(v - max)).toArray();
        double s = Arrays.stream(p).sum();
        return Arrays.stream(p).map(v -> v / s).toArray();
    }

    static GaussianMixture mixture(double[] logits, double[] mu, double[] s) {
        return new GaussianMixture(Nd4j.createFromArray(new double[][] {logits}),
                Nd4j.createFromArray(new double[][] {mu}), Nd4j.createFromArray(new double[][] {s}));
    }

    static TokenLogits histogram(double[][] logits, double[] borders, double sl, double sr) {
        double[] centres = new double[borders.length - 1];
        for (int i = 0; i < centres.length; i++) {
            centres[i] = 0.5 * (borders[i] + borders[i + 1]);
        }
        double[][][] l = new double[logits.length][1][];
        for (int b = 0; b < logits.length; b++) {
            l[b][0] = logits[b];
        }
        return new TokenLogits(Nd4j.createFromArray(l), centres, null, null, new TokenLogits.Bins(borders, sl, sr));
    }

    static Targets.Tokens binTargets(double[] borders, double[] y) {
        int[] tokens = new int[y.length];
        for (int i = 0; i < y.length; i++) {
            int k = 0;
            while (k < borders.length - 2 && y[i] >= borders[k + 1]) {
                k++;
            }
            tokens[i] = k;
        }
        return new Targets.Tokens(tokens, y.clone(), y.length);
    }

    static QuantileKnots knots(double[] levels, double[][] q) {
        return new QuantileKnots(Nd4j.createFromArray(q), levels);
    }

    static double one(Loss loss, HeadOutput out, Targets t) {
        return loss.evaluate(out, t).value();
    }

    // ------------------------------------------------------------------ values against the integral

    static Stream<Arguments> mixtures() {
        return Stream.of(
                Arguments.of(new double[] {0}, new double[] {0}, new double[] {1}, 0.0),
                Arguments.of(new double[] {0}, new double[] {0.3}, new double[] {0.2}, -0.9),
                Arguments.of(new double[] {0.2, -0.5, 1.0}, new double[] {-1, 1.5, 0.2}, new double[] {0.8, 1.2, 0.1}, 0.3),
                Arguments.of(new double[] {0.2, -0.5, 1.0}, new double[] {-1, 1.5, 0.2}, new double[] {0.8, 1.2, 0.1}, 6.0));
    }

    @ParameterizedTest
    @MethodSource("mixtures")
    void mixtureCrpsMatchesTheIntegral(double[] logits, double[] mu, double[] s, double y) {
        double[] w = softmax(logits);
        double expected = integral(z -> mixtureCdf(w, mu, s, z), y, -30, 30, mu);
        double closed = one(Losses.crps(), mixture(logits, mu, s), new Targets.Values(new double[] {y}));
        assertEquals(expected, closed, 1e-9);
    }

    @Test
    void standardNormalGoldenValue() {
        // 2 phi(0) - 1 / sqrt(pi) = 1 / sqrt(2 pi) (2 - sqrt 2) (by hand)
        double exact = 2 / Math.sqrt(2 * Math.PI) - 1 / Math.sqrt(Math.PI);
        assertEquals(0.2336949772, exact, 1e-10);
        assertEquals(exact, one(Losses.crps(), mixture(new double[] {0}, new double[] {0}, new double[] {1}),
                new Targets.Values(new double[] {0})), 1e-15);
    }

    @Test
    void scalarIsTheGaussianWithVarianceOneHalf() {
        double[] yHat = {0.5, -1.0, 3.0, 0.2};
        double[] y = {0.0, 1.0, 3.5, 0.25};
        LossValue s = Losses.crps().evaluate(new Scalar(Nd4j.createFromArray(yHat)), new Targets.Values(y));
        double sd = Math.sqrt(0.5);
        double[][] mu = new double[4][1];
        double[][] sds = new double[4][1];
        for (int i = 0; i < 4; i++) {
            mu[i][0] = yHat[i];
            sds[i][0] = sd;
        }
        LossValue g = Losses.crps().evaluate(new GaussianMixture(Nd4j.zeros(4, 1).castTo(
                org.nd4j.linalg.api.buffer.DataType.DOUBLE), Nd4j.createFromArray(mu), Nd4j.createFromArray(sds)),
                new Targets.Values(y));
        assertEquals(g.value(), s.value(), 1e-15);
        for (int i = 0; i < 4; i++) {
            assertEquals(((GaussianMixture) g.gradient()).means().getDouble(i, 0),
                    ((Scalar) s.gradient()).values().getDouble(i), 1e-15);
        }
    }

    static Stream<Arguments> histograms() {
        double[] e = {0, 0.1, 0.35, 0.5, 0.8, 1.0};
        double[] z = {0.3, -0.4, 1.1, 0.2, -1.0};
        return Stream.of(
                Arguments.of(e, z, 0.0, 0.0, 0.42), Arguments.of(e, z, 0.0, 0.0, 0.0), Arguments.of(e, z, 0.0, 0.0, -0.3),
                Arguments.of(e, z, 0.0, 0.0, 1.4), Arguments.of(e, z, 0.148, 0.296, 0.42),
                Arguments.of(e, z, 0.148, 0.296, 0.05), Arguments.of(e, z, 0.148, 0.296, -0.6),
                Arguments.of(e, z, 0.148, 0.296, 0.9), Arguments.of(e, z, 0.148, 0.296, 2.5),
                Arguments.of(e, z, 0.148, 0.0, 1.2));
    }

    @ParameterizedTest
    @MethodSource("histograms")
    void histogramCrpsMatchesTheIntegral(double[] e, double[] logits, double sl, double sr, double y) {
        double[] p = softmax(logits);
        double expected = integral(z -> histogramCdf(e, p, sl, sr, z), y, -12, 13, e);
        TokenLogits out = histogram(new double[][] {logits}, e, sl, sr);
        assertEquals(expected, one(Losses.crps(), out, binTargets(e, new double[] {y})), 1e-9);
    }

    static Stream<Arguments> knotCases() {
        double[] t = {0.1, 0.3, 0.5, 0.9};
        double[] q = {-0.7, -0.2, 0.1, 0.9};
        return Stream.of(Arguments.of(t, q, 0.0), Arguments.of(t, q, -0.19), Arguments.of(t, q, -1.5),
                Arguments.of(t, q, 0.95), Arguments.of(t, q, 3.0), Arguments.of(t, q, 0.5),
                Arguments.of(new double[] {0.25, 0.75}, new double[] {-1, 1}, 0.0));
    }

    @ParameterizedTest
    @MethodSource("knotCases")
    void quantileCrpsMatchesTheIntegral(double[] t, double[] q, double y) {
        double expected = integral(z -> knotCdf(t, q, z), y, -40, 40, q);
        assertEquals(expected, one(Losses.crps(), knots(t, new double[][] {q}), new Targets.Values(new double[] {y})),
                1e-9);
    }

    @Test
    void quantileGoldenValuesByHand() {
        QuantileKnots k = knots(new double[] {0.25, 0.75}, new double[][] {{-1, 1}});
        Targets y = new Targets.Values(new double[] {0});
        assertEquals(17.0 / 48, one(Losses.crps(), k, y), 1e-15); // SciPy quad of (F - 1{z >= 0})^2: 0.3541666667
        LossValue pin = Losses.pinball().evaluate(k, y);
        assertEquals(0.25, pin.value(), 1e-15);
        assertEquals(-0.125, ((QuantileKnots) pin.gradient()).knots().getDouble(0, 0), 1e-15);
        assertEquals(0.125, ((QuantileKnots) pin.gradient()).knots().getDouble(0, 1), 1e-15);
    }

    // ------------------------------------------------------------------ gradients

    @Test
    void mixtureGradientsMatchFiniteDifferences() {
        GaussianMixture out = ContinuousLossTest.mixture(5, 3, 3);
        Targets y = new Targets.Values(new double[] {0.3, -1.7, 2.2});
        for (Loss loss : List.of(Losses.crps(), Losses.ce().plus(0.5, Losses.crps()))) {
            GaussianMixture[] g = new GaussianMixture[1];
            GradientCheck.check(() -> loss.evaluate(out, y).value(),
                    () -> g[0] = (GaussianMixture) loss.evaluate(out, y).gradient(),
                    List.of(new GradientCheck.Variable("weightLogits", out.weightLogits(), () -> g[0].weightLogits()),
                            new GradientCheck.Variable("means", out.means(), () -> g[0].means()),
                            new GradientCheck.Variable("stds", out.stds(), () -> g[0].stds())),
                    GradientCheck.Tolerance.standard());
        }
    }

    @Test
    void scalarGradientMatchesFiniteDifferences() {
        Scalar out = new Scalar(Nd4j.createFromArray(0.5, -1.0, 3.0, 0.2));
        Targets y = new Targets.Values(new double[] {0.0, 1.0, 3.5, 0.25});
        Scalar[] g = new Scalar[1];
        GradientCheck.check(() -> one(Losses.crps(), out, y), () -> g[0] = (Scalar) Losses.crps().evaluate(out, y).gradient(),
                List.of(new GradientCheck.Variable("values", out.values(), () -> g[0].values())),
                GradientCheck.Tolerance.standard());
    }

    @ParameterizedTest
    @MethodSource("histograms")
    void histogramGradientsMatchFiniteDifferences(double[] e, double[] logits, double sl, double sr, double y) {
        double[] other = Arrays.stream(logits).map(v -> -0.5 * v + 0.1).toArray();
        TokenLogits out = histogram(new double[][] {logits, other}, e, sl, sr);
        Targets t = binTargets(e, new double[] {y, 0.61});
        for (Loss loss : List.of(Losses.crps(), Losses.ce().plus(0.5, Losses.crps()))) {
            TokenLogits[] g = new TokenLogits[1];
            GradientCheck.check(() -> one(loss, out, t), () -> g[0] = (TokenLogits) loss.evaluate(out, t).gradient(),
                    List.of(new GradientCheck.Variable("logits", out.logits(), () -> g[0].logits())),
                    GradientCheck.Tolerance.noiseFloored());
        }
    }

    @ParameterizedTest
    @MethodSource("knotCases")
    void quantileGradientsMatchFiniteDifferences(double[] t, double[] q, double y) {
        double[] other = Arrays.stream(q).map(v -> 0.5 * v + 0.05).toArray();
        QuantileKnots out = knots(t, new double[][] {q, other});
        Targets ty = new Targets.Values(new double[] {y, 0.02});
        for (Loss loss : List.of(Losses.crps(), Losses.pinball(), Losses.pinball().plus(0.5, Losses.crps()))) {
            QuantileKnots[] g = new QuantileKnots[1];
            GradientCheck.check(() -> one(loss, out, ty), () -> g[0] = (QuantileKnots) loss.evaluate(out, ty).gradient(),
                    List.of(new GradientCheck.Variable("knots", out.knots(), () -> g[0].knots())),
                    GradientCheck.Tolerance.standard());
        }
    }

    // ------------------------------------------------------------------ variants against each other

    @Test
    void crpsGradientOfAKnotFarFromTheObservationIsTheScaledPinballGradient() {
        int l = 99;
        double[] t = new double[l];
        double[] q = new double[l];
        for (int i = 0; i < l; i++) {
            t[i] = (i + 1) / 100.0;
            q[i] = -2 + 4 * t[i] + 0.3 * Math.sin(7 * t[i]);
        }
        QuantileKnots out = knots(t, new double[][] {q});
        Targets y = new Targets.Values(new double[] {0.13}); // tau* between two knots near 0.5
        double[] crps = ((QuantileKnots) Losses.crps().evaluate(out, y).gradient()).knots().toDoubleVector();
        double[] pin = ((QuantileKnots) Losses.pinball().evaluate(out, y).gradient()).knots().toDoubleVector();
        int checked = 0;
        for (int i = 2; i < l - 2; i++) { // the two outer knots on each side also shape the tails
            if (q[i - 1] > 0.13 || q[i + 1] < 0.13) { // the knot's hat lies on one side of tau*
                // equal level spacing h = 1/100: 2 int hat (1{tau > tau*} - tau) = 2 h (1{q > y} - t) exactly
                assertEquals(2.0 * l / (l + 1) * pin[i], crps[i], 1e-14, "knot " + i);
                checked++;
            }
        }
        assertTrue(checked > 90);
    }

    @Test
    void manyQuantileKnotsOfANormalApproachItsCrps() {
        // knots at the N(0, 1) quantiles of 999 levels: the piecewise-linear distribution with exponential tails
        // differs from N(0, 1) by O(h^2) inside and by the tails' shape beyond 0.001; bound 1e-4 on CRPS ~ 0.23
        int l = 999;
        double[] t = new double[l];
        double[] q = new double[l];
        for (int i = 0; i < l; i++) {
            t[i] = (i + 1.0) / (l + 1);
            q[i] = io.regheads.core.internal.StdNormal.quantile(t[i]);
        }
        double exact = 2 / Math.sqrt(2 * Math.PI) - 1 / Math.sqrt(Math.PI);
        assertEquals(exact, one(Losses.crps(), knots(t, new double[][] {q}), new Targets.Values(new double[] {0})), 1e-4);
    }

    // ------------------------------------------------------------------ refusals

    @Test
    void outputsWithoutAClosedFormAreRefusedInOneLine() {
        TokenLogits digits = new TokenLogits(Nd4j.zeros(2, 3, 10).castTo(org.nd4j.linalg.api.buffer.DataType.DOUBLE),
                new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Losses.crps().evaluate(digits, new Targets.Tokens(new int[6], null, 2)));
        assertTrue(e.getMessage().contains("no closed form") && !e.getMessage().contains("\n"), e.getMessage());
        QuantileKnots k = knots(new double[] {0.25, 0.75}, new double[][] {{-1, 1}});
        Targets y = new Targets.Values(new double[] {0});
        assertThrows(IllegalArgumentException.class, () -> Losses.ce().evaluate(k, y));
        assertThrows(IllegalArgumentException.class, () -> Losses.ntlWas().evaluate(k, y));
        e = assertThrows(IllegalArgumentException.class, () -> Losses.pinball().evaluate(
                mixture(new double[] {0}, new double[] {0}, new double[] {1}), y));
        assertTrue(e.getMessage().startsWith("pinball needs QuantileKnots"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Losses.crps().evaluate(
                knots(new double[] {0.25, 0.75}, new double[][] {{1, -1}}), y));
        assertTrue(e.getMessage().contains("non-decreasing") && e.getMessage().contains("[0, 1]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> knots(new double[] {0.75, 0.25}, new double[][] {{0, 1}}));
        assertTrue(e.getMessage().contains("levels must be strictly increasing"), e.getMessage());
    }

    @Test
    void tiedKnotsArePointMassesNotNaN() {
        // equal outer knots: the tails collapse onto the outer knots (point masses t_0 and 1 - t_{L-1})
        QuantileKnots k = knots(new double[] {0.2, 0.5, 0.8}, new double[][] {{0, 0, 1}, {0, 1, 1}});
        for (double y : new double[] {-1, 0, 0.5, 1, 2}) {
            LossValue v = Losses.crps().evaluate(k, new Targets.Values(new double[] {y, y}));
            assertTrue(Double.isFinite(v.value()) && v.value() >= 0, "y = " + y + ": " + v.value());
        }
    }
}
