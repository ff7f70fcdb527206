package io.regheads.heads;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.RegressionHead;
import io.regheads.core.loss.Loss;
import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.losses.Losses;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;

/** Finite differences through head + loss, in double precision, for every head and several losses. */
class HeadGradientTest {
    static final int D = 5;
    static final int B = 4;

    static Stream<Arguments> cases() {
        double[] y01 = {0.05, 0.37, 0.5, 0.93};
        double[] yc = {-0.45, -0.13, 0.0, 0.43};
        return Stream.of(
                Arguments.of("pointwise mse", new PointwiseSpec(false).build(D, 1, DataType.DOUBLE), Losses.ntlMse(), yc),
                Arguments.of("pointwise sigmoid huber", new PointwiseSpec(true).build(D, 2, DataType.DOUBLE), Losses.ntlHuber(0.1), y01),
                Arguments.of("histogram ce", new HistogramSpec(8, false).build(D, 3, DataType.DOUBLE), Losses.ce(), y01),
                Arguments.of("histogram ce+ntl-was", new HistogramSpec(8, false).build(D, 4, DataType.DOUBLE), Losses.ce().plus(0.3, Losses.ntlWas()), y01),
                Arguments.of("histogram tails gce", new HistogramSpec(6, true).build(D, 5, DataType.DOUBLE), Losses.gce(0.2), y01),
                Arguments.of("mdn ce", new MixtureSpec(3).build(D, 6, DataType.DOUBLE), Losses.ce(), yc),
                Arguments.of("mdn ce+ntl-was+ntl-mse", new MixtureSpec(3).build(D, 7, DataType.DOUBLE), Losses.ce().plus(0.3, Losses.ntlWas()).plus(0.1, Losses.ntlMse()), yc));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void headAndLossGradientsMatchFiniteDifferences(String name, RegressionHead<?> head, Loss loss, double[] y) {
        check(name, head, loss, y);
    }

    private static void check(String name, RegressionHead<?> head, Loss loss, double[] y) {
        double worst = GradientCheck.checkHead(head, loss, y, GradientCheck.random(11, 1.0, B, D),
                GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-5, name + ": worst relative error " + worst);
    }
}
