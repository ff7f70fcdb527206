package io.regheads.heads.mixture;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.Param;
import java.util.List;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Mixture density head: one linear map {@code phi [B, D] -> [B, 3K]} split into mixture log-weights, means and
 * pre-activation scales, with {@code sigma = ELU(s) + 1} (always > 0, gradient never vanishes for s &lt; 0 as fast as
 * with exp, and no overflow for large s).
 *
 * <p>Output: {@link GaussianMixture} with weightLogits, means and stds {@code [B, K]}; any loss of the losses
 * module trains it (CE = NLL by log-sum-exp, NTL-WAS = E|Y - y| in closed form, ...). Distribution: {@link
 * MixtureDistribution}. Layout of the linear output's columns: {@code [0, K)} log-weights, {@code [K, 2K)} means,
 * {@code [2K, 3K)} scales.
 *
 * <p>Thread safety: as {@link RegressionHead}.
 */
public final class MixtureHead implements RegressionHead<Linear.Cache> {

    /**
     * @param inputWidth D
     * @param components K >= 1
     * @param seed       initialisation seed
     */
    public record Config(int inputWidth, int components, long seed) {
        /**
         * @param inputWidth D, at least 1
         * @param components K, at least 1
         * @param seed       initialisation seed
         * @throws IllegalArgumentException on an input width or component count below 1
         */
        public Config {
            Checks.atLeast("inputWidth", inputWidth, 1);
            Checks.atLeast("components", components, 1);
        }

        /** The paper's default (and the PyTorch reference implementation's): 10 components. */
        public static Config of(int inputWidth, long seed) {
            return new Config(inputWidth, 10, seed);
        }
    }

    private final Config config;
    private final Linear proj;

    /**
     * A head with freshly initialised parameters.
     *
     * @param config sizes and seed
     * @param type   FLOAT or DOUBLE
     */
    public MixtureHead(Config config, DataType type) {
        this.config = Checks.notNull("config", config);
        this.proj = new Linear("mdn", config.inputWidth(), 3 * config.components(), type,
                RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed()));
    }

    /** {@return the configuration} */
    public Config config() {
        return config;
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
    public Forward<Linear.Cache> forward(INDArray phi, Targets targets, Arena arena) {
        Linear.Cache c = proj.forward(phi, arena);
        int b = (int) phi.size(0);
        int k = config.components();
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
                vs[i * k + j] = s > 0 ? s + 1 : Math.exp(s); // ELU(s) + 1
            }
        }
        Host.write(vw, w);
        Host.write(vm, mu);
        Host.write(vs, sd);
        return new Forward<>(new GaussianMixture(w, mu, sd), c); // the cache: the raw outputs, scales before ELU
    }

    @Override
    public INDArray backward(Forward<Linear.Cache> forward, HeadOutput dOutput, Arena arena) {
        Checks.require(dOutput instanceof GaussianMixture, "dOutput must be a GaussianMixture, got %s", dOutput.getClass().getSimpleName());
        GaussianMixture d = (GaussianMixture) dOutput;
        Linear.Cache c = forward.cache();
        int b = d.batchSize();
        int k = config.components();
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
                // sigma = ELU(s) + 1  ->  d sigma / ds = 1 (s > 0) or exp(s)
                dr[r + 2 * k + j] = ds[i * k + j] * (s > 0 ? 1 : Math.exp(s));
            }
        }
        Host.write(dr, dRaw);
        return proj.backward(c, dRaw, arena);
    }

    @Override
    public MixtureDistribution distribution(INDArray phi) {
        GaussianMixture g = (GaussianMixture) forward(phi, null, Arena.none()).output();
        return MixtureDistribution.fromLogits(Host.matrix(g.weightLogits()), Host.matrix(g.means()),
                Host.matrix(g.stds()));
    }

    @Override
    public String toString() {
        return "MixtureHead(K=" + config.components() + ", D=" + config.inputWidth() + ")";
    }
}
