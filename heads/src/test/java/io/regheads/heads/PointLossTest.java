package io.regheads.heads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.dist.PointLoss;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.mixture.MixtureDistribution;
import io.regheads.heads.quantile.QuantileDistribution;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code PredictiveDistribution.point(PointLoss)} against brute force: the expected cost {@code E(c) = int cost(c, y)
 * p(y) dy} by the trapezoid rule on the density (5000 panels between consecutive points where the density may jump),
 * minimised over a grid of candidates c (501 points over the 0.5% to 99.5% quantiles, then 101 around the best). A
 * cost with a kink at y = c ({@code a(y) (c - y)} below, {@code b(y) (y - c)} above: mae, pinball, linlin, mape) is
 * integrated through cumulative sums split exactly at c, so the kink costs no accuracy; smooth costs (mse, linex) node
 * by node.
 */
class PointLossTest {

    static final List<PointLoss> LOSSES = List.of(PointLoss.squared(), PointLoss.absolute(), PointLoss.pinball(0.9),
            PointLoss.pinball(0.2), PointLoss.asymmetricLinear(3, 1), PointLoss.absolutePercentage(),
            PointLoss.linex(0.5), PointLoss.linex(-0.3));

    /** A distribution and the points where its density may jump (empty: smooth). */
    static Stream<Arguments> distributions() {
        return Stream.of(
                Arguments.of("mixture", new MixtureDistribution(new double[][] {{0.3, 0.7}, {0.5, 0.5}},
                        new double[][] {{6, 10}, {-8, -5}}, new double[][] {{0.5, 1.0}, {0.7, 0.4}}), new double[0]),
                Arguments.of("histogram", new HistogramDistribution(new double[] {2, 3, 5, 6, 9, 12},
                        new double[][] {{0.1, 0.3, 0.2, 0.35, 0.05}}, false), new double[] {2, 3, 5, 6, 9, 12}),
                Arguments.of("quantile", new QuantileDistribution(new double[] {0.1, 0.3, 0.5, 0.7, 0.9},
                        new double[][] {{6, 6.3, 6.5, 7.5, 8}}), new double[] {6, 6.3, 6.5, 7.5, 8}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("distributions")
    void everyPointMinimisesItsExpectedCostOnAGrid(String name, PredictiveDistribution d, double[] jumps) {
        for (PointLoss loss : LOSSES) {
            double[] point = d.point(loss);
            for (int b = 0; b < d.batchSize(); b++) {
                Expected e = new Expected(loss, d, b, jumps);
                double lo = d.inverseCumulativeProbability(0.005)[b];
                double hi = d.inverseCumulativeProbability(0.995)[b];
                double step = (hi - lo) / 500;
                double best = e.argmin(lo, hi, 500);
                best = e.argmin(best - 2 * step, best + 2 * step, 100);
                double fine = 4 * step / 100;
                // two fine steps of the grid, plus 1e-5 of the spread for the quadratures on both sides
                assertEquals(best, point[b], 2 * fine + 1e-5 * (hi - lo), name + " row " + b + ", " + loss.label());
            }
        }
    }

    /** The expected cost of row b as a function of the candidate point. */
    static final class Expected {
        final PointLoss loss;
        final boolean kinked;
        final double[] y; // [N] nodes, increasing
        final double[] p; // [N] density
        final double[] a0; // [N] cumulative int a p, int a y p, int b p, int b y p (trapezoid up to node i)
        final double[] a1;
        final double[] b0;
        final double[] b1;

        Expected(PointLoss loss, PredictiveDistribution d, int row, double[] jumps) {
            this.loss = loss;
            this.kinked = !(loss instanceof PointLoss.Squared || loss instanceof PointLoss.Linex);
            double lo = d.inverseCumulativeProbability(1e-10)[row];
            double hi = d.inverseCumulativeProbability(1 - 1e-10)[row];
            double[] pts = java.util.stream.DoubleStream.concat(Arrays.stream(jumps),
                    java.util.stream.DoubleStream.of(lo, hi)).filter(v -> v >= lo && v <= hi).sorted().distinct().toArray();
            int n = 5000;
            int total = (pts.length - 1) * (n + 1);
            y = new double[total];
            p = new double[total];
            int k = 0;
            for (int piece = 0; piece + 1 < pts.length; piece++) {
                double h = (pts[piece + 1] - pts[piece]) / n;
                double[] grid = new double[n + 1];
                for (int i = 0; i <= n; i++) {
                    // the ends a hair inside, so a jump's density is the piece's own
                    grid[i] = i == 0 ? pts[piece] + 1e-9 * h : i == n ? pts[piece + 1] - 1e-9 * h : pts[piece] + i * h;
                }
                double[][] logp = d.logDensityGrid(grid);
                for (int i = 0; i <= n; i++) {
                    y[k] = grid[i];
                    p[k++] = Math.exp(logp[i][row]);
                }
            }
            a0 = new double[total];
            a1 = new double[total];
            b0 = new double[total];
            b1 = new double[total];
            for (int i = 1; i < total; i++) {
                double h = y[i] - y[i - 1];
                a0[i] = a0[i - 1] + h * (fa(i - 1) + fa(i)) / 2;
                a1[i] = a1[i - 1] + h * (fa(i - 1) * y[i - 1] + fa(i) * y[i]) / 2;
                b0[i] = b0[i - 1] + h * (fb(i - 1) + fb(i)) / 2;
                b1[i] = b1[i - 1] + h * (fb(i - 1) * y[i - 1] + fb(i) * y[i]) / 2;
            }
        }

        /** a(y) p(y), b(y) p(y): the slopes below and above the kink, read off the loss's own cost. */
        private double fa(int i) {
            return loss.cost(y[i] + 1, y[i]) * p[i];
        }

        private double fb(int i) {
            return loss.cost(y[i] - 1, y[i]) * p[i];
        }

        double at(double c) {
            if (!kinked) { // smooth: the trapezoid on every 2nd node (2500 panels a piece) is plenty
                double e = 0;
                for (int i = 2; i < y.length; i += 2) {
                    double h = y[i] - y[i - 2];
                    e += h * (loss.cost(c, y[i - 2]) * p[i - 2] + loss.cost(c, y[i]) * p[i]) / 2;
                }
                return e;
            }
            int k = Arrays.binarySearch(y, c);
            k = k >= 0 ? k : Math.max(0, -k - 2); // y[k] <= c < y[k + 1]
            k = Math.min(k, y.length - 2);
            double h = y[k + 1] - y[k];
            double t = Math.min(1, Math.max(0, (c - y[k]) / h));
            double[] cum = new double[4];
            double[][] arrays = {a0, a1, b0, b1};
            for (int j = 0; j < 4; j++) {
                double fk = j < 2 ? fa(k) * (j == 1 ? y[k] : 1) : fb(k) * (j == 3 ? y[k] : 1);
                double fk1 = j < 2 ? fa(k + 1) * (j == 1 ? y[k + 1] : 1) : fb(k + 1) * (j == 3 ? y[k + 1] : 1);
                double fc = fk + t * (fk1 - fk);
                cum[j] = arrays[j][k] + t * h * (fk + fc) / 2; // trapezoid from y[k] to c
            }
            int last = y.length - 1;
            return c * cum[0] - cum[1] + (b1[last] - cum[3]) - c * (b0[last] - cum[2]);
        }

        double argmin(double lo, double hi, int steps) {
            double best = Double.NaN;
            double bestCost = Double.POSITIVE_INFINITY;
            for (int i = 0; i <= steps; i++) {
                double c = lo + (hi - lo) * i / steps;
                double e = at(c);
                if (e < bestCost) {
                    bestCost = e;
                    best = c;
                }
            }
            return best;
        }
    }

    @Test
    void documentedExample() {
        MixtureDistribution n = MixtureDistribution.gaussian(new double[] {10}, new double[] {1});
        assertEquals(10, n.point(PointLoss.parse("mse"))[0], 1e-12);
        assertEquals(10, n.point(PointLoss.parse("mae"))[0], 1e-9);
        assertEquals(11.2815515655, n.point(PointLoss.parse("pinball:0.9"))[0], 1e-8);
        assertEquals(11.2815515655, n.point(PointLoss.parse("linlin:9,1"))[0], 1e-8);
        assertEquals(9.898259269977643, n.point(PointLoss.parse("mape"))[0], 1e-7); // SciPy: quad + brentq
        assertEquals(9.75, n.point(PointLoss.parse("linex:0.5"))[0], 1e-12); // 10 - a sigma^2 / 2
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MixtureDistribution.gaussian(
                new double[] {5}, new double[] {1}).point(PointLoss.absolutePercentage()));
        assertTrue(e.getMessage().startsWith("mape: row 0 has density 1.49e-06 at 0"), e.getMessage());
    }

    @Test
    void mapeIsRefusedWhereTheWeightedDistributionDoesNotExist() {
        // a density at 0: N(0.5, 1) and a histogram whose first bin starts at 0
        assertThrows(IllegalArgumentException.class, () -> MixtureDistribution.gaussian(new double[] {0.5},
                new double[] {1}).point(PointLoss.absolutePercentage()));
        assertThrows(IllegalArgumentException.class, () -> new HistogramDistribution(new double[] {0, 1, 2},
                new double[][] {{0.5, 0.5}}, false).point(PointLoss.absolutePercentage()));
        // a histogram on [1, 3] is fine
        assertTrue(new HistogramDistribution(new double[] {1, 2, 3}, new double[][] {{0.5, 0.5}}, false)
                .point(PointLoss.absolutePercentage())[0] > 1);
        // mass at 0
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PointMasses(new double[] {0, 2}, new double[] {0.3, 0.7}).point(PointLoss.absolutePercentage()));
        assertTrue(e.getMessage().startsWith("mape: row 0 has probability mass at 0"), e.getMessage());
    }

    @Test
    void linexIsRefusedWhereTheExponentialMomentIsInfinite() {
        // right tail scale bR = 0.1 * (8 - 7.5) / 0.2 = 0.25: E[exp(Y / bR')] is infinite for a = -4 (a bR = -1)
        QuantileDistribution q = new QuantileDistribution(new double[] {0.1, 0.3, 0.5, 0.7, 0.9},
                new double[][] {{6, 6.3, 6.5, 7.5, 8}});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> q.point(PointLoss.linex(-4.5)));
        assertTrue(e.getMessage().startsWith("linex: row 0"), e.getMessage());
        assertTrue(Double.isFinite(q.point(PointLoss.linex(-1))[0]));
    }

