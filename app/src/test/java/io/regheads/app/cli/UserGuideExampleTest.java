package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.losses.Losses;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The "your own encoder" example of docs/user-guide.md, kept compiling and working here (same code). */
class UserGuideExampleTest {

    /** Stand-in for "your encoder": fixed features phi(x) = (x, x^2, sin 3x, cos 3x) of a scalar x. */
    static double[][] myEncoder(double[] x) {
        double[][] phi = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            phi[i] = new double[] {x[i], x[i] * x[i], Math.sin(3 * x[i]), Math.cos(3 * x[i])};
        }
        return phi;
    }

    /** y = 10 + 5 sin(3x) + N(0, 0.2^2) noise: the true 90% interval is 2 * 1.6449 * 0.2 = 0.658 wide. */
    static double truth(double x) {
        return 10 + 5 * Math.sin(3 * x);
    }

    static final double TRUE_WIDTH_90 = 2 * 1.6448536269514722 * 0.2;

    @Test
    void frozenEncoderPlusMixtureHeadLearnsAndPredictsInOriginalUnits() {
        int n = 400;
        double[] x = new double[n];
        double[] y = new double[n];
        java.util.Random noise = new java.util.Random(7);
        for (int i = 0; i < n; i++) {
            x[i] = -1 + 2.0 * i / (n - 1);
            y[i] = truth(x[i]) + 0.2 * noise.nextGaussian();
        }
        // --- the guide's code from here ---
        double[][] phi = myEncoder(x);
        MinMaxScaler ys = MinMaxScaler.fit(y);              // the head wants y near [0, 1]
        double centre = 0.5;                                // MixtureHead predicts y01 - 0.5
        double[] yHead = ys.transform(y);
        for (int i = 0; i < n; i++) {
            yHead[i] -= centre;
        }
        Dataset train = Dataset.of(phi, yHead);

        MixtureHead head = new MixtureSpec(5).build(4, 42L, DataType.FLOAT); // 5 components, D = 4, seed 42
        Loss loss = Losses.ce();                            // NLL of the mixture; try Losses.ce().plus(0.3, Losses.ntlWas())
        TrainableModel model = new TrainableModel() {
            @Override
            public List<Param> params() {
                return head.params();                       // add your encoder's params here if it trains too
            }

            @Override
            public double trainStep(INDArray phiBatch, double[] yBatch, Arena arena) {
                Targets t = head.targets(yBatch);
                var f = head.forward(phiBatch, t, arena);
                var dOut = f.output().zerosLike(arena);
                double value = loss.accumulate(f.output(), t, 1.0, dOut, new double[yBatch.length]);
                head.backward(f, dOut, arena);              // returns dLoss/dphi for a trainable encoder
                return value;
            }

            @Override
            public double evaluate(INDArray phiBatch, double[] yBatch, Arena arena) {
                Targets t = head.targets(yBatch);
                var f = head.forward(phiBatch, t, arena);
                return loss.accumulate(f.output(), t, 1.0, f.output().zerosLike(arena), new double[yBatch.length]);
            }
        };
        TrainingResult r = new Trainer(TrainerConfig.defaults().withLearningRate(1e-2).withMaxEpochs(1000).withPatience(50))
                .fit(model, train);                         // lr 1e-2: a linear head on 4 features learns slowly at 1e-3

        INDArray phiTest = Nd4j.createFromArray(myEncoder(new double[] {0.1, 0.5})).castTo(DataType.FLOAT);
        PredictiveDistribution d = new AffineTransformed(head.distribution(phiTest), ys.range(),
                ys.min() + centre * ys.range());            // back to the units of y
        double[] mean = d.mean();
        double[] lo = d.inverseCumulativeProbability(0.05);
        double[] hi = d.inverseCumulativeProbability(0.95);
        // --- end of the guide's code ---
        assertEquals(2, mean.length);
        assertEquals(TrainingResult.StopReason.EARLY_STOPPED, r.stopReason(), "stops by early stopping, not the cap: " + r);
        double[] truth = {truth(0.1), truth(0.5)}; // 11.478, 14.987
        for (int i = 0; i < 2; i++) {
            assertEquals(truth[i], mean[i], 0.1, "mean at row " + i);
            assertTrue(lo[i] < truth[i] && truth[i] < hi[i], "90% interval covers the noise-free value at row " + i);
        }
        // the 90% interval on 2000 fresh rows: covers about 90% of them and is about as wide as the noise's
        int m = 2000;
        double[] xt = new double[m];
        double[] yt = new double[m];
        java.util.Random fresh = new java.util.Random(8);
        for (int i = 0; i < m; i++) {
            xt[i] = -1 + 2 * fresh.nextDouble();
            yt[i] = truth(xt[i]) + 0.2 * fresh.nextGaussian();
        }
        PredictiveDistribution dt = new AffineTransformed(
                head.distribution(Nd4j.createFromArray(myEncoder(xt)).castTo(DataType.FLOAT)), ys.range(),
                ys.min() + centre * ys.range());
        double[] q05 = dt.inverseCumulativeProbability(0.05);
        double[] q95 = dt.inverseCumulativeProbability(0.95);
        int covered = 0;
        double width = 0;
        for (int i = 0; i < m; i++) {
            covered += q05[i] <= yt[i] && yt[i] <= q95[i] ? 1 : 0;
            width += (q95[i] - q05[i]) / m;
        }
        double coverage = covered / (double) m;
        // binomial sd of the coverage at 0.9 is 0.0067: the band is +-7 sd; the width within -10%..+30% of the truth
        assertTrue(coverage >= 0.85 && coverage <= 0.95, "coverage of the 90% interval: " + coverage);
        assertTrue(width >= 0.9 * TRUE_WIDTH_90 && width <= 1.3 * TRUE_WIDTH_90,
                "mean width of the 90% interval " + width + " vs the noise's " + TRUE_WIDTH_90);
    }
}
