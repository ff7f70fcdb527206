package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unnormalized decoder through the model API: fit, median point prediction, save and load. */
class UnnormalizedDecoderModelTest {
    @TempDir
    Path dir;

    @Test
    void learnsASmoothFunctionAndRoundTripsThroughAFile() {
        Dataset train = DecoderModelTest.data(1200, 1);
        Dataset test = DecoderModelTest.data(200, 2);
        HeadSpec h = new UnnormalizedDecoderSpec(10, 1, 3, 16, 2, 32, 1);
        assertEquals(PointEstimate.MEDIAN, h.pointEstimate());
        assertEquals(PointEstimate.MEAN, new MixtureSpec(2).pointEstimate());
        ModelConfig c = new ModelConfig(2, 64, h, null, TrainerConfig.defaults().withMaxEpochs(80).withSeed(3));
        RegressionModel m = RegressionModel.create(c, 2);
        TrainingResult r = m.fit(train);
        assertTrue(!r.diverged(), r.message());
        PredictiveDistribution d = m.predict(test.x());
        double[] point = m.predictPoint(test.x());
        assertArrayEquals(d.median(), point, 0.0);
        double mse = 0;
        for (int i = 0; i < point.length; i++) {
            mse += Math.pow(point[i] - test.y(i), 2) / point.length;
        }
        double nll = -java.util.Arrays.stream(d.logDensity(test.y())).average().orElseThrow();
        System.out.printf("unnormalized decoder: test MSE of the median %.5f, NLL %.4f, epochs %d%n", mse, nll,
                r.epochsRun());
        // noise variance 0.01 (range of y about 6, y01 spelled with 3 significant digits); allow the fit error
        assertTrue(mse < 0.05, "test MSE " + mse);
        assertTrue(nll < 0.5, "test NLL " + nll); // the noise alone gives -0.88
        double[] lo = d.inverseCumulativeProbability(0.05);
        double[] hi = d.inverseCumulativeProbability(0.95);
        int inside = 0;
        for (int i = 0; i < lo.length; i++) {
            assertTrue(lo[i] <= point[i] && point[i] <= hi[i], "row " + i);
            inside += lo[i] <= test.y(i) && test.y(i) <= hi[i] ? 1 : 0;
        }
        assertTrue(inside >= 150, "90% intervals hold " + inside + " of 200");
        Path f = dir.resolve("unnormalized.rgh");
        m.save(f);
        RegressionModel back = RegressionModel.load(f);
        assertEquals(h, back.config().head());
        PredictiveDistribution d2 = back.predict(test.x());
        assertArrayEquals(point, back.predictPoint(test.x()), 0.0);
        assertArrayEquals(d.logDensity(test.y()), d2.logDensity(test.y()), 0.0);
        assertArrayEquals(d.cumulativeProbability(test.y()), d2.cumulativeProbability(test.y()), 0.0);
    }

    @Test
    void invalidSizesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedDecoderSpec(1, 1, 3, 32, 1, 128, 1));
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedDecoderSpec(10, 0, 3, 32, 1, 128, 1));
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedDecoderSpec(10, 1, 3, 32, 3, 128, 1));
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedDecoderSpec(10, 1, 3, 32, 1, 128, 0));
    }
}
