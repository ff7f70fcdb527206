package io.regheads.heads.histogram;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
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
 * Histogram (Riemann) head: {@code p = softmax(phi W + b)} over n bins with given borders; density {@code p_i /
 * w_i} inside bin i (optionally half-normal outer tails, see {@link HistogramDistribution}).
 *
 * <p>Output: {@link TokenLogits} with T = 1 position, V = n tokens whose values are the bin centres, so every
 * token loss applies: CE on the bin index is the histogram NLL up to the constant {@code log w_i}; NTL-WAS uses the
 * exact label value (not the bin centre) through {@link Targets.Tokens#values()}; the output carries its bins
 * ({@link TokenLogits.Bins}: borders and tail scales), so CRPS scores the histogram's own cdf in closed form.
 *
 * <p>Labels outside the borders are refused (without tails) or assigned to the outer bins (with tails).
 */
public final class HistogramHead implements RegressionHead<Linear.Cache> {

    private final HistogramSpec spec;
    private final int inputWidth;
    private final long seed;
    private final int n;
    private final Linear proj;
    private final double[] centres;
    private final Bins bins; // checked once, shared by every distribution this head builds

    /**
     * A head with freshly initialised parameters ({@link HistogramSpec#build} calls it), its bins the spec's
     * ({@link HistogramSpec#borders()}).
     *
     * @param spec       the head's settings: bins, range and tails
     * @param inputWidth D, at least 1
     * @param seed       initialisation seed
     * @param type       FLOAT or DOUBLE
     * @throws IllegalArgumentException on a null spec or an input width below 1
     */
    public HistogramHead(HistogramSpec spec, int inputWidth, long seed, DataType type) {
        this.spec = Checks.notNull("spec", spec);
        this.inputWidth = Checks.atLeast("inputWidth", inputWidth, 1);
        this.seed = seed;
        this.n = spec.bins();
        this.proj = new Linear("histogram", inputWidth, n, type, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
        double[] b = spec.borders();
        this.centres = new double[n];
        for (int i = 0; i < n; i++) {
            centres[i] = 0.5 * (b[i] + b[i + 1]);
        }
        this.bins = Bins.of(b, spec.tails());
    }

    /** {@return the spec this head was built from} */
    public HistogramSpec spec() {
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

    /** Bin index and exact value per label. */
    @Override
    public Targets targets(double[] y) {
        Checks.allFinite("y", y);
        int[] tokens = new int[y.length];
        for (int i = 0; i < y.length; i++) {
            int bin = bins.binOf(y[i]);
            if (bin < 0 || bin >= n) {
                Checks.require(bins.tails, "y must be inside the borders [%s, %s] (no tails), got %s at index %d",
                        bins.borders[0], bins.borders[n], y[i], i);
                bin = bin < 0 ? 0 : n - 1;
            }
            tokens[i] = bin;
        }
        return new Targets.Tokens(tokens, y.clone(), y.length);
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
        INDArray logits = arena.view(c.output(), phi.size(0), 1, n); // [B, 1, n] view
        return new Forward<>(new TokenLogits(logits, centres, null, null, bins.density), c);
    }

    /**
     * @param dOutput {@link TokenLogits} of the forward output's shape {@code [B, 1, n]}
     * @throws IllegalArgumentException if forward is not from this head or dOutput has another form or shape
     */
    @Override
    public INDArray backward(Forward<Linear.Cache> forward, HeadOutput dOutput, Arena arena) {
        Checks.require(forward != null && forward.cache() != null, "forward must come from this head's forward");
        Checks.require(dOutput instanceof TokenLogits, "dOutput must be TokenLogits, got %s",
                dOutput == null ? "null" : dOutput.getClass().getSimpleName());
        Linear.Cache c = forward.cache();
        INDArray dLogits = ((TokenLogits) dOutput).logits();
        Checks.shape("dOutput logits", dLogits, c.output().size(0), 1, n);
        // [B, n] view (a copy first only if dLogits is not c-ordered and contiguous)
        INDArray d = arena.view(Host.contiguous(dLogits, dLogits.dataType()), c.output().shape());
        return proj.backward(c, d, arena);
    }

    /**
     * The histograms {@code softmax(phi W + b)} for rows of phi, with exact log probabilities ({@link
     * HistogramDistribution#fromLogits}). Valid for every finite phi: a row whose float logits overflow is
     * recomputed in double precision ({@link Linear#inferRows}).
     *
     * @param phi {@code [B, D]} of the head's type
     * @throws IllegalArgumentException if phi is not {@code [B, D]} or has a non-finite value (naming the row)
     */
    @Override
    public HistogramDistribution distribution(INDArray phi) {
        Checks.rows("phi", phi, "D", inputWidth);
        int b = (int) phi.size(0);
        double[] v = proj.inferRows("phi", phi); // [B * n] logits
        double[] p = new double[Math.multiplyExact(b, n)]; // [B * n]
        double[] lp = new double[p.length]; // [B * n]
        for (int i = 0; i < b; i++) {
            BinProbabilities.exactRow(v, i * n, n, p, lp, i * n);
        }
        return new HistogramDistribution(bins, p, lp, null);
    }

    /**
     * Fills one columnar {@link HistogramDistribution} chunk by chunk, with the kernels of {@link BinSoftmax} ({@code
     * HistogramBuilder}, beside this file, names this head's {@link #distribution} as its reference): {@code phi W}
     * by one matrix product, then per row the bias, the exponentials and the mean, the rows split over as many
     * threads as the matrix products use (the same bits for any number of threads); the probabilities are built on
     * the distribution's first query that needs them, so a prediction asked for its means only never builds them.
     *
     * <p>Accuracy against {@link #distribution} (the exact softmax in double): for FLOAT models each probability
     * has a relative error of at most {@code 3.1e-7 + 1.2e-7 D} with D the row's logit spread {@code max - min}
     * (the float kernel's 1.5e-7 for the exponential and for the sum, and the float rounding of {@code l - max}),
     * and the mean, cdf and log density inherit it: an absolute error of at most that bound for the cdf and the log
     * density (times the centres' largest magnitude for the mean), and at most the cdf's error divided by the
     * density for a quantile. DOUBLE models: 1e-15 relative. Rows the kernels do not cover are computed as {@link
     * #distribution} computes them, exact log probabilities included: a spread above 86 (700 for DOUBLE), and
     * logits that overflowed in float, recomputed in double from phi ({@link Linear#inferRowInDouble}), so every
     * finite phi gives a valid distribution.
     */
    @Override
    public DistributionBuilder distributionBuilder(int rows) {
        return new HistogramBuilder(proj, bins, inputWidth, rows);
    }

    @Override
    public String toString() {
        return "HistogramHead(" + spec + ", D=" + inputWidth + ", seed=" + seed + ")";
    }
}
