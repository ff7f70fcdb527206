package io.regheads.heads.pointwise;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.Scalar;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.Param;
import io.regheads.heads.mixture.MixtureDistribution;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Pointwise head: {@code y_hat = w . phi + b}, optionally squashed by a sigmoid into (0, 1).
 *
 * <p>Output: {@link Scalar} {@code [B]}; trained with squared, absolute or Huber error. As a distribution it is
 * {@code N(y_hat, s^2)} with a noise level s that is not learned by the point loss: it is set by {@link
 * #setNoiseStd} (the model API sets it to the root of the training MSE, as the PyTorch peer does), so the head
 * has an NLL comparable with the others.
 *
 * <p>Thread safety: parameters and the noise level change only in training and calibration.
 */
public final class PointwiseHead implements RegressionHead {

    /**
     * @param inputWidth D
     * @param sigmoid    squash the output into (0, 1)
     * @param seed       initialisation seed
     */
    public record Config(int inputWidth, boolean sigmoid, long seed) {
        public Config {
            Checks.atLeast("inputWidth", inputWidth, 1);
        }

        public static Config linear(int inputWidth, long seed) {
            return new Config(inputWidth, false, seed);
        }
    }

    private final Config config;
    private final Linear proj;
    private volatile double noiseStd = 1.0;

    public PointwiseHead(Config config, DataType type) {
        this.config = Checks.notNull("config", config);
        this.proj = new Linear("pointwise", config.inputWidth(), 1, type, RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed()));
    }

    public Config config() {
        return config;
    }

    /** The standard deviation of the Gaussian that {@link #distribution} reports around the point prediction. */
    public double noiseStd() {
        return noiseStd;
    }

    /** Sets the reported noise level; must be finite and > 0. */
    public void setNoiseStd(double std) {
        this.noiseStd = Checks.positive("noiseStd", std);
    }

    @Override
    public int inputWidth() {
        return config.inputWidth();
    }

    @Override
    public List<Param> params() {
        return proj.params();
    }

    @Override
    public Targets targets(double[] y) {
        return new Targets.Values(y);
    }

    @Override
    public Forward forward(INDArray phi, Targets targets, Arena arena) {
        Linear.Cache c = proj.forward(phi, arena);
        INDArray values = c.output().reshape(new long[] {phi.size(0)}); // [B] view of [B, 1]
        if (config.sigmoid()) {
            double[] v = Host.doubles(values);
            for (int i = 0; i < v.length; i++) {
                v[i] = 1 / (1 + Math.exp(-v[i]));
            }
            Host.write(v, values);
        }
        return new Forward(new Scalar(values), c);
    }

    @Override
    public INDArray backward(Forward forward, HeadOutput dOutput, Arena arena) {
        Checks.require(dOutput instanceof Scalar, "dOutput must be a Scalar, got %s", dOutput.getClass().getSimpleName());
        Linear.Cache c = (Linear.Cache) forward.cache();
        INDArray d = ((Scalar) dOutput).values();
        int b = (int) d.length();
        INDArray dRaw = arena.get(c.output().dataType(), b, 1); // [B, 1]
        double[] out = Host.doubles(((Scalar) forward.output()).values()); // [B]
        double[] dv = Host.doubles(Host.contiguous(d, dRaw.dataType())); // [B]
        double[] dr = new double[b];
        for (int i = 0; i < b; i++) {
            double s = out[i]; // the output: sigmoid(z) when squashing
            dr[i] = config.sigmoid() ? dv[i] * s * (1 - s) : dv[i];
        }
        Host.write(dr, dRaw);
        return proj.backward(c, dRaw, arena);
    }

    /** Point predictions {@code [B]}. */
    public double[] predict(INDArray phi) {
        return ((Scalar) forward(phi, null, Arena.none()).output()).values().toDoubleVector();
    }

    @Override
    public MixtureDistribution distribution(INDArray phi) {
        Checks.rank("phi", phi, 2);
        DistributionBuilder d = distributionBuilder(Math.toIntExact(phi.size(0)));
        d.add(phi, 0, Arena.create());
        return (MixtureDistribution) d.build();
    }

    /**
     * Fills the means of one columnar Gaussian {@link MixtureDistribution} (K = 1, standard deviation {@link
     * #noiseStd()}, read once when the builder is made) chunk by chunk from an arena buffer.
     */
    @Override
    public DistributionBuilder distributionBuilder(int rows) {
        Checks.atLeast("rows", rows, 1);
        double[] mu = new double[rows]; // [B]
        double s = noiseStd;
        return new DistributionBuilder() {
            private int next;

            @Override
            public void add(INDArray phi, int row, Arena arena) {
                int added = DistributionBuilder.checkChunk(phi, row, next, rows);
                INDArray out = proj.forward(phi, arena).output(); // [b, 1]
                Host.read(out, 0, mu, row, added - next);
                if (config.sigmoid()) {
                    boolean single = out.dataType() == DataType.FLOAT;
                    for (int i = row; i < added; i++) {
                        double v = 1 / (1 + Math.exp(-mu[i]));
                        mu[i] = single ? (float) v : v; // as the training forward stores it
                    }
                }
                next = added;
            }

            @Override
            public MixtureDistribution build() {
                Checks.require(next == rows, "every row must be added before build: got %d of %d", next, rows);
                double[] sd = new double[rows];
                Arrays.fill(sd, s);
                return MixtureDistribution.gaussian(mu, sd);
            }
        };
    }

    @Override
    public String toString() {
        return "PointwiseHead(" + config + ")";
    }
}
