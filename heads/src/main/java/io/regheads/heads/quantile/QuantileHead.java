package io.regheads.heads.quantile;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.QuantileKnots;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.internal.PiecewiseQuantiles;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.Param;
import java.util.List;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Quantile head: one linear map {@code phi [B, D] -> r [B, L]} turned into L non-crossing quantiles at fixed levels
 * {@code t_0 < ... < t_{L-1}}, monotone by construction:
 * <pre>
 *   q_0 = r_0,   q_l = q_{l-1} + softplus(r_l) + floor   (l = 1..L-1),   softplus(r) = log(1 + e^r)
 *   d q_l / d r_0 = 1,   d q_l / d r_j = sigmoid(r_j)   (1 &lt;= j &lt;= l), 0 otherwise
 * </pre>
 * so backward is a suffix sum: {@code dR_0 = sum_l dQ_l}, {@code dR_j = sigmoid(r_j) sum_{l >= j} dQ_l}. The floor
 * ({@link QuantileSpec#incrementFloor()}, default {@link #INCREMENT_FLOOR} = 1e-6 in the head's units, where the training
 * range has width 1) keeps the knots strictly increasing when softplus underflows, so the density stays finite (at
 * most {@code max_l (t_l - t_{l-1}) / floor}). At initialisation the bias spreads the knots evenly (in proportion to
 * the level gaps) over [-0.5, 0.5], the training range in {@code y01 - 0.5} units.
 *
 * <p>Output: {@link QuantileKnots} {@code [B, L]}, trained with {@code pinball} (the default) or {@code crps}.
 * Distribution: {@link QuantileDistribution}, the piecewise-linear cdf through the knots with exponential tails.
 *
 * <p>Thread safety: as {@link RegressionHead}.
 */
public final class QuantileHead implements RegressionHead<Linear.Cache> {
    /** The default smallest increment between consecutive knots. */
    public static final double INCREMENT_FLOOR = 1e-6;

    private final QuantileSpec spec;
    private final int inputWidth;
    private final Linear proj;
    private final double[] levels; // [L], shared with every output and distribution (never modified)
    private final PiecewiseQuantiles quantiles;

    /**
     * A head with freshly initialised parameters: Linear's uniform weights, and a bias that places the knots evenly
     * over [-0.5, 0.5] (first knot -0.5, increments {@code (t_l - t_{l-1}) / (t_{L-1} - t_0)}).
     *
     * @param spec       levels and floor
     * @param inputWidth D, at least 1
     * @param seed       initialisation seed
     * @param type       FLOAT or DOUBLE
     * @throws IllegalArgumentException on an input width below 1
     */
    public QuantileHead(QuantileSpec spec, int inputWidth, long seed, DataType type) {
        this.spec = Checks.notNull("spec", spec);
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.levels = spec.levels();
        int n = levels.length;
        this.proj = new Linear("quantile", inputWidth, n, type, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
        this.quantiles = PiecewiseQuantiles.of(levels);
        double[] bias = Host.doubles(Host.contiguous(proj.bias().value(), DataType.DOUBLE)); // [L]
        bias[0] += -0.5;
        for (int l = 1; l < n; l++) {
            double increment = (levels[l] - levels[l - 1]) / (levels[n - 1] - levels[0]);
            double target = Math.max(increment - spec.incrementFloor(), 1e-3 * increment);
            bias[l] += Math.log(Math.expm1(target)); // softplus^-1
        }
        proj.bias().value().assign(org.nd4j.linalg.factory.Nd4j.createFromArray(bias).castTo(type));
    }

    /** {@return the spec: levels and floor} */
    public QuantileSpec spec() {
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

    /** {@code softplus(r) = log(1 + e^r)} without overflow. */
    static double softplus(double r) {
        return r > 0 ? r + Math.log1p(Math.exp(-r)) : Math.log1p(Math.exp(r));
    }

    /** {@code sigmoid(r) = d softplus / dr}. */
    static double sigmoid(double r) {
        return r >= 0 ? 1 / (1 + Math.exp(-r)) : Math.exp(r) / (1 + Math.exp(r));
    }

    /** Knots of {@code rows} rows from raw outputs {@code r [rows * L]} into {@code q} (in place allowed). */
    private void knots(double[] r, double[] q, int rows) {
        int n = levels.length;
        double floor = spec.incrementFloor();
        for (int b = 0; b < rows; b++) {
            int o = b * n;
            double acc = r[o];
            q[o] = acc;
            for (int l = 1; l < n; l++) {
                acc += softplus(r[o + l]) + floor;
                q[o + l] = acc;
            }
        }
    }

    /**
     * @param phi     {@code [B, D]}
     * @param targets not used (may be null)
     * @throws IllegalArgumentException if phi is not {@code [B, D]} of the head's type
     */
    @Override
    public Forward<Linear.Cache> forward(INDArray phi, Targets targets, Arena arena) {
        Checks.rows("phi", phi, "D", inputWidth);
        Linear.Cache c = proj.forward(phi, arena); // c.output() = r [B, L]
        int b = (int) phi.size(0);
        double[] q = Host.doubles(c.output()); // [B * L]
        knots(q, q, b);
        INDArray out = arena.get(phi.dataType(), b, levels.length); // [B, L]
        Host.write(q, out);
        return new Forward<>(new QuantileKnots(out, levels), c);
    }

    /**
     * @param dOutput a {@link QuantileKnots} of the forward output's shape {@code [B, L]}
     * @throws IllegalArgumentException if forward is not from this head or dOutput has another form or shape
     */
    @Override
    public INDArray backward(Forward<Linear.Cache> forward, HeadOutput dOutput, Arena arena) {
        Checks.require(forward != null && forward.cache() != null, "forward must come from this head's forward");
        Checks.require(dOutput instanceof QuantileKnots, "dOutput must be QuantileKnots, got %s",
                dOutput == null ? "null" : dOutput.getClass().getSimpleName());
        Linear.Cache c = forward.cache();
        int n = levels.length;
        int b = (int) c.output().size(0);
        INDArray dq = ((QuantileKnots) dOutput).knots(); // [B, L]
        Checks.shape("dOutput knots", dq, b, n);
        double[] r = Host.doubles(c.output()); // [B * L]
        double[] d = Host.doubles(Host.contiguous(dq, c.output().dataType())); // [B * L] dQ, then dR in place
        for (int i = 0; i < b; i++) {
            int o = i * n;
            double suffix = 0; // sum_{l >= j} dQ_l
            for (int j = n - 1; j >= 1; j--) {
                suffix += d[o + j];
                d[o + j] = sigmoid(r[o + j]) * suffix; // q_l = q_{l-1} + softplus(r_l) + floor
            }
            d[o] += suffix; // q_0 = r_0 enters every knot
        }
        INDArray dRaw = arena.get(c.output().dataType(), b, n); // [B, L]
        Host.write(d, dRaw);
        return proj.backward(c, dRaw, arena);
    }

    /**
     * The distributions for rows of phi. Valid for every finite phi: a row whose float output overflows is recomputed
     * in double precision ({@link Linear#inferRows}); the floor keeps the knots strictly increasing.
     *
     * @param phi {@code [B, D]} of the head's type
     * @throws IllegalArgumentException if phi is not {@code [B, D]} or has a non-finite value (naming the row), or a
     *                                  row's knots overflow
     */
    @Override
    public QuantileDistribution distribution(INDArray phi) {
        Checks.rows("phi", phi, "D", inputWidth);
        int b = (int) phi.size(0);
        double[] q = proj.inferRows("phi", phi); // [B * L]
        knots(q, q, b);
        return new QuantileDistribution(quantiles, q);
    }

    @Override
    public String toString() {
        return "QuantileHead(L=" + levels.length + ", D=" + inputWidth + ")";
    }
}
