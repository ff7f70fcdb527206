package io.regheads.heads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.histogram.HistogramHead;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.model.LossSpec;
import io.regheads.heads.pointwise.PointwiseHead;
import io.regheads.heads.quantile.QuantileHead;
import io.regheads.heads.quantile.QuantileSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.losses.Losses;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * CRPS through every head with a closed form: gradients by finite differences through head and loss in double, and
 * the loss's value on a head's output against the numerical integral of {@code (F(z) - 1{z >= y})^2} with F the
 * head's own predictive distribution (so the loss and the distribution describe the same cdf, tails included).
 */
class CrpsThroughHeadsTest {
    static final int D = 5;
    static final int B = 4;

    static Stream<Arguments> cases() {
        double[] y01 = {0.05, 0.37, 0.5, 0.93};
        double[] yOut = {-0.2, 0.37, 0.61, 1.3}; // outside [0, 1]: in the tails
        double[] yc = {-0.45, -0.13, 0.0, 0.43};
        return Stream.of(
                Arguments.of("pointwise", new PointwiseHead(new PointwiseSpec(false), D, 1, DataType.DOUBLE), yc),
                Arguments.of("histogram", new HistogramHead(new HistogramSpec(8, false), D, 3, DataType.DOUBLE), y01),
                Arguments.of("histogram tails", new HistogramHead(new HistogramSpec(6, true), D, 5,
                        DataType.DOUBLE), yOut),
                Arguments.of("mdn", new MixtureHead(new MixtureSpec(3), D, 6, DataType.DOUBLE), yc),
                Arguments.of("quantile", new QuantileHead(new QuantileSpec(QuantileSpec.equallySpaced(9), 1e-6), D, 8,
                        DataType.DOUBLE), yc));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void crpsGradientsThroughTheHeadMatchFiniteDifferences(String name, RegressionHead<?> head, double[] y) {
        for (String expression : List.of("crps", "ce+0.5*crps")) {
            Loss loss = LossSpec.parse(name.equals("quantile") ? expression.replace("ce", "pinball") : expression);
            check(head, loss, y);
        }
    }

    private static void check(RegressionHead<?> head, Loss loss, double[] y) {
        GradientCheck.checkHead(head, loss, y, GradientCheck.random(11, 1.0, B, D), GradientCheck.Tolerance.noiseFloored());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void crpsOfTheOutputIsTheCrpsOfTheHeadsDistribution(String name, RegressionHead<?> head, double[] y) {
        if (name.equals("pointwise")) {
            return; // its distribution's noise level is set after training; the loss reads N(yHat, 1/2)
        }
        INDArray phi = GradientCheck.random(12, 1.0, B, D);
        Targets t = head.targets(y);
        double[] perExample = Losses.crps().evaluate(head.forward(phi, t, Arena.none()).output(), t).perExample();
        PredictiveDistribution d = head.distribution(phi);
        for (int b = 0; b < B; b++) {
            double expected = integral(d, b, y[b]);
            assertEquals(expected, perExample[b] * B, 1e-7, name + " row " + b);
        }
    }

    /** Simpson's rule of {@code (F_b(z) - 1{z >= y})^2} over [q(1e-9) - 1, q(1 - 1e-9) + 1], 80000 panels. */
    static double integral(PredictiveDistribution d, int b, double y) {
        double lo = Math.min(d.inverseCumulativeProbability(1e-9)[b], y) - 1;
        double hi = Math.max(d.inverseCumulativeProbability(1 - 1e-9)[b], y) + 1;
        double total = 0;
        double[][] pieces = {{lo, y}, {y, hi}};
        double[] z = new double[d.batchSize()];
        for (double[] piece : pieces) {
            int n = 40_000;
            double h = (piece[1] - piece[0]) / n;
            double step = piece[0] >= y ? 1 : 0;
            double s = 0;
            for (int i = 0; i <= n; i++) {
                z[b] = i == n ? piece[1] : piece[0] + i * h;
                double f = d.cumulativeProbability(z)[b] - step;
                s += (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2) * f * f;
            }
            total += s * h / 3;
        }
        return total;
    }

    @Test
    void decodersAreRefusedInOneLine() {
        RegressionHead<?> head = DecoderSpec.small(10, 3).build(D, 1, DataType.DOUBLE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> evaluate(head, "ce+0.5*crps"));
        assertTrue(e.getMessage().contains("crps has no closed form") && !e.getMessage().contains("\n"), e.getMessage());
    }

    private static <C> void evaluate(RegressionHead<C> head, String loss) {
        INDArray phi = GradientCheck.random(13, 1.0, 2, D);
        Targets t = head.targets(new double[] {0.25, 0.5});
        LossSpec.parse(loss).evaluate(head.forward(phi, t, Arena.none()).output(), t);
    }
}
