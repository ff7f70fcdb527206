package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decoder through the model API: fit, predict in original units, save and load. */
class DecoderModelTest {
    @TempDir
    Path dir;

    /** y = 3 + 2 sin(2 x0) + x1 + N(0, 0.1^2) on x in [-1, 1]^2: the other heads' model-test data. */
    static Dataset data(int n, long seed) {
        return io.regheads.heads.model.RegressionModelTest.data(n, seed);
    }

    @Test
    void learnsASmoothFunctionAndRoundTripsThroughAFile() {
        Dataset train = data(1200, 1);
        Dataset test = data(300, 2);
        HeadSpec h = new DecoderSpec(4, 4, 16, 2, 32, 1);
        ModelConfig c = new ModelConfig(2, 64, h, "ce+0.3*ntl-was", TrainerConfig.defaults().withMaxEpochs(40).withSeed(3));
        RegressionModel m = RegressionModel.create(c, 2);
        TrainingResult r = m.fit(train);
        assertTrue(!r.diverged(), r.message());
        PredictiveDistribution d = m.predict(test.x());
        double[] mean = d.mean();
        double mse = 0;
        for (int i = 0; i < mean.length; i++) {
            mse += Math.pow(mean[i] - test.y(i), 2) / mean.length;
        }
        double nll = -java.util.Arrays.stream(d.logDensity(test.y())).average().orElseThrow();
        System.out.printf("decoder: test MSE %.5f, NLL %.4f, epochs %d%n", mse, nll, r.epochsRun());
        // noise variance 0.01; 256 leaves over a range of about 6 add (6/256)^2/12 = 5e-5; allow the fit error
        assertTrue(mse < 0.03, "test MSE " + mse);
        assertTrue(nll < 0.2, "test NLL " + nll); // the noise alone gives -0.88
        Path f = dir.resolve("decoder.rgh");
        m.save(f);
        PredictiveDistribution d2 = RegressionModel.load(f).predict(test.x());
        assertArrayEquals(mean, d2.mean(), 0.0);
        assertArrayEquals(d.logDensity(test.y()), d2.logDensity(test.y()), 0.0);
        assertArrayEquals(d.inverseCumulativeProbability(0.9), d2.inverseCumulativeProbability(0.9), 0.0);
    }

    /** The peer's ReLU decoder keeps its activation through a file (and a file naming another one is refused). */
    @Test
    void reluDecoderRoundTripsThroughAFile() throws java.io.IOException {
        Dataset train = data(300, 4);
        HeadSpec h = new DecoderSpec(4, 3, 8, 1, 16, 1, io.regheads.core.nn.TransformerBlock.Activation.RELU);
        ModelConfig c = new ModelConfig(2, 16, h, "ce", TrainerConfig.defaults().withMaxEpochs(2).withSeed(3));
        RegressionModel m = RegressionModel.create(c, 2);
        m.fit(train);
        Path f = dir.resolve("relu.rgh");
        m.save(f);
        RegressionModel back = RegressionModel.load(f);
        assertEquals(h, back.config().head());
        double[][] x = data(20, 5).x();
        assertArrayEquals(m.predict(x).mean(), back.predict(x).mean(), 0.0);
        // the activation came back from the file (the default would be GELU)
        assertEquals(io.regheads.core.nn.TransformerBlock.Activation.RELU,
                ((DecoderSpec) back.config().head()).activation());
    }
}
