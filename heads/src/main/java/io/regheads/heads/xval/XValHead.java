package io.regheads.heads.xval;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.Scalar;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.ArrayChecks;
import io.regheads.core.internal.Host;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.GELU;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.Param;
import io.regheads.heads.internal.NoiseLevel;
import io.regheads.heads.mixture.MixtureDistribution;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The xVal number head (Golkar et al., "xVal: A Continuous Number Encoding for Large Language Models",
 * arXiv:2310.02989, section 2.2): an MLP with one hidden layer of the embedding width and a scalar output, trained with MSE; optionally with a learned standard deviation, so that it
 * has a Gaussian NLL.
 * <pre>
 *   a     = GELU(phi W1 + b1)                    phi [B, D] -> [B, H]   (H = D by default)
 *   o     = a W2 + b2                            [B, 1], or [B, 2] with a learned variance
 *   y_hat = o[:, 0]                              Scalar [B]                      (MSE: Losses.ce() on a Scalar)
 *   sigma = softplus(o[:, 1]) + 1e-6             GaussianMixture K = 1 [B, 1]     (NLL: Losses.ce() on a mixture)
 * </pre>
 * Backward: {@code do[:, 0] = dy_hat} (or {@code dMeans}), {@code do[:, 1] = dSigma * sigmoid(o[:, 1])}; the
 * mixture's weight logits are the constant 0 (one component) and get no gradient.
 *
 * <p>As a distribution: {@code N(y_hat, s^2)} with s the learned sigma or, for the point head, a noise level set by
 * its after-fit step ({@link #afterFit}: the root mean squared residual on held-out rows, saved as the state {@code
 * noiseStd}) or by {@link #setNoiseStd}, so the head fits the {@code PredictiveDistribution} contract like {@link
 * io.regheads.heads.pointwise.PointwiseHead}. As a model's head: {@link XValSpec}. The paper's normalised MSE for the multi-scale
 * embedding is a target scaling done by the caller ({@link io.regheads.heads.text.SequenceModel} standardises y).
 *
 * <p>Thread safety: parameters and the noise level change only in training and calibration.
 */
public final class XValHead implements RegressionHead<XValHead.Cache> {

    /** Smallest standard deviation the learned-variance output reports. */
    public static final double MIN_STD = 1e-6;
    /** The name of the saved noise level in {@link #state()}. */
    public static final String NOISE_STD = NoiseLevel.STATE_KEY;

    /**
     * What backward needs: the caches of the two layers and the activation.
     *
     * @param fc1  {@code phi W1 + b1}, {@code [B, H]}
     * @param gelu {@code a = GELU(...)}, {@code [B, H]}
     * @param fc2  {@code o = a W2 + b2}, {@code [B, 1 or 2]}
     */
    public record Cache(Linear.Cache fc1, GELU.Cache gelu, Linear.Cache fc2) {}

    private final XValSpec spec;
    private final int inputWidth;
    private final long seed;
    private final boolean learnedVariance;
    private final DataType type;
    private final Linear fc1;
    private final GELU gelu = new GELU(GELU.Form.TANH);
    private final Linear fc2;
    private final List<Param> params;
    private final NoiseLevel noise = new NoiseLevel();

    /**
     * A head with freshly initialised parameters ({@link XValSpec#build} calls it).
     *
     * @param spec       the head's settings: hidden width H and whether the variance is learned
     * @param inputWidth D, at least 1
     * @param seed       initialisation seed
     * @param type       FLOAT or DOUBLE
     * @throws IllegalArgumentException on a null spec, an input width below 1 or another type
     */
    public XValHead(XValSpec spec, int inputWidth, long seed, DataType type) {
        this.spec = Checks.notNull("spec", spec);
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.seed = seed;
        this.learnedVariance = spec.learnedVariance();
        Checks.require(type == DataType.FLOAT || type == DataType.DOUBLE, "type must be FLOAT or DOUBLE, got %s",
                type);
        this.type = type;
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        this.fc1 = new Linear("xval.fc1", inputWidth, spec.hidden(), type, rng);
        this.fc2 = new Linear("xval.fc2", spec.hidden(), learnedVariance ? 2 : 1, type, rng);
        List<Param> p = new ArrayList<>(fc1.params());
        p.addAll(fc2.params());
        this.params = Collections.unmodifiableList(p);
    }

