package io.regheads.heads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.internal.Host;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.losses.Losses;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * A training loop's arena hands out the same buffers and views step after step: forward, loss gradient and backward
 * through one reused arena must give, step by step on changing data, the bits of the same steps without one (every
 * buffer and view fresh). Fails when a remembered view or buffer carries an earlier step's values.
 */
class ArenaReuseTest {
    static final int D = 6;
    static final int B = 5;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("pointwise mse", (Supplier<RegressionHead<?>>) () ->
                        new PointwiseSpec(false).build(D, 1, DataType.FLOAT), Losses.ntlMse()),
                Arguments.of("pointwise sigmoid huber", (Supplier<RegressionHead<?>>) () ->
                        new PointwiseSpec(true).build(D, 2, DataType.FLOAT), Losses.ntlHuber(0.1)),
                Arguments.of("histogram ce+ntl-was", (Supplier<RegressionHead<?>>) () ->
                        new HistogramSpec(8, false).build(D, 3, DataType.FLOAT), Losses.ce().plus(0.3, Losses.ntlWas())),
                Arguments.of("mdn ce", (Supplier<RegressionHead<?>>) () ->
                        new MixtureSpec(3).build(D, 4, DataType.FLOAT), Losses.ce()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void stepsThroughAReusedArenaGiveTheBitsOfFreshBuffers(String name, Supplier<RegressionHead<?>> make, Loss loss) {
        List<double[]> reused = steps(make.get(), loss, Arena.create());
        List<double[]> fresh = steps(make.get(), loss, Arena.none());
        assertEquals(fresh.size(), reused.size());
        for (int i = 0; i < fresh.size(); i++) {
            assertArrayEquals(fresh.get(i), reused.get(i), 0.0, name + ": result " + i);
        }
    }

    /** Three steps on different phi and targets; per step dPhi and every parameter gradient, flattened. */
    private static <C> List<double[]> steps(RegressionHead<C> head, Loss loss, Arena arena) {
        List<double[]> out = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            arena.reset();
            INDArray phi = GradientCheck.random(20 + s, 1.5, B, D).castTo(DataType.FLOAT);
            double[] y = new double[B];
            for (int i = 0; i < B; i++) {
                y[i] = (0.13 + 0.37 * i + 0.21 * s) % 1.0;
            }
            Targets t = head.targets(y);
            head.params().forEach(Param::zeroGrad);
            RegressionHead.Forward<C> f = head.forward(phi, t, arena);
            HeadOutput g = f.output().zerosLike(arena);
            double[] perRow = new double[B];
            loss.accumulate(f.output(), t, 1.0, g, perRow);
            out.add(perRow);
            out.add(Host.doubles(head.backward(f, g, arena)));
            for (Param p : head.params()) {
                out.add(Host.doubles(p.grad()));
            }
        }
        return out;
    }
}
