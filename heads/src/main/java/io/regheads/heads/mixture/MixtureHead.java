package io.regheads.heads.mixture;

import io.regheads.core.head.GaussianMixture;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.FastExp;
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
 * pre-activation scales, with {@code sigma = ELU(s) + 1} (always > 0, gradient never vanishes for s < 0 as fast as
 * with exp, and no overflow for large s).
 *
 * <p>Output: {@link GaussianMixture} with weightLogits, means and stds {@code [B, K]}; any loss of the losses
 * module trains it (CE = NLL by log-sum-exp, NTL-WAS = E|Y - y| in closed form, ...). Distribution: {@link
 * MixtureDistribution}. Layout of the linear output's columns: {@code [0, K)} log-weights, {@code [K, 2K)} means,
 * {@code [2K, 3K)} scales.
 *
 * <p>Thread safety: as {@link RegressionHead}.
 */
public final class MixtureHead implements RegressionHead {

    /**
     * @param inputWidth D
     * @param components K >= 1
     * @param seed       initialisation seed
     */
    public record Config(int inputWidth, int components, long seed) {
        public Config {
            Checks.atLeast("inputWidth", inputWidth, 1);
            Checks.atLeast("components", components, 1);
        }

        /** The peer's and the paper's default: 10 components. */
        public static Config of(int inputWidth, long seed) {
            return new Config(inputWidth, 10, seed);
        }
    }

    /** What backward needs: the linear cache and the scales before ELU. */
    record Cache(Linear.Cache linear) {}

    private final Config config;
    private final Linear proj;

    public MixtureHead(Config config, DataType type) {
        this.config = Checks.notNull("config", config);
        this.proj = new Linear("mdn", config.inputWidth(), 3 * config.components(), type,
                RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed()));
    }

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
    public Forward forward(INDArray phi, Targets targets, Arena arena) {
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
        return new Forward(new GaussianMixture(w, mu, sd), new Cache(c));
    }

    @Override
    public INDArray backward(Forward forward, HeadOutput dOutput, Arena arena) {
        Checks.require(dOutput instanceof GaussianMixture, "dOutput must be a GaussianMixture, got %s", dOutput.getClass().getSimpleName());
        GaussianMixture d = (GaussianMixture) dOutput;
        Linear.Cache c = ((Cache) forward.cache()).linear();
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
        Checks.rank("phi", phi, 2);
        DistributionBuilder d = distributionBuilder(Math.toIntExact(phi.size(0)));
        d.add(phi, 0, Arena.create());
        return (MixtureDistribution) d.build();
    }

    /**
     * Fills one columnar {@link MixtureDistribution} chunk by chunk: the linear output {@code [b, 3K]} into an arena
     * buffer, one host copy of it, then the stable softmax of the log-weights and {@code sigma = ELU(s) + 1} with
     * the vectorised double exponential ({@link FastExp}, relative error at most {@link
     * FastExp#DOUBLE_MAX_RELATIVE_ERROR}) over the whole chunk at once, straight into the distribution's flat
     * arrays. For a FLOAT model sigma is rounded to float, as the training forward stores it.
     */
    @Override
    public DistributionBuilder distributionBuilder(int rows) {
        Checks.atLeast("rows", rows, 1);
        int k = config.components();
        double[] w = new double[Math.multiplyExact(rows, k)]; // [B * K]
        double[] mu = new double[rows * k];
        double[] sd = new double[rows * k];
        return new DistributionBuilder() {
            private int next;

            @Override
            public void add(INDArray phi, int row, Arena arena) {
                int added = DistributionBuilder.checkChunk(phi, row, next, rows);
                int b = added - next;
                INDArray out = proj.forward(phi, arena).output(); // [b, 3K]
                boolean single = out.dataType() == DataType.FLOAT;
                double[] raw = hostDoubles(out, arena); // [b * 3K]
                double[] logit = arena.doubles(b * k); // [b * K] log-weights minus their row maximum
                double[] scale = arena.doubles(b * k); // [b * K] min(s, 0)
                double[] e = arena.doubles(b * k);
                double[] carrier = arena.doubles(b * k);
                for (int i = 0; i < b; i++) {
                    int r = i * 3 * k;
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < k; j++) {
                        max = Math.max(max, raw[r + j]);
                    }
                    if (!(Math.abs(max) <= Double.MAX_VALUE)) { // NaN when any log-weight is NaN
                        throw new IllegalArgumentException("weight logits must be finite, got a row whose largest is "
                                + max + " at row " + (row + i));
                    }
                    for (int j = 0; j < k; j++) {
                        logit[i * k + j] = raw[r + j] - max;
                        scale[i * k + j] = Math.min(raw[r + 2 * k + j], 0.0);
                    }
                }
                FastExp.prepare(logit, 0.0, e, carrier, 0, b * k);
                for (int i = 0; i < b * k; i++) {
                    e[i] = FastExp.finish(e[i], carrier[i]);
                }
                FastExp.prepare(scale, 0.0, logit, carrier, 0, b * k); // logit := polynomials of exp(min(s, 0))
                for (int i = 0; i < b; i++) {
                    int r = i * 3 * k;
                    int o = (row + i) * k;
                    double sum = 0;
                    for (int j = 0; j < k; j++) {
                        sum += e[i * k + j];
                    }
                    for (int j = 0; j < k; j++) {
                        w[o + j] = e[i * k + j] / sum; // sum >= 1: the maximum's exp(0)
                        mu[o + j] = raw[r + k + j];
                        double z = raw[r + 2 * k + j];
                        double sigma = z > 0 ? z + 1 : FastExp.finish(logit[i * k + j], carrier[i * k + j]); // ELU + 1
                        sd[o + j] = single ? (float) sigma : sigma;
                    }
                }
                next = added;
            }

            @Override
            public MixtureDistribution build() {
                Checks.require(next == rows, "every row must be added before build: got %d of %d", next, rows);
                return new MixtureDistribution(k, w, mu, sd);
            }
        };
    }

    /** The elements of a FLOAT or DOUBLE array as doubles, in arena scratch (a float copy widened in one loop). */
    private static double[] hostDoubles(INDArray a, Arena arena) {
        int n = Math.toIntExact(a.length());
        double[] d = arena.doubles(n);
        if (a.dataType() == DataType.FLOAT) {
            float[] f = Host.read(a, arena.floats(n));
            for (int i = 0; i < n; i++) {
                d[i] = f[i];
            }
        } else {
            Host.read(a, d);
        }
        return d;
    }

    @Override
    public String toString() {
        return "MixtureHead(K=" + config.components() + ", D=" + config.inputWidth() + ")";
    }
}