    /** {@return the spec this head was built from} */
    public XValSpec spec() {
        return spec;
    }

    /** The reported standard deviation of the point head (unused with a learned variance). */
    public double noiseStd() {
        return noise.std();
    }

    /**
     * Sets the point head's reported noise level.
     *
     * @throws IllegalArgumentException unless std is finite and > 0
     */
    public void setNoiseStd(double std) {
        noise.set(std);
    }

    @Override
    public int inputWidth() {
        return inputWidth;
    }

    @Override
    public List<Param> params() {
        return params;
    }

    /** @throws IllegalArgumentException if y is null or holds a non-finite value */
    @Override
    public Targets targets(double[] y) {
        Checks.allFinite("y", y);
        return new Targets.Values(y);
    }

    /** @throws IllegalArgumentException if phi is not [B, D] in the head's type */
    @Override
    public Forward<Cache> forward(INDArray phi, Targets targets, Arena arena) {
        Checks.rows("phi", phi, "D", inputWidth);
        Checks.require(phi.dataType() == type, "phi must have data type %s, got %s", type, phi.dataType());
        int b = Math.toIntExact(phi.size(0));
        Linear.Cache c1 = fc1.forward(phi, arena); // [B, H]
        GELU.Cache cg = gelu.forward(c1.output(), arena); // [B, H]
        Linear.Cache c2 = fc2.forward(cg.output(), arena); // [B, 1 or 2]
        Cache cache = new Cache(c1, cg, c2);
        double[] o = Host.doubles(c2.output()); // [B * (1 or 2)]
        if (!learnedVariance) {
            INDArray values = arena.get(type, b); // [B]
            Host.write(o, values);
            return new Forward<>(new Scalar(values), cache);
        }
        INDArray logits = arena.zeros(type, b, 1); // [B, 1]
        INDArray means = arena.get(type, b, 1); // [B, 1]
        INDArray stds = arena.get(type, b, 1); // [B, 1]
        double[] m = new double[b];
        double[] s = new double[b];
        for (int i = 0; i < b; i++) {
            m[i] = o[2 * i];
            s[i] = softplus(o[2 * i + 1]) + MIN_STD;
        }
        Host.write(m, means);
        Host.write(s, stds);
        return new Forward<>(new GaussianMixture(logits, means, stds), cache);
    }

    private static double softplus(double z) {
        return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
    }

    /** @throws IllegalArgumentException if dOutput is not of the form forward produced */
    @Override
    public INDArray backward(Forward<Cache> forward, HeadOutput dOutput, Arena arena) {
        Checks.require(forward != null && forward.cache() != null, "forward must come from this head's forward");
        Checks.notNull("dOutput", dOutput);
        Cache c = Checks.notNull("forward.cache", forward.cache());
        INDArray out = c.fc2().output(); // [B, 1 or 2]
        int b = Math.toIntExact(out.size(0));
        INDArray dOut = arena.get(type, out.shape());
        double[] dov = new double[Math.toIntExact(out.length())];
        if (!learnedVariance) {
            Checks.require(dOutput instanceof Scalar, "dOutput must be a Scalar, got %s",
                    dOutput.getClass().getSimpleName());
            double[] dv = Host.doubles(Checks.shape("dOutput values", ((Scalar) dOutput).values(), b)); // [B]
            for (int i = 0; i < b; i++) {
                dov[i] = dv[i]; // y_hat = o[:, 0]
            }
        } else {
            Checks.require(dOutput instanceof GaussianMixture, "dOutput must be a GaussianMixture, got %s",
                    dOutput.getClass().getSimpleName());
            GaussianMixture g = (GaussianMixture) dOutput;
            Checks.shape("dOutput means", g.means(), b, 1);
            Checks.shape("dOutput stds", g.stds(), b, 1);
            double[] dm = Host.doubles(g.means()); // [B]
            double[] ds = Host.doubles(g.stds());
            double[] o = Host.doubles(out); // [B * 2]
            for (int i = 0; i < b; i++) {
                dov[2 * i] = dm[i];
                // sigma = softplus(z) + MIN_STD  ->  dz = dSigma * sigmoid(z)
                double z = o[2 * i + 1];
                dov[2 * i + 1] = ds[i] / (1 + Math.exp(-z));
            }
        }
        Host.write(dov, dOut);
        INDArray da = fc2.backward(c.fc2(), dOut, arena);
        da = gelu.backward(c.gelu(), da, arena);
        return fc1.backward(c.fc1(), da, arena);
    }

