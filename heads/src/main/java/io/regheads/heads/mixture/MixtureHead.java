package io.regheads.heads.mixture;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.FastExp;
import io.regheads.core.internal.Host;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.Param;
import java.util.List;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Mixture density head: one linear map {@code phi [B, D] -> [B, 3K]} split into mixture log-weights, means and
 * pre-activation scales s, with
 * <pre>
 *   sigma = ELU(s) + 1 + floor  =  exp(s) + floor  (s &lt;= 0),   s + 1 + floor  (s > 0)
 *   d sigma / ds                =  exp(s)          (s &lt;= 0),   1              (s > 0)
 * </pre>
 * (floor {@link MixtureSpec#sigmaFloor()}, by default {@link #SIGMA_FLOOR} = 1e-4, in the head's y units: y01 - 0.5 in {@code RegressionModel}, where the whole
 * training range has width 1). ELU + 1 is positive and does not overflow for large s, but {@code exp(s)} underflows
 * to 0 for s below about -745 in double (-104 in float), as happens for inputs far outside the training range or
 * after a diverging step; the floor keeps every sigma >= 1e-4, so the density, NLL and quantiles stay defined, and
 * it caps the density of one component at {@code 1 / (sqrt(2 pi) 1e-4) ~ 4000}. The derivative is unchanged by the
 * floor (checked by central differences in double precision, including s where exp(s) underflows).
 *
 * <p>Output: {@link GaussianMixture} with weightLogits, means and stds {@code [B, K]}; any loss of the losses
 * module trains it (CE = NLL by log-sum-exp, NTL-WAS = E|Y - y| in closed form, ...). Distribution: {@link
 * MixtureDistribution}. Layout of the linear output's columns: {@code [0, K)} log-weights, {@code [K, 2K)} means,
 * {@code [2K, 3K)} scales.
 *
 * <p>Thread safety: as {@link RegressionHead}.
 */
public final class MixtureHead implements RegressionHead<Linear.Cache> {
    /** The default smallest standard deviation the head emits (see the class description). */
    public static final double SIGMA_FLOOR = 1e-4;

    private final MixtureSpec spec;
    private final int inputWidth;
    private final int components;
    private final double sigmaFloor;
    private final Linear proj;

    /**
     * A head with freshly initialised parameters ({@link MixtureSpec#build} calls it).
     *
     * @param spec       the head's settings: components K and the sigma floor
     * @param inputWidth D, at least 1
     * @param seed       initialisation seed
     * @param type       FLOAT or DOUBLE
     * @throws IllegalArgumentException on a null spec or an input width below 1
     */
    public MixtureHead(MixtureSpec spec, int inputWidth, long seed, DataType type) {
        this.spec = Checks.notNull("spec", spec);
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.components = spec.components();
        this.sigmaFloor = spec.sigmaFloor();
        this.proj = new Linear("mdn", inputWidth, 3 * components, type, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
    }

    /** {@return the spec this head was built from} */
    public MixtureSpec spec() {
        return spec;
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

    /** {@code sigma(s) = ELU(s) + 1 + SIGMA_FLOOR}. */
    static double sigma(double s) {
        return sigma(s, SIGMA_FLOOR);
    }

    /** {@code sigma(s) = ELU(s) + 1 + floor}. */
    static double sigma(double s, double floor) {
        return (s > 0 ? s + 1 : Math.exp(s)) + floor;
    }

    /** {@code d sigma / ds}. */
    static double dSigma(double s) {
        return s > 0 ? 1 : Math.exp(s);
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
        int b = (int) phi.size(0);
        int k = components;
        DataType type = phi.dataType();
        INDArray w = arena.get(type, b, k); // [B, K]
        INDArray mu = arena.get(type, b, k); // [B, K]
        INDArray sd = arena.get(type, b, k); // [B, K]
        double[] raw = Host.doubles(c.output()); // [B, 3K]
        double[] vw = new double[b * k];
        double[] vm = new double[b * k];
        double[] vs = new double[b * k];
        for (int i = 0; i < b; i++) {
            int r = i * 3 * k;
            for (int j = 0; j < k; j++) {
                vw[i * k + j] = raw[r + j];
                vm[i * k + j] = raw[r + k + j];
                double s = raw[r + 2 * k + j];
                vs[i * k + j] = sigma(s, sigmaFloor);
            }
        }
        Host.write(vw, w);
        Host.write(vm, mu);
        Host.write(vs, sd);
        return new Forward<>(new GaussianMixture(w, mu, sd), c); // the cache: the raw outputs, scales before ELU
    }

    /**
     * @param dOutput a {@link GaussianMixture} of the forward output's shapes {@code [B, K]}
     * @throws IllegalArgumentException if forward is not from this head or dOutput has another form or shape
     */
    @Override
    public INDArray backward(Forward<Linear.Cache> forward, HeadOutput dOutput, Arena arena) {
        Checks.require(forward != null && forward.cache() != null, "forward must come from this head's forward");
        Checks.require(dOutput instanceof GaussianMixture, "dOutput must be a GaussianMixture, got %s",
                dOutput == null ? "null" : dOutput.getClass().getSimpleName());
        GaussianMixture d = (GaussianMixture) dOutput;
        Linear.Cache c = forward.cache();
        int k = components;
        int b = (int) c.output().size(0);
        Checks.shape("dOutput means", d.means(), b, k);
        INDArray dRaw = arena.get(c.output().dataType(), c.output().shape()); // [B, 3K]
        double[] raw = Host.doubles(c.output()); // [B, 3K]
        double[] dr = new double[raw.length];
        double[] dw = Host.doubles(Host.contiguous(d.weightLogits(), dRaw.dataType())); // [B, K]
        double[] dm = Host.doubles(Host.contiguous(d.means(), dRaw.dataType()));
        double[] ds = Host.doubles(Host.contiguous(d.stds(), dRaw.dataType()));
        for (int i = 0; i < b; i++) {
            int r = i * 3 * k;
            for (int j = 0; j < k; j++) {
                dr[r + j] = dw[i * k + j];
                dr[r + k + j] = dm[i * k + j];
                double s = raw[r + 2 * k + j];
                // sigma = ELU(s) + 1 + floor  ->  d sigma / ds = 1 (s > 0) or exp(s)
                dr[r + 2 * k + j] = ds[i * k + j] * dSigma(s);
            }
        }
        Host.write(dr, dRaw);
        return proj.backward(c, dRaw, arena);
    }

    /**
     * The mixtures for rows of phi. Valid for every finite phi: the scales have the floor, and a row whose float
     * output overflows is recomputed in double precision ({@link Linear#inferRows}).
     *
     * @param phi {@code [B, D]} of the head's type
     * @throws IllegalArgumentException if phi is not {@code [B, D]}, or has a non-finite value (the message names
     *                                  the row), or its output overflows even in double
     */
    @Override
    public MixtureDistribution distribution(INDArray phi) {
        Checks.rows("phi", phi, "D", inputWidth);
        int b = (int) phi.size(0);
        int k = components;
        double[] raw = proj.inferRows("phi", phi); // [B * 3K]
        double[][] w = new double[b][k];
        double[][] mu = new double[b][k];
        double[][] sd = new double[b][k];
        for (int i = 0; i < b; i++) {
            int r = i * 3 * k;
            for (int j = 0; j < k; j++) {
                w[i][j] = raw[r + j];
                mu[i][j] = raw[r + k + j];
                sd[i][j] = sigma(raw[r + 2 * k + j], sigmaFloor);
            }
        }
        return MixtureDistribution.fromLogits(w, mu, sd);
    }

    /**
     * Fills one columnar {@link MixtureDistribution} chunk by chunk ({@code MixtureBuilder}, beside this file, names
     * this head's {@link #distribution} as its reference): the linear output {@code [b, 3K]} into an arena
     * buffer, one host copy of it, then the stable softmax of the log-weights and {@code sigma = ELU(s) + 1} with
     * the vectorised double exponential ({@link FastExp}, relative error at most {@link
     * FastExp#DOUBLE_MAX_RELATIVE_ERROR}) over the whole chunk at once, straight into the distribution's flat
     * arrays; sigma gets the head's floor as in {@link #distribution}. So weights and scales are those of {@link
     * #distribution} within a relative 1e-15 (a weight below {@code e^-708} of its row's largest becomes {@code
     * 3.3e-308} instead of underflowing). A row whose float output overflowed is recomputed in double from phi
     * ({@link Linear#inferRowInDouble}), so every finite phi gives a valid distribution.
     */
    @Override
    public DistributionBuilder distributionBuilder(int rows) {
        return new MixtureBuilder(proj, components, sigmaFloor, rows);
    }

    @Override
    public String toString() {
        return "MixtureHead(K=" + components + ", D=" + inputWidth + ")";
    }
}
