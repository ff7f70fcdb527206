package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.nn.Arena;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.heads.mixture.MixtureHead;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.losses.Losses;
import java.util.List;
import java.util.Random;
import org.deeplearning4j.nn.api.OptimizationAlgorithm;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.gradient.Gradient;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.nn.workspace.LayerWorkspaceMgr;
import org.junit.jupiter.api.Test;
import org.nd4j.common.primitives.Pair;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.learning.config.Adam;

/**
 * A DeepLearning4j network as the encoder under a regheads head (the user guide's example): the external-error
 * idiom. Per step: {@code feedForward} gives phi, the head and its loss give {@code dPhi = head.backward(...)}, and
 * {@code backpropGradient(dPhi)} turns it into the network's gradient, which its own updater applies; the head's
 * parameters have their own optimizer.
 *
 * <p>Data: y = sin(3 x0) + x1 + N(0, 0.1^2) on x uniform in [-1, 1]^2. The bound comes from the noise: the best
 * possible mean test NLL is the noise's entropy, 0.5 log(2 pi e 0.01) = -0.884; a fit whose every row's mean and
 * spread were off would score near the NLL of N(mean(y), var(y)), about 1.1. The test requires -0.5, well below
 * that and reached by a 2 x 32 network in 40 epochs.
 */
class Dl4jEncoderTest {

    private static double[][] data(int n, long seed, double[] y) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        for (int i = 0; i < n; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            x[i][1] = 2 * r.nextDouble() - 1;
            y[i] = Math.sin(3 * x[i][0]) + x[i][1] + 0.1 * r.nextGaussian();
        }
        return x;
    }

    @Test
    void aDl4jNetworkTrainsUnderAMixtureHead() {
        int n = 2000;
        double[] y = new double[n];
        INDArray x = Nd4j.createFromArray(data(n, 1, y)).castTo(DataType.FLOAT);
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder().seed(1).dataType(DataType.FLOAT)
                .optimizationAlgo(OptimizationAlgorithm.STOCHASTIC_GRADIENT_DESCENT).updater(new Adam(1e-3)).list()
                .layer(new DenseLayer.Builder().nIn(2).nOut(32).activation(Activation.RELU).build())
                .layer(new DenseLayer.Builder().nIn(32).nOut(32).activation(Activation.RELU).build())
                .build();
        MultiLayerNetwork encoder = new MultiLayerNetwork(conf);
        encoder.init();
        MixtureHead head = new MixtureSpec(3).build(32, 2, DataType.FLOAT);
        AdamW headOptimizer = new AdamW(head.params(), new AdamConfig(1e-3, 0.9, 0.999, 1e-8, 0));
        Loss loss = Losses.ce(); // on a Gaussian mixture: its negative log likelihood
        Arena arena = Arena.create();
        int batch = 100;
        int iteration = 0;
        for (int epoch = 0; epoch < 40; epoch++) {
            for (int from = 0; from < n; from += batch) {
                arena.reset();
                INDArray xb = x.get(org.nd4j.linalg.indexing.NDArrayIndex.interval(from, from + batch),
                        org.nd4j.linalg.indexing.NDArrayIndex.all()).dup('c');
                double[] yb = java.util.Arrays.copyOfRange(y, from, from + batch);
                // phi: the network's last activations, kept for backprop (training mode, no clearing)
                encoder.setInput(xb);
                List<INDArray> acts = encoder.feedForward(true, false);
                INDArray phi = acts.get(acts.size() - 1).dup('c'); // [batch, 32]
                head.params().forEach(p -> p.zeroGrad());
                Targets t = head.targets(yb);
                RegressionHead.Forward<?> f = head.forward(phi, t, arena);
                HeadOutput dOut = f.output().zerosLike(arena);
                loss.accumulate(f.output(), t, 1.0 / batch, dOut, new double[batch]);
                INDArray dPhi = backward(head, f, dOut, arena);
                // the network: its gradient from the head's dPhi, applied by its own updater
                Pair<Gradient, INDArray> g = encoder.backpropGradient(dPhi, LayerWorkspaceMgr.noWorkspaces());
                encoder.getUpdater().update(encoder, g.getFirst(), iteration, epoch, batch,
                        LayerWorkspaceMgr.noWorkspaces());
                encoder.params().subi(g.getFirst().gradient());
                headOptimizer.step();
                iteration++;
            }
        }
        double[] yTest = new double[1000];
        INDArray xTest = Nd4j.createFromArray(data(1000, 2, yTest)).castTo(DataType.FLOAT);
        PredictiveDistribution d = head.distribution(encoder.output(xTest, false).dup('c'));
        double nll = Metrics.meanNll(d.logDensity(yTest));
        assertTrue(nll < -0.5, "test NLL " + nll + " (the noise alone: -0.884; a constant Gaussian: about 1.1)");
        assertTrue(d instanceof io.regheads.heads.mixture.MixtureDistribution);
        assertTrue(GaussianMixture.class.isInstance(head.forward(encoder.output(xTest, false).dup('c'),
                null, Arena.none()).output()));
    }

    @SuppressWarnings("unchecked")
    private static INDArray backward(MixtureHead head, RegressionHead.Forward<?> f, HeadOutput dOut, Arena arena) {
        return head.backward((RegressionHead.Forward<io.regheads.core.nn.Linear.Cache>) f, dOut, arena);
    }
}