    /**
     * Point predictions: {@link #predict} for every exact estimate (the Gaussian's mean, median and mode coincide;
     * greedy decoding of a continuous output is its mode; AUTO is the mean); the sample-based ones estimate it from
     * samples of the distribution (the interface's default).
     *
     * @param phi      {@code [B, D]}
     * @param estimate which summary
     * @return {@code [B]}
     * @throws IllegalArgumentException if estimate is null or phi is invalid
     */
    @Override
    public double[] point(INDArray phi, PointEstimate estimate) {
        Checks.notNull("estimate", estimate);
        if (estimate == PointEstimate.SAMPLE_MEAN || estimate == PointEstimate.SAMPLE_MEDIAN) {
            return RegressionHead.super.point(phi, estimate);
        }
        return predict(phi);
    }

    /**
     * The after-fit step of the point head: {@code noiseStd = sqrt(max(mean((predict(phi) - y)^2), 1e-12))} ({@link
     * NoiseLevel#fit}); nothing with a learned variance.
     *
     * @param phi {@code [B, D]} features of held-out rows
     * @param y   {@code [B]} their labels in head units
     * @throws IllegalArgumentException if y is null, non-finite or not of length B
     */
    @Override
    public void afterFit(INDArray phi, double[] y) {
        if (learnedVariance) {
            return;
        }
        noise.fit(predict(phi), y);
    }

    /** @return {@code {noiseStd}} for the point head; empty with a learned variance */
    @Override
    public Map<String, Double> state() {
        return learnedVariance ? Map.of() : noise.state();
    }

    /**
     * Puts back {@link #state()}.
     *
     * @throws IllegalArgumentException if the entries differ from {@link #state()}'s names or noiseStd is not
     *                                  finite and > 0
     */
    @Override
    public void restoreState(Map<String, Double> state) {
        if (!learnedVariance) {
            noise.restore(state);
            return;
        }
        Checks.notNull("state", state);
        Checks.require(state.isEmpty(), "state must hold exactly %s, got %s", Set.of(), state.keySet());
    }

    /** Point predictions {@code [B]} (the means). */
    public double[] predict(INDArray phi) {
        HeadOutput out = forward(phi, null, Arena.none()).output();
        return out instanceof Scalar ? ((Scalar) out).values().toDoubleVector()
                : ((GaussianMixture) out).means().reshape(phi.size(0)).toDoubleVector();
    }

    /**
     * {@code N(mean, sigma^2)} per row (sigma learned, or the fixed noise level).
     *
     * @param phi {@code [B, D]} of the head's type, finite
     * @throws IllegalArgumentException if phi is not {@code [B, D]}, has a non-finite value, or a row's output
     *                                  overflows (each message names the row)
     */
    @Override
    public MixtureDistribution distribution(INDArray phi) {
        Checks.rows("phi", phi, "D", inputWidth);
        ArrayChecks.finiteRows("phi", phi);
        HeadOutput out = forward(phi, null, Arena.none()).output();
        if (out instanceof Scalar) {
            return noise.around(finiteOutput("mean", ((Scalar) out).values().toDoubleVector(), phi));
        }
        GaussianMixture g = (GaussianMixture) out;
        long b = phi.size(0);
        return MixtureDistribution.gaussian(finiteOutput("mean", g.means().reshape(b).toDoubleVector(), phi),
                finiteOutput("std", g.stds().reshape(b).toDoubleVector(), phi));
    }

    /** {@code values} [B], or a refusal naming the first row whose value overflowed (phi too large for the type). */
    private double[] finiteOutput(String what, double[] values, INDArray phi) {
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("the xVal head's " + what + " for phi row " + i + " must be finite, got "
                        + values[i] + ": that row's phi (largest magnitude " + phi.getRow(i).amaxNumber() + ") is too "
                        + "large for " + type + " arithmetic");
            }
        }
        return values;
    }

    @Override
    public String toString() {
        return "XValHead(" + spec + ", D=" + inputWidth + ", seed=" + seed + ", " + type + ")";
    }
}
