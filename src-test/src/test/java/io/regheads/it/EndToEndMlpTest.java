package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.MlpEncoder;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.pointwise.PointwiseHead;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.losses.Losses;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Consumer-style end to end: an MLP encoder and a pointwise head assembled by hand from the public pieces (an
 * encoder, a head with its typed cache, a loss, the trainer), trained with MSE on y = sin(2 x0) + 0.5 x1^2 +
 * N(0, 0.1^2).
 *
 * <p>The bound comes from the noise: the best possible test MSE is the noise variance 0.01 (plus sampling
 * spread of a 1000-row test set, sd about 0.01 * sqrt(2/1000) = 4.5e-4); the test allows 0.002 of fitting error
 * on top (20% of the noise), which a 2 x 64 MLP reaches on 3000 rows.
 */
class EndToEndMlpTest {
    static final double NOISE_SD = 0.1;

    static Dataset data(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][3];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 3; j++) {
                x[i][j] = 2 * r.nextDouble() - 1;
            }
            y[i] = Math.sin(2 * x[i][0]) + 0.5 * x[i][1] * x[i][1] + NOISE_SD * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    /** phi = MLP(x); y_hat = phi w + b (the pointwise head); loss = mean squared error (Losses.ntlMse on its Scalar). */
    static final class Model implements TrainableModel {
        final MlpEncoder encoder = new MlpEncoder(new MlpEncoderConfig(3, 2, 64, 7), DataType.FLOAT);
        final PointwiseHead head = new PointwiseSpec(false).build(64, 8, DataType.FLOAT);
        final Loss loss = Losses.ntlMse();

        @Override
        public List<Param> params() {
            List<Param> p = new ArrayList<>(encoder.params());
            p.addAll(head.params());
            return p;
        }

        @Override
        public double trainStep(INDArray x, double[] y, Arena arena) {
            MlpEncoder.Cache e = encoder.forward(x, arena);
            Targets t = head.targets(y);
            RegressionHead.Forward<Linear.Cache> f = head.forward(e.output(), t, arena); // output + the head's cache
            HeadOutput d = f.output().zerosLike(arena);
            double v = loss.accumulate(f.output(), t, 1.0, d, new double[y.length]);
            INDArray dPhi = head.backward(f, d, arena);
            encoder.backward(e, dPhi, arena);
            return v;
        }

        @Override
        public double evaluate(INDArray x, double[] y, Arena arena) {
            Targets t = head.targets(y);
            return loss.evaluate(head.forward(encoder.forward(x, arena).output(), t, arena).output(), t).value();
        }

        double[] predict(double[][] x) {
            INDArray in = Nd4j.createFromArray(x).castTo(DataType.FLOAT);
            return head.predict(encoder.forward(in, Arena.none()).output());
        }
    }

    @Test
    void mlpWithLinearOutputReachesTheNoiseFloor() {
        Dataset train = data(3000, 1);
        Dataset test = data(1000, 2);
        Model m = new Model();
        TrainingResult r = new Trainer(TrainerConfig.defaults().withMaxEpochs(60).withSeed(5)).fit(m, train);
        assertTrue(!r.diverged(), r.message());
        double[] p = m.predict(test.x());
        double mse = 0;
        for (int i = 0; i < p.length; i++) {
            mse += (p[i] - test.y(i)) * (p[i] - test.y(i)) / p.length;
        }
        double noise = NOISE_SD * NOISE_SD;
        System.out.printf("end-to-end MLP: test MSE %.5f (noise variance %.4f), %d epochs%n", mse, noise, r.epochsRun());
        assertTrue(mse < noise + 0.002, "test MSE " + mse + " vs noise variance " + noise);
    }
}
