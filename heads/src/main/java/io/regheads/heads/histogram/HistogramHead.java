package io.regheads.heads.histogram;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.internal.Checks;
import io.regheads.core.internal.Gemm;
import io.regheads.core.internal.Host;
import io.regheads.core.internal.RowParallel;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Linear;
import io.regheads.core.nn.Param;
import java.util.Arrays;
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

    /**
     * @param inputWidth D
     * @param borders    n + 1 strictly increasing borders
     * @param tails      half-normal tails on the outer bins (full support)
     * @param seed       initialisation seed
     */
    public record Config(int inputWidth, double[] borders, boolean tails, long seed) {
        /**
         * @param inputWidth D, at least 1
         * @param borders    ascending bin borders, at least 2 (copied)
         * @param tails      half-normal tails outside the outer bins
         * @param seed       initialisation seed
         * @throws IllegalArgumentException on an input width below 1 or invalid borders
         */
        public Config {
            Checks.atLeast("inputWidth", inputWidth, 1);
            Checks.require(borders != null && borders.length >= 2, "borders must have at least 2 entries");
            borders = borders.clone();
            // validates the borders (and tails needing 2 bins) once, here
            new HistogramDistribution(borders, new double[][] {uniform(borders.length - 1)}, tails);
        }

        /** {@code bins} equal bins on [0, 1], no tails (the paper's Riemann baseline; the PyTorch reference implementation uses 256). */
        public static Config unit(int inputWidth, int bins, long seed) {
            return new Config(inputWidth, HistogramDistribution.equalBorders(bins, 0, 1), false, seed);
        }

        /** {@return the number of bins} */
        public int bins() {
            return borders.length - 1;
        }

        /** {@return a copy of the bin borders} */
        @Override
        public double[] borders() {
            return borders.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Config c && c.inputWidth == inputWidth && Arrays.equals(c.borders, borders)
                    && c.tails == tails && c.seed == seed;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(borders) * 31 + inputWidth + (tails ? 1 : 0) + Long.hashCode(seed);
        }

        @Override
        public String toString() {
            return "HistogramHead.Config[inputWidth=" + inputWidth + ", bins=" + bins() + ", range=[" + borders[0] + ", "
                    + borders[borders.length - 1] + "], tails=" + tails + ", seed=" + seed + "]";
        }

        private static double[] uniform(int n) {
            double[] p = new double[n];
            Arrays.fill(p, 1.0 / n);
            return p;
        }
    }

    private final Config config;
    private final Linear proj;
    private final double[] centres;
    private final Bins bins; // checked once, shared by every distribution this head builds

    /**
     * A head with freshly initialised parameters.
     *
     * @param config sizes, borders and seed
     * @param type   FLOAT or DOUBLE
     */
    public HistogramHead(Config config, DataType type) {
        this.config = Checks.notNull("config", config);
        int n = config.bins();
        this.proj = new Linear("histogram", config.inputWidth(), n, type, RandomSource.XO_RO_SHI_RO_128_PP.create(config.seed()));
        double[] b = config.borders();
        this.centres = new double[n];
        for (int i = 0; i < n; i++) {
            centres[i] = 0.5 * (b[i] + b[i + 1]);
        }
        this.bins = Bins.of(b, config.tails());
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

    /** Bin index and exact value per label. */
    @Override
    public Targets targets(double[] y) {
        Checks.allFinite("y", y);
        int n = config.bins();
        int[] tokens = new int[y.length];
        for (int i = 0; i < y.length; i++) {
            int bin = bins.binOf(y[i]);
            if (bin < 0 || bin >= n) {
                Checks.require(config.tails(), "y must be inside the borders [%s, %s] (no tails), got %s at index %d",
                        config.borders[0], config.borders[n], y[i], i);
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
        Checks.rows("phi", phi, "D", config.inputWidth());
        Linear.Cache c = proj.forward(phi, arena);
        INDArray logits = arena.view(c.output(), phi.size(0), 1, config.bins()); // [B, 1, n] view
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
        Checks.shape("dOutput logits", dLogits, c.output().size(0), 1, config.bins());
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
        Checks.rows("phi", phi, "D", config.inputWidth());
        int b = (int) phi.size(0);
        int n = config.bins();
        double[] v = proj.inferRows("phi", phi); // [B * n] logits
        double[] p = new double[Math.multiplyExact(b, n)]; // [B * n]
        double[] lp = new double[p.length]; // [B * n]
        for (int i = 0; i < b; i++) {
            HistogramDistribution.exactRow(v, i * n, n, p, lp, i * n);
        }
        return new HistogramDistribution(bins, p, lp, null);
    }

    /**
     * Fills one columnar {@link HistogramDistribution} chunk by chunk: {@code phi W} into an arena buffer (one matrix
     * product, no bias broadcast), then per row the bias, the exponentials with {@link BinSoftmax} and the mean, the
     * rows split over as many threads as the matrix products use (the same bits for any number of threads). FLOAT
     * models: vectorised float exponentials, the logits copied out of the product's output a block of rows at a
     * time, each row's exponentials and their sum kept; DOUBLE models: double exponentials, the logits kept. The
     * probabilities ({@code B * n} doubles) are built on the distribution's first query that needs them (from the
     * kept exponentials, or by the same kernels from the kept logits), so a prediction asked for its means only never
     * builds them.
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
        Checks.atLeast("rows", rows, 1);
        int n = config.bins();
        int size = Math.multiplyExact(rows, n);
        boolean isFloat = proj.dataType() == DataType.FLOAT;
        float[] exps = isFloat ? new float[size] : null; // [B * n] each row's exp(l - max), for the probabilities
        double[] sums = isFloat ? new double[rows] : null; // [B] their sums
        double[] zd = isFloat ? null : new double[size]; // [B * n] double logits without bias
        float[] biasF = isFloat ? Host.read(proj.bias().value(), new float[n]) : null;
        double[] biasD = isFloat ? null : Host.read(proj.bias().value(), new double[n]);
        double[] means = new double[rows]; // [B]
        double[] values = bins.componentMean;
        return new DistributionBuilder() {
            private int next;
            // the rows computed exactly (few: a very wide or overflowed row), compactly: row r's n probabilities and
            // exact log probabilities at slot[r] * n of exactProbs and exactLogs; slot null until the first one
            private int[] slot; // [B], -1 for a row the kernels computed
            private double[] exactProbs = new double[0];
            private double[] exactLogs = new double[0];
            private int kept;

            @Override
            public void add(INDArray phi, int row, Arena arena) {
                int added = DistributionBuilder.checkChunk(phi, row, next, rows);
                int b = added - next;
                Checks.require(phi.size(1) == config.inputWidth() && phi.dataType() == proj.dataType(),
                        "phi must be [b, %d] %s, got %s %s", config.inputWidth(), proj.dataType(),
                        Arrays.toString(phi.shape()), phi.dataType());
                INDArray logits = arena.get(proj.dataType(), b, n); // [b, n] = phi W; the bias is added on the host
                Gemm.gemm(phi, proj.weight().value(), logits, false, false, 1.0, 0.0);
                if (isFloat) {
                    BinSoftmax.expRowsInParallel(
                            (r, count, dst) -> Host.read(logits, (long) (r - row) * n, dst, 0, count * n), biasF, row,
                            added, n, values, exps, sums, means, r -> {
                                float[] z = new float[n];
                                Host.read(logits, (long) (r - row) * n, z, 0, n);
                                double[] l = new double[n];
                                for (int j = 0; j < n; j++) {
                                    l[j] = z[j] + biasF[j]; // the float sum, as the fast rows see it
                                }
                                exact(l, phi, r - row, row);
                            });
                } else {
                    Host.read(logits, 0, zd, row * n, b * n);
                    BinSoftmax.rowsInParallel(zd, biasD, row, added, n, values, null, means, r -> {
                        double[] l = new double[n];
                        for (int j = 0; j < n; j++) {
                            l[j] = zd[r * n + j] + biasD[j];
                        }
                        exact(l, phi, r - row, row);
                    });
                }
                next = added;
            }

            /** Row r of the chunk from its logits l (recomputed in double from phi when not finite), exactly. */
            private void exact(double[] l, INDArray phi, int r, int first) {
                for (double v : l) {
                    if (!Double.isFinite(v)) {
                        l = proj.inferRowInDouble("phi", phi, r, first + r);
                        break;
                    }
                }
                if (slot == null) {
                    slot = new int[rows];
                    Arrays.fill(slot, -1);
                }
                int o = kept * n;
                if (o + n > exactProbs.length) {
                    int capacity = Math.max(4 * n, 2 * exactProbs.length);
                    exactProbs = Arrays.copyOf(exactProbs, capacity);
                    exactLogs = Arrays.copyOf(exactLogs, capacity);
                }
                HistogramDistribution.exactRow(l, 0, n, exactProbs, exactLogs, o);
                double m = 0;
                for (int j = 0; j < n; j++) {
                    m += exactProbs[o + j] * values[j];
                }
                means[first + r] = m;
                slot[first + r] = kept++;
            }

            /**
             * The probabilities are computed on the distribution's first query that needs them, by the same kernels;
             * the rows they hand over again are the rows computed exactly, copied in from the kept ones.
             */
            @Override
            public HistogramDistribution build() {
                Checks.require(next == rows, "every row must be added before build: got %d of %d", next, rows);
                int[] exactSlot = slot;
                double[] exactP = exactProbs;
                double[] exactLp = slot == null ? null : Arrays.copyOf(exactLogs, kept * n);
                return new HistogramDistribution(bins, rows, () -> {
                    double[] p = new double[size];
                    // the kernels hand over exactly the rows computed exactly when they were added
                    BinSoftmax.Fallback copyExact = r -> System.arraycopy(exactP, exactSlot[r] * n, p, r * n, n);
                    if (isFloat) {
                        RowParallel.run(0, rows, Math.max(1, BinSoftmax.MIN_LOGITS_PER_THREAD / n), (a, b) -> {
                            for (int r = a; r < b; r++) {
                                if (exactSlot != null && exactSlot[r] >= 0) {
                                    copyExact.row(r);
                                } else {
                                    BinSoftmax.probabilities(exps, sums, r, n, p);
                                }
                            }
                        });
                    } else {
                        BinSoftmax.rowsInParallel(zd, biasD, 0, rows, n, values, p, null, copyExact);
                    }
                    return p;
                }, exactSlot, exactLp, means);
            }
        };
    }

    @Override
    public String toString() {
        return "HistogramHead(" + config + ")";
    }
}
