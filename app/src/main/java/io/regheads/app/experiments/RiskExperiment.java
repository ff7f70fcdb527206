package io.regheads.app.experiments;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.optim.AdamW;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.histogram.HistogramHead;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.NormalizedTokenizer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The decoding paper's risk curve (Song and Bahri, arXiv:2501.19383, Fig. 2) and its k-level histograms (Fig. 3):
 * densities of a truncated normal N(0.5, 0.25^2) on [0, 1] estimated from N samples with K binary tokens (2^K equal
 * bins), their integrated squared error {@code ISE = int_0^1 (fhat - f)^2} against the theory {@code risk(K) = 2^-2K /
 * 12 int f'^2 + 2^K / N} (bias + variance of the histogram, Scott 1979).
 *
 * <p>Estimators, each on the same N samples:
 * <ul>
 *   <li>{@code histogram}: the empirical histogram of 2^K bins, the exact maximum-likelihood fit of any model that
 *       can represent every distribution over the 2^K leaves (no training);</li>
 *   <li>{@code decoder}: a trained normalized decoder (base 2, K digits; one pre-LN block of width 16, 2 attention
 *       heads, MLP 32) on a constant input, its density read off its leaves ({@link
 *       DecoderDistribution#firstTokens} with k = K);</li>
 *   <li>{@code riemann}: a trained Riemann head ({@link HistogramHead}, 2^K bins on [0, 1], no tails) on the same
 *       constant input;</li>
 *   <li>{@code decoder k of K}: the decoder trained with the largest K, read at each k <= K through its first k tokens
 *       (Fig. 3: one model, K histograms).</li>
 * </ul>
 * Training: full-batch AdamW without decay on the distinct leaves (bin centres) that the samples hit, each leaf's
 * gradient weighted by its share of the samples, which is the cross-entropy over all N samples (the input is
 * constant); {@code steps} steps at learning rate 1e-2, the last third at 2e-3. The decoder runs in FLOAT.
 *
 * <p>Stateless; {@link #run} trains on the calling thread.
 */
public final class RiskExperiment {
    public static final double MU = 0.5;
    public static final double SIGMA = 0.25;
    private static final NormalDistribution STD = NormalDistribution.of(0, 1);
    /** Mass of N(0.5, 0.25^2) on [0, 1]: Phi(2) - Phi(-2). */
    public static final double Z = STD.cumulativeProbability(2) - STD.cumulativeProbability(-2);

    private RiskExperiment() {}

    /**
     * Settings.
     *
     * @param samples   sample sizes N (each >= 2)
     * @param maxK      the largest K of the theory and the histogram (1..16)
     * @param trainedKs K values at which the decoder and the Riemann head are trained (each in 1..maxK; may be empty)
     * @param runs      independent samples (seeds) per (N, K), averaged (>= 1)
     * @param steps     training steps per fit (>= 1)
     * @param seed      first seed
     */
    public record Config(List<Integer> samples, int maxK, List<Integer> trainedKs, int runs, int steps, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(samples != null && !samples.isEmpty(), "samples must not be empty");
            for (int n : samples) {
                Checks.require(n >= 2, "samples must be >= 2 each, got %d", n);
            }
            Checks.inRange("maxK", maxK, 1, 16);
            Checks.notNull("trainedKs", trainedKs);
            for (int k : trainedKs) {
                Checks.require(k >= 1 && k <= maxK, "trainedKs must be in 1..maxK = %d each, got %d", maxK, k);
            }
            Checks.atLeast("runs", runs, 1);
            Checks.atLeast("steps", steps, 1);
            samples = List.copyOf(samples);
            trainedKs = List.copyOf(trainedKs);
        }
    }

    /**
     * One curve point.
     *
     * @param estimator "theory", "histogram", "decoder", "riemann" or "decoder k of K"
     * @param n         N
     * @param k         K (or k for "decoder k of K")
     * @param perRun    ISE per run (empty for the theory)
     * @param value     mean ISE over runs (the theory's value for the theory)
     * @param klPerRun  for a trained head, per run: {@code KL(empirical || model) = sum_j e_j ln(e_j / p_j)} over the
     *                  2^K bins (e the sample's bin shares, p the model's), how far training stayed from the
     *                  maximum-likelihood fit (0 at the histogram itself); empty otherwise
     */
    public record Point(String estimator, int n, int k, double[] perRun, double value, double[] klPerRun) {
        /** A point without the KL column. */
        public Point(String estimator, int n, int k, double[] perRun, double value) {
            this(estimator, n, k, perRun, value, new double[0]);
        }
    }

    /** {@code KL(e || p) = sum_j e_j ln(e_j / p_j)} over the bins with {@code e_j > 0}. */
    public static double kl(double[] e, double[] p) {
        double s = 0;
        for (int j = 0; j < e.length; j++) {
            if (e[j] > 0) {
                s += e[j] * Math.log(e[j] / p[j]);
            }
        }
        return s;
    }

    /** Every point. */
    public record Result(Config config, List<Point> points) {}

    /** Density of the truncated normal at y in [0, 1]. */
    public static double density(double y) {
        return STD.density((y - MU) / SIGMA) / (SIGMA * Z);
    }

    /** Mass of the truncated normal in [a, b] (within [0, 1]). */
    public static double mass(double a, double b) {
        return (STD.cumulativeProbability((b - MU) / SIGMA) - STD.cumulativeProbability((a - MU) / SIGMA)) / Z;
    }

    /** int_0^1 g by composite Simpson's rule on 20000 intervals. */
    public static double integrate(DoubleUnaryOperator g) {
        int n = 20000;
        double h = 1.0 / n;
        double s = g.applyAsDouble(0) + g.applyAsDouble(1);
        for (int i = 1; i < n; i++) {
            s += (i % 2 == 1 ? 4 : 2) * g.applyAsDouble(i * h);
        }
        return s * h / 3;
    }

    /** The leading-order risk h^2/12 int f'^2 + 1/(N h) with h = 2^-k. */
    public static double theory(int k, int n) {
        double fPrime2 = integrate(y -> {
            double d = density(y) * (MU - y) / (SIGMA * SIGMA); // f'(y) = -f(y) (y - mu) / sigma^2
            return d * d;
        });
        double h = Math.pow(2, -k);
        return h * h / 12 * fPrime2 + 1 / (n * h);
    }

    /**
     * Exact integrated squared error of a density that is constant on 2^k equal bins of [0, 1] with the given bin
     * probabilities: {@code int f^2 - 2 sum_j fhat_j F_j + h sum_j fhat_j^2}, F_j the truth's mass in bin j.
     *
     * @param p {@code [2^k]} bin probabilities
     */
    public static double ise(double[] p) {
        int bins = p.length;
        double h = 1.0 / bins;
        double f2 = integrate(t -> density(t) * density(t));
        double cross = 0;
        double self = 0;
        for (int j = 0; j < bins; j++) {
            double fhat = p[j] / h;
            cross += fhat * mass(j * h, (j + 1) * h);
            self += fhat * fhat * h;
        }
        return f2 - 2 * cross + self;
    }

    /** Bin counts of y over 2^k equal bins of [0, 1]. @throws IllegalArgumentException if a y is outside [0, 1] */
    public static double[] counts(double[] y, int k) {
        int bins = 1 << k;
        double[] c = new double[bins];
        for (double v : y) {
            Checks.require(v >= 0 && v <= 1, "samples must lie in [0, 1], got %s", v);
            c[Math.min((int) (v * bins), bins - 1)]++;
        }
        return c;
    }

    /** The empirical histogram's bin probabilities over 2^k equal bins of [0, 1]. */
    public static double[] histogram(double[] y, int k) {
        double[] c = counts(y, k);
        for (int j = 0; j < c.length; j++) {
            c[j] /= y.length;
        }
        return c;
    }

    /** n samples of the truncated normal by inversion of its CDF. */
    public static double[] sample(int n, UniformRandomProvider rng) {
        double lo = STD.cumulativeProbability(-2);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double u = lo + rng.nextDouble() * Z;
            y[i] = Math.min(1, Math.max(0, MU + SIGMA * STD.inverseCumulativeProbability(u)));
        }
        return y;
    }

    /** The trained decoder's K-digit head (base 2), fitted to the counts. */
    static DecoderHead trainDecoder(double[] y, int k, int steps, long seed) {
        DecoderHead head = new DecoderHead(NormalizedTokenizer.of(2, k), 1, new TransformerBlock.Config(16, 2, 32), 1,
                seed, DataType.FLOAT);
        fitToCounts(head, counts(y, k), steps);
        return head;
    }

    /** The trained Riemann head of 2^k bins on [0, 1], fitted to the counts. */
    static HistogramHead trainRiemann(double[] y, int k, int steps, long seed) {
        HistogramHead head = new HistogramHead(new HistogramSpec(1 << k, false, 0, 1), 1, seed, DataType.FLOAT);
        fitToCounts(head, counts(y, k), steps);
        return head;
    }

    /**
     * Full-batch AdamW on the distinct leaves hit by the samples (their bin centres), each leaf's gradient weighted
     * by {@code u count / N} (u distinct leaves), i.e. the mean cross-entropy over the N samples; lr 1e-2, the last
     * third of the steps 2e-3.
     */
    static <C> void fitToCounts(RegressionHead<C> head, double[] count, int steps) {
        int leaves = count.length;
        double total = 0;
        int u = 0;
        for (double c : count) {
            total += c;
            u += c > 0 ? 1 : 0;
        }
        double[] centres = new double[u];
        double[] weight = new double[u];
        for (int j = 0, i = 0; j < leaves; j++) {
            if (count[j] > 0) {
                centres[i] = (j + 0.5) / leaves;
                weight[i++] = u * count[j] / total;
            }
        }
        INDArray phi = Nd4j.ones(DataType.FLOAT, u, 1);
        Targets t = head.targets(centres);
        Loss ce = Losses.ce();
        AdamW opt = new AdamW(head.params(), 1e-2);
        Arena arena = Arena.create();
        for (int step = 0; step < steps; step++) {
            if (step == steps - steps / 3) {
                opt.setLearningRate(2e-3);
            }
            arena.reset();
            head.params().forEach(Param::zeroGrad);
            RegressionHead.Forward<C> fw = head.forward(phi, t, arena);
            HeadOutput g = fw.output().zerosLike(arena);
            ce.accumulate(fw.output(), t, 1.0, g, new double[u]);
            INDArray gl = ((TokenLogits) g).logits(); // [u, T, V]: one row per leaf
            INDArray rows = gl.reshape(u, gl.length() / u).castTo(DataType.DOUBLE); // widened exactly
            gl.assign(rows.muliColumnVector(Nd4j.createFromArray(weight).reshape(u, 1)).reshape(gl.shape()));
            head.backward(fw, g, arena);
            opt.step();
        }
    }

    /** Bin probabilities of a trained head on the constant input. */
    static double[] leafProbabilities(HistogramDistribution d) {
        return d.probabilities()[0];
    }

    /** Runs every estimator at every N and K. */
    public static Result run(Config c, Consumer<String> progress) {
        List<Point> points = new ArrayList<>();
        int kTop = c.trainedKs().stream().mapToInt(Integer::intValue).max().orElse(0);
        INDArray one = Nd4j.ones(DataType.FLOAT, 1, 1);
        for (int n : c.samples()) {
            double[][] hist = new double[c.maxK()][c.runs()];
            double[][] dec = new double[c.maxK()][c.runs()];
            double[][] rie = new double[c.maxK()][c.runs()];
            double[][] prefix = new double[Math.max(kTop, 1)][c.runs()];
            double[][] decKl = new double[c.maxK()][c.runs()];
            double[][] rieKl = new double[c.maxK()][c.runs()];
            for (int run = 0; run < c.runs(); run++) {
                long s = c.seed() + run;
                double[] y = sample(n, RandomSource.XO_RO_SHI_RO_128_PP.create(s * 7919 + n));
                for (int k = 1; k <= c.maxK(); k++) {
                    hist[k - 1][run] = ise(histogram(y, k));
                }
                for (int k : c.trainedKs()) {
                    long t0 = System.nanoTime();
                    DecoderHead d = trainDecoder(y, k, c.steps(), s * 101 + k);
                    DecoderDistribution dist = d.distribution(one);
                    double[] pd = leafProbabilities(dist.firstTokens(k));
                    dec[k - 1][run] = ise(pd);
                    decKl[k - 1][run] = kl(histogram(y, k), pd);
                    if (k == kTop) {
                        for (int j = 1; j <= k; j++) {
                            prefix[j - 1][run] = ise(leafProbabilities(dist.firstTokens(j)));
                        }
                    }
                    HistogramHead h = trainRiemann(y, k, c.steps(), s * 101 + k);
                    double[] pr = leafProbabilities(h.distribution(one));
                    rie[k - 1][run] = ise(pr);
                    rieKl[k - 1][run] = kl(histogram(y, k), pr);
                    progress.accept(String.format(java.util.Locale.ROOT, "N=%d K=%d run %d: histogram %.4g, decoder "
                            + "%.4g (KL to the histogram %.3g), riemann %.4g (KL %.3g), theory %.4g (%.1f s)", n, k,
                            run, hist[k - 1][run], dec[k - 1][run], decKl[k - 1][run], rie[k - 1][run],
                            rieKl[k - 1][run], theory(k, n), (System.nanoTime() - t0) * 1e-9));
                }
            }
            for (int k = 1; k <= c.maxK(); k++) {
                points.add(new Point("theory", n, k, new double[0], theory(k, n)));
                points.add(new Point("histogram", n, k, hist[k - 1], Experiments.meanStd(hist[k - 1])[0]));
            }
            for (int k : c.trainedKs()) {
                points.add(new Point("decoder", n, k, dec[k - 1], Experiments.meanStd(dec[k - 1])[0], decKl[k - 1]));
                points.add(new Point("riemann", n, k, rie[k - 1], Experiments.meanStd(rie[k - 1])[0], rieKl[k - 1]));
            }
            for (int j = 1; j <= kTop; j++) {
                points.add(new Point("decoder k of " + kTop, n, j, prefix[j - 1],
                        Experiments.meanStd(prefix[j - 1])[0]));
            }
        }
        return new Result(c, points);
    }
}
