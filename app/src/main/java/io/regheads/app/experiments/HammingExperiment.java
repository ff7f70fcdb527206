package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.check.Checks;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderSampling;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.HammingTokenizer;
import io.regheads.tokenizers.NormalizedTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Binary tree tokens against Hamming-ordered tokens (Song and Bahri, "Decoding-based Regression", arXiv:2501.19383,
 * Fig. 13, after Qin's Hamming-distance-based binary representation): a normalized decoder over K bits of y01 (y
 * min-max scaled on the training rows), either the binary digits of the bin index ({@link NormalizedTokenizer} base 2)
 * or its Hamming-ordered code ({@link HammingTokenizer}); both spell the same 2^K bins and decode to the bin centre.
 * For n = 1, 2, 4, ... samples per test row the prediction is the mean of the n decoded samples (temperature 1), and
 * the score is its MSE against y01 on the test rows, averaged over {@code replicates} independent sets of n samples.
 *
 * <p>Brute-force check: the decoder's exact distribution over the 2^K bin centres {@code c_j} is enumerated with the
 * teacher-forced density ({@code P_ij = exp(logDensity_i(c_j)) 2^-K}), giving each row's mean {@code mu_i} and
 * variance {@code s2_i}; the expected MSE of an n-sample mean is then {@code mean_i (mu_i - y_i)^2 + mean_i s2_i /
 * n}. The measured curve must agree with it within its standard error ({@code sd_i(d_i) / sqrt(rows)}, {@code d_i}
 * the difference of a (row, replicate)'s squared error and its expectation; these pairs are independent given the
 * model).
 *
 * <p>Rows: training = a seeded subset of {@code trainRows} rows of the folds other than 0 (the paper: random size-1000
 * subsets), test = fold 0 (at most {@code testRows}). Stateless; {@link #run} trains on the calling thread.
 */
public final class HammingExperiment {
    private HammingExperiment() {}

    /** The two tokenizations, in table order. */
    public static final List<String> TOKENS = List.of("binary", "hamming");

    /**
     * Settings.
     *
     * @param datasets     the data
     * @param bits         K in 1..16
     * @param trainRows    training rows per run (capped at the pool)
     * @param testRows     most test rows
     * @param maxSamples   largest n (the curve is n = 1, 2, 4, ... up to it)
     * @param replicates   independent sets of n samples per row, averaged (>= 1)
     * @param maxEpochs    epoch limit
     * @param patience     epochs without a better loss on 10% of the training rows before stopping
     * @param encoderWidth units of each of the 2 encoder layers
     * @param runs         training subsets (seeds) per dataset, averaged
     * @param seed         first seed
     */
    public record Config(List<InputData> datasets, int bits, int trainRows, int testRows, int maxSamples, int replicates,
            int maxEpochs, int patience, int encoderWidth, int runs, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(datasets != null && !datasets.isEmpty(), "datasets must not be empty");
            Checks.inRange("bits", bits, 1, 16);
            Checks.atLeast("trainRows", trainRows, 10);
            Checks.atLeast("testRows", testRows, 2);
            Checks.inRange("maxSamples", maxSamples, 1, 4096);
            Checks.atLeast("replicates", replicates, 1);
            Checks.atLeast("maxEpochs", maxEpochs, 1);
            Checks.atLeast("patience", patience, 1);
            Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
            Checks.atLeast("runs", runs, 1);
            datasets = List.copyOf(datasets);
        }

        /** n = 1, 2, 4, ... up to maxSamples. */
        public int[] sampleCounts() {
            int levels = 32 - Integer.numberOfLeadingZeros(maxSamples);
            int[] n = new int[levels];
            for (int j = 0; j < levels; j++) {
                n[j] = 1 << j;
            }
            return n;
        }
    }

    /**
     * One (dataset, tokenization) curve, averaged over runs.
     *
     * @param dataset       label
     * @param tokens        "binary" or "hamming"
     * @param samples       n per point
     * @param measured      MSE of the n-sample mean (y01 units), mean over runs
     * @param expected      brute-force expectation, mean over runs
     * @param standardError standard error of measured (root mean square over runs divided by sqrt(runs))
     * @param massError     largest |sum_j P_ij - 1| seen (the enumeration's normalisation check)
     * @param variance      population variance of the test y01, mean over runs (the MSE of predicting its mean)
     * @param perRun        measured MSE of every run, {@code [run][point]}; run r of both tokenizations trains on the
     *                      same subset with the same seed, so the two curves pair run by run
     */
    public record Curve(String dataset, String tokens, int[] samples, double[] measured, double[] expected,
            double[] standardError, double massError, double variance, double[][] perRun) {
        /** Sample standard deviation over runs of the measured MSE at each point (0 for one run). */
        public double[] runSd() {
            double[] sd = new double[samples.length];
            for (int j = 0; j < sd.length; j++) {
                sd[j] = Experiments.columnMeanStd(perRun, j)[1];
            }
            return sd;
        }
    }

    /** Every curve. */
    public record Result(Config config, List<Curve> curves) {}

    static NumberTokenizer tokenizer(String tokens, int bits) {
        return tokens.equals("binary") ? NormalizedTokenizer.of(2, bits) : new HammingTokenizer(bits);
    }

    /**
     * Exact per-row mean and variance of the decoded value: {@code [2][B]}, plus the largest normalisation error in
     * {@code out[2][0]}.
     */
    static double[][] enumerate(DecoderDistribution d, int bits) {
        int bins = 1 << bits;
        int b = d.batchSize();
        double[] m1 = new double[b];
        double[] m2 = new double[b];
        double[] mass = new double[b];
        double[] y = new double[b];
        double width = 1.0 / bins;
        for (int j = 0; j < bins; j++) {
            double c = (j + 0.5) * width;
            Arrays.fill(y, c);
            double[] ld = d.logDensity(y);
            for (int i = 0; i < b; i++) {
                double p = Math.exp(ld[i]) * width;
                mass[i] += p;
                m1[i] += p * c;
                m2[i] += p * c * c;
            }
        }
        double err = 0;
        double[] var = new double[b];
        for (int i = 0; i < b; i++) {
            err = Math.max(err, Math.abs(mass[i] - 1));
            var[i] = Math.max(0, m2[i] - m1[i] * m1[i]);
        }
        return new double[][] {m1, var, {err}};
    }

    /** Trains both tokenizations on every dataset and run. */
    public static Result run(Config c, Consumer<String> progress) {
        int[] ns = c.sampleCounts();
        int drawn = ns[ns.length - 1];
        List<Curve> curves = new ArrayList<>();
        for (InputData in : c.datasets()) {
            Folds.Split split = in.folds().split(in.data(), 0);
            Dataset pool = split.train();
            Dataset test = split.test();
            if (test.rows() > c.testRows()) {
                int[] order = PermutationSampler.natural(test.rows());
                PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(c.seed() ^ 0xC0FFEEL), order);
                test = test.subset(order, 0, c.testRows());
            }
            for (String tokens : TOKENS) {
                double[] meas = new double[ns.length];
                double[] exp = new double[ns.length];
                double[] se2 = new double[ns.length];
                double[][] perRun = new double[c.runs()][ns.length];
                double massErr = 0;
                double variance = 0;
                for (int run = 0; run < c.runs(); run++) {
                    long s = c.seed() + run;
                    int[] order = PermutationSampler.natural(pool.rows());
                    PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(s * 131 + 7), order);
                    Dataset train = pool.subset(order, 0, Math.min(c.trainRows(), pool.rows()));
                    double lo = Arrays.stream(train.y()).min().orElseThrow();
                    double hi = Arrays.stream(train.y()).max().orElseThrow();
                    Net.YMap map = Net.YMap.minMax(lo, hi);
                    DecoderHead head = DecoderHead.small(tokenizer(tokens, c.bits()), c.encoderWidth(), s + 1,
                            DataType.FLOAT);
                    Net<DecoderHead> net = new Net<>(new MlpEncoderConfig(pool.features(), 2, c.encoderWidth(), s), head,
                            Losses.ce(), map);
                    long t0 = System.nanoTime();
                    net.fit(train, TrainerConfig.defaults().withSeed(s).withMaxEpochs(c.maxEpochs()).withPatience(c.patience()));
                    double secs = (System.nanoTime() - t0) * 1e-9;
                    double[] y01 = Arrays.stream(test.y()).map(map::toUnits).toArray();
                    double mean01 = Arrays.stream(y01).average().orElseThrow();
                    variance += Arrays.stream(y01).map(v -> (v - mean01) * (v - mean01)).average().orElseThrow() / c.runs();
                    DecoderDistribution d = head.distribution(net.phi(test.x()));
                    int reps = c.replicates();
                    double[][] draws = d.sampling().sampleValues(RandomSource.XO_RO_SHI_RO_128_PP.create(s * 17 + 3), drawn * reps,
                            DecoderSampling.Settings.plain());
                    double[][] exact = enumerate(d, c.bits());
                    massErr = Math.max(massErr, exact[2][0]);
                    int rows = y01.length;
                    double lastMeasured = 0;
                    double lastExpected = 0;
                    for (int j = 0; j < ns.length; j++) {
                        double[] diff = new double[rows * reps]; // (row, replicate) pairs are independent given the model
                        double m = 0;
                        double e = 0;
                        for (int k = 0; k < reps; k++) {
                            for (int i = 0; i < rows; i++) {
                                double sum = 0;
                                for (int q = 0; q < ns[j]; q++) {
                                    sum += draws[k * drawn + q][i];
                                }
                                double err = sum / ns[j] - y01[i];
                                double bias = exact[0][i] - y01[i];
                                double expect = bias * bias + exact[1][i] / ns[j];
                                m += err * err / reps;
                                e += expect / reps;
                                diff[k * rows + i] = err * err - expect;
                            }
                        }
                        meas[j] += m / rows / c.runs();
                        exp[j] += e / rows / c.runs();
                        lastMeasured = m / rows;
                        perRun[run][j] = lastMeasured;
                        lastExpected = e / rows;
                        double[] sd = Experiments.meanStd(diff);
                        se2[j] += sd[1] * sd[1] / diff.length / c.runs();
                    }
                    progress.accept(String.format(Locale.ROOT, "%s run %d: %s tokens, K=%d, trained in %.1f s; MSE of "
                            + "the %d-sample mean %.5f (expected %.5f)", in.label(), run, tokens, c.bits(), secs, drawn,
                            lastMeasured, lastExpected));
                }
                double[] se = new double[ns.length];
                for (int j = 0; j < ns.length; j++) {
                    se[j] = Math.sqrt(se2[j] / c.runs());
                }
                curves.add(new Curve(in.label(), tokens, ns, meas, exp, se, massErr, variance, perRun));
            }
        }
        return new Result(c, curves);
    }
}
