package io.regheads.heads.pointwise;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.Scalar;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.Param;
import io.regheads.heads.internal.NoiseLevel;
import io.regheads.heads.mixture.MixtureDistribution;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Pointwise head: {@code y_hat = w . phi + b}, optionally squashed by a sigmoid into (0, 1).
 *
 * <p>Output: {@link Scalar} {@code [B]}; trained with squared, absolute or Huber error. As a distribution it is
 * {@code N(y_hat, s^2)} with a noise level s that is not learned by the point loss: its after-fit step ({@link
 * #afterFit}) sets it to the root mean squared residual on held-out rows (the model API passes its validation rows,
 * or the training rows when there are none, as the PyTorch reference implementation does), so the head has an NLL comparable with the
 * others; it is saved with a model as the state {@code noiseStd} ({@link #state()}). {@link #setNoiseStd} sets it
 * directly.
 *
 * <p>Thread safety: parameters and the noise level change only in training and calibration.
 */
public final class PointwiseHead implements RegressionHead<Linear.Cache> {

    /** The name of the saved noise level in {@link #state()}. */
    public static final String NOISE_STD = NoiseLevel.STATE_KEY;

    private final PointwiseSpec spec;
    private final int inputWidth;
    private final long seed;
    private final boolean sigmoid;
    private final Linear proj;
    private final NoiseLevel noise = new NoiseLevel();

    /**
     * A head with freshly initialised parameters ({@link PointwiseSpec#build} calls it).
     *
     * @param spec       the head's settings
     * @param inputWidth D, at least 1
     * @param seed       initialisation seed
     * @param type       FLOAT or DOUBLE
     * @throws IllegalArgumentException on a null spec or an input width below 1
     */
    public PointwiseHead(PointwiseSpec spec, int inputWidth, long seed, DataType type) {
        this.spec = Checks.notNull("spec", spec);
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.seed = seed;
        this.sigmoid = spec.sigmoid();
        this.proj = new Linear("pointwise", inputWidth, 1, type, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
    }

    /** {@return the spec this head was built from} */
    public PointwiseSpec spec() {
        return spec;
    }

    /** The standard deviation of the Gaussian that {@link #distribution} reports around the point prediction. */
    public double noiseStd() {
        return noise.std();
    }

    /** Sets the reported noise level; must be finite and > 0. */
    public void setNoiseStd(double std) {
        noise.set(std);
    }

    @Override
    public int inputWidth() {
        return inputWidth;
    }

    @Override
    public List<Param> params() {
        return proj.params();
    }

    @Override
    public Targets targets(double[] y) {
        return new Targets.Values(y);
    }

    /**
     * @param phi     {@code [B, D]}
     * @param targets not used (may be null)
     * @throws IllegalArgumentException if phi is not {@code [B, D]} of the head's type
     */
    @Override
    public Forward<Linear.Cache> forward(INDArray phi, Targets targets, Arena arena) {
        Checks.rows("phi", phi, "D", inputWidth);
        Linear.Cache c = proj.forward(phi, arena);
        INDArray values = arena.view(c.output(), phi.size(0)); // [B] view of [B, 1]
        if (sigmoid) {
            double[] v = Host.doubles(values);
            for (int i = 0; i < v.length; i++) {
                v[i] = 1 / (1 + Math.exp(-v[i]));
            }
            Host.write(v, values);
        }
        return new Forward<>(new Scalar(values), c);
    }

    /**
     * @param dOutput a {@link Scalar} of the forward output's shape {@code [B]}
     * @throws IllegalArgumentException if forward is not from this head or dOutput has another form or shape
     */
    @Override
    public INDArray backward(Forward<Linear.Cache> forward, HeadOutput dOutput, Arena arena) {
        Checks.require(forward != null && forward.cache() != null, "forward must come from this head's forward");
        Checks.require(dOutput instanceof Scalar, "dOutput must be a Scalar, got %s",
                dOutput == null ? "null" : dOutput.getClass().getSimpleName());
        Linear.Cache c = forward.cache();
        INDArray d = ((Scalar) dOutput).values();
        int b = (int) c.output().size(0);
        Checks.shape("dOutput values", d, b);
        INDArray dRaw = arena.get(c.output().dataType(), b, 1); // [B, 1]
        double[] out = Host.doubles(((Scalar) forward.output()).values()); // [B]
        double[] dv = Host.doubles(Host.contiguous(d, dRaw.dataType())); // [B]
        double[] dr = new double[b];
        for (int i = 0; i < b; i++) {
            double s = out[i]; // the output: sigmoid(z) when squashing
            dr[i] = sigmoid ? dv[i] * s * (1 - s) : dv[i];
        }
        Host.write(dr, dRaw);
        return proj.backward(c, dRaw, arena);
    }

    /**
     * The after-fit step: {@code noiseStd = sqrt(max(mean((predict(phi) - y)^2), 1e-12))} ({@link NoiseLevel#fit}).
     *
     * @param phi {@code [B, D]} features of held-out rows
     * @param y   {@code [B]} their labels in head units
     * @throws IllegalArgumentException if y is null, non-finite or not of length B
     */
    @Override
    public void afterFit(INDArray phi, double[] y) {
        noise.fit(predict(phi), y);
    }

    /** @return {@code {noiseStd}} */
    @Override
    public Map<String, Double> state() {
        return noise.state();
    }

    /**
     * Puts back {@code noiseStd}.
     *
     * @throws IllegalArgumentException if the entry is missing, not finite and > 0, or another entry is present
     */
    @Override
    public void restoreState(Map<String, Double> state) {
        noise.restore(state);
    }

    /**
     * Point predictions {@code [B]}, finite for every finite phi (a row whose float output overflows is recomputed
     * in double precision, {@link Linear#inferRows}).
     *
     * @param phi {@code [B, D]} of the head's type
     * @throws IllegalArgumentException if phi is not {@code [B, D]} or has a non-finite value (naming the row)
     */
    public double[] predict(INDArray phi) {
        Checks.rows("phi", phi, "D", inputWidth);
        double[] v = proj.inferRows("phi", phi); // [B]
        if (sigmoid) {
            for (int i = 0; i < v.length; i++) {
                v[i] = 1 / (1 + Math.exp(-v[i]));
            }
        }
        return v;
    }

    /** {@code N(predict(phi), noiseStd^2)} per row; the arguments and exceptions of {@link #predict}. */
    @Override
    public MixtureDistribution distribution(INDArray phi) {
        return noise.around(predict(phi));
    }

    /**
     * Fills the means of one columnar Gaussian {@link MixtureDistribution} (K = 1, standard deviation {@link
     * #noiseStd()}, read once when the builder is made) chunk by chunk from an arena buffer: the same means as
     * {@link #distribution}, a row whose float output overflowed recomputed in double from phi ({@link
     * Linear#inferRowInDouble}).
     */
    @Override
    public DistributionBuilder distributionBuilder(int rows) {
        Checks.atLeast("rows", rows, 1);
        double[] mu = new double[rows]; // [B]
        double s = noise.std();
        return new DistributionBuilder() {
            private int next;

            @Override
            public void add(INDArray phi, int row, Arena arena) {
                int added = DistributionBuilder.checkChunk(phi, row, next, rows);
                INDArray out = proj.forward(phi, arena).output(); // [b, 1]
                Host.read(out, 0, mu, row, added - next);
                for (int i = row; i < added; i++) {
                    if (!Double.isFinite(mu[i])) {
                        mu[i] = proj.inferRowInDouble("phi", phi, i - row, i)[0];
                    }
                    if (sigmoid) {
                        mu[i] = 1 / (1 + Math.exp(-mu[i]));
                    }
                }
                next = added;
            }

            @Override
            public MixtureDistribution build() {
                Checks.require(next == rows, "every row must be added before build: got %d of %d", next, rows);
                return NoiseLevel.gaussian(mu, s);
            }
        };
    }

    @Override
    public String toString() {
        return "PointwiseHead(" + spec + ", D=" + inputWidth + ", seed=" + seed + ")";
    }
}