    @Test
    void labelsParseAndBadOnesAreNamed() {
        for (PointLoss l : LOSSES) {
            assertEquals(l, PointLoss.parse(l.label()));
        }
        assertEquals(PointLoss.asymmetricLinear(3, 1), PointLoss.parse(" LinLin:3, 1 "));
        assertEquals("pinball tau must be in (0, 1), got 1.5",
                assertThrows(IllegalArgumentException.class, () -> PointLoss.parse("pinball:1.5")).getMessage());
        assertEquals("point loss pinball takes 1 number(s), got 'pinball'",
                assertThrows(IllegalArgumentException.class, () -> PointLoss.parse("pinball")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PointLoss.parse("rmse")).getMessage()
                .startsWith("point loss must be one of mse, mae, mape"));
        assertEquals("under must be > 0 and finite, got -1.0",
                assertThrows(IllegalArgumentException.class, () -> PointLoss.parse("linlin:-1,2")).getMessage());
        assertEquals("linex a must be non-zero and finite, got 0.0",
                assertThrows(IllegalArgumentException.class, () -> PointLoss.linex(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> MixtureDistribution.gaussian(new double[] {1},
                new double[] {1}).point(null));
    }

    /** Point masses (a discrete distribution), for the mass-at-zero refusal. */
    record PointMasses(double[] values, double[] probs) implements PredictiveDistribution {
        @Override
        public int batchSize() {
            return 1;
        }

        @Override
        public double[] logDensity(double[] y) {
            return new double[] {Double.NEGATIVE_INFINITY};
        }

        @Override
        public double[] cumulativeProbability(double[] y) {
            double c = 0;
            for (int i = 0; i < values.length; i++) {
                c += values[i] <= y[0] ? probs[i] : 0;
            }
            return new double[] {c};
        }

        @Override
        public double[] inverseCumulativeProbability(double p) {
            double c = 0;
            for (int i = 0; i < values.length; i++) {
                c += probs[i];
                if (c >= p) {
                    return new double[] {values[i]};
                }
            }
            return new double[] {values[values.length - 1]};
        }

        @Override
        public double[] mean() {
            double m = 0;
            for (int i = 0; i < values.length; i++) {
                m += values[i] * probs[i];
            }
            return new double[] {m};
        }

        @Override
        public double[] variance() {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[] mode() {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[][] sample(UniformRandomProvider rng, int n) {
            throw new UnsupportedOperationException();
        }

        @Override
        public double[] supportLowerBound() {
            return new double[] {values[0]};
        }

        @Override
        public double[] supportUpperBound() {
            return new double[] {values[values.length - 1]};
        }
    }
}
