package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Metrics;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderSampling;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.losses.Losses;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.tokenizers.RepeatedTokenizer;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * Error correction by repetition on unnormalized tokens with mean aggregation (Song and Bahri, "Decoding-based
 * Regression", arXiv:2501.19383, Fig. 10). The unnormalized decoder spells <b>raw</b> y (no scaling) as sign,
 * exponent sign, E exponent digits and M mantissa digits ({@link UnnormalizedTokenizer}) with the exponent range the
 * model API fits to the training targets ({@link #fittedTokenizer}), written r times ({@link RepeatedTokenizer}); each sampled sequence (temperature 1) is decoded by a majority vote per position over its r
 * blocks, and the prediction for a test row is the <b>mean</b> of n such values. One wrong sign or exponent token
 * makes a far-off value that a mean cannot absorb; the vote can outvote it.
 *
 * <p>Score: relative MSE ({@code mse / var(y_test)}) of the n-sample mean, n = 1, 2, 4, ...; also the share of
 * single decoded samples farther than the training range from every training value ({@code outside [min - range, max
 * + range]}). Rows: training = up to {@code trainRows} rows of the folds other than 0 (seeded subset), test = fold 0
 * (at most {@code testRows}). Encoder 2 ReLU layers, decoder one block of 32 units, cross-entropy, AdamW with early
 * stopping on 10% of the training rows.
 *
 * <p>Stateless; {@link #run} trains on the calling thread.
 */
public final class RepeatMeanExperiment {
    private RepeatMeanExperiment() {}

    /**
     * Settings.
     *
     * @param datasets       the data
     * @param repeats        repetition counts r (each 1..9)
     * @param base           tokenizer base
     * @param exponentDigits E
     * @param mantissaDigits M
     * @param trainRows      most training rows
     * @param testRows       most test rows
     * @param maxSamples     largest n
     * @param maxEpochs      epoch limit
     * @param patience       epochs without a better loss on 10% of the training rows before stopping
     * @param encoderWidth   units of each of the 2 encoder layers
     * @param runs           training subsets (seeds), averaged
     * @param seed           first seed
     */
    public record Config(List<InputData> datasets, List<Integer> repeats, int base, int exponentDigits, int mantissaDigits,
            int trainRows, int testRows, int maxSamples, int maxEpochs, int patience, int encoderWidth, int runs, long seed) {
        /** @throws IllegalArgumentException when a setting is out of range */
        public Config {
            Checks.require(datasets != null && !datasets.isEmpty(), "datasets must not be empty");
            Checks.require(repeats != null && !repeats.isEmpty(), "repeats must not be empty");
            for (int r : repeats) {
                Checks.require(r >= 1 && r <= 9, "repeats must be in 1..9 each, got %d", r);
            }
            UnnormalizedTokenizer.of(base, exponentDigits, mantissaDigits); // validates the sizes
            Checks.atLeast("trainRows", trainRows, 10);
            Checks.atLeast("testRows", testRows, 2);
            Checks.inRange("maxSamples", maxSamples, 1, 4096);
            Checks.atLeast("maxEpochs", maxEpochs, 1);
            Checks.atLeast("patience", patience, 1);
            Checks.inRange("encoderWidth", encoderWidth, 1, 2048);
            Checks.atLeast("runs", runs, 1);
            datasets = List.copyOf(datasets);
            repeats = List.copyOf(repeats);
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
     * One (dataset, r) curve, averaged over runs.
     *
     * @param dataset      label
     * @param repeats      r
     * @param samples      n per point
     * @param relativeMse  of the n-sample mean, mean over runs
     * @param perRun       {@code [run][point]}
     * @param outlierShare share of single samples outside [min - range, max + range] of the training y
     * @param trainSeconds total training time
     */
    public record Curve(String dataset, int repeats, int[] samples, double[] relativeMse, double[][] perRun,
            double outlierShare, double trainSeconds) {}

    /** Every curve. */
    public record Result(Config config, List<Curve> curves) {}

    /** Trains every repetition count on every dataset and run. */
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
            for (int r : c.repeats()) {
                double[][] rel = new double[c.runs()][ns.length];
                double outliers = 0;
                double secs = 0;
                for (int run = 0; run < c.runs(); run++) {
                    long s = c.seed() + run;
                    int[] order = PermutationSampler.natural(pool.rows());
                    PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(s * 131 + 7), order);
                    Dataset train = pool.subset(order, 0, Math.min(c.trainRows(), pool.rows()));
                    RepeatedTokenizer tok = new RepeatedTokenizer(fittedTokenizer(c, train.y()), r);
                    DecoderHead head = DecoderHead.small(tok, c.encoderWidth(), s + 1, DataType.FLOAT);
                    Net<DecoderHead> net = new Net<>(new MlpEncoderConfig(pool.features(), 2, c.encoderWidth(), s), head,
                            Losses.ce(), Net.YMap.IDENTITY);
                    long t0 = System.nanoTime();
                    net.fit(train, TrainerConfig.defaults().withSeed(s).withMaxEpochs(c.maxEpochs()).withPatience(c.patience()));
                    double sec = (System.nanoTime() - t0) * 1e-9;
                    secs += sec;
                    DecoderDistribution d = head.distribution(net.phi(test.x()));
                    double[][] draws = d.sampling().sampleValues(RandomSource.XO_RO_SHI_RO_128_PP.create(s * 17 + r), drawn,
                            DecoderSampling.Settings.plain());
                    double lo = Arrays.stream(train.y()).min().orElseThrow();
                    double hi = Arrays.stream(train.y()).max().orElseThrow();
                    outliers += outlierShare(draws, lo - (hi - lo), hi + (hi - lo)) / c.runs();
                    rel[run] = meanCurve(draws, ns, test.y());
                    progress.accept(String.format(Locale.ROOT, "%s run %d: r=%d trained in %.1f s; relative MSE %.4g "
                            + "(1 sample), %.4g (%d samples)", in.label(), run, r, sec, rel[run][0],
                            rel[run][ns.length - 1], drawn));
                }
                double[] mean = new double[ns.length];
                for (double[] row : rel) {
                    for (int j = 0; j < ns.length; j++) {
                        mean[j] += row[j] / c.runs();
                    }
                }
                curves.add(new Curve(in.label(), r, ns, mean, rel, outliers, secs));
            }
        }
        return new Result(c, curves);
    }

    /**
     * The unnormalized tokenizer as the model API builds it for these targets ({@link UnnormalizedDecoderSpec#fittedTo}:
     * exponents from the smallest to the largest of the training targets, the sign {@code -} only if one is
     * negative), before it is repeated.
     */
    static UnnormalizedTokenizer fittedTokenizer(Config c, double[] trainY) {
        return UnnormalizedDecoderSpec.small(c.base(), c.exponentDigits(), c.mantissaDigits()).fittedTo(trainY)
                .tokenizer();
    }

    /**
     * Relative MSE of the mean of the first n draws per row, for each n in {@code ns}.
     *
     * @param draws {@code [N][B]}, N >= the largest n
     * @param ns    ascending counts
     * @param y     {@code [B]} targets
     */
    static double[] meanCurve(double[][] draws, int[] ns, double[] y) {
        double[] out = new double[ns.length];
        double[] sum = new double[y.length];
        double[] m = new double[y.length];
        int taken = 0;
        for (int j = 0; j < ns.length; j++) {
            for (; taken < ns[j]; taken++) {
                for (int i = 0; i < y.length; i++) {
                    sum[i] += draws[taken][i];
                }
            }
            for (int i = 0; i < y.length; i++) {
                m[i] = sum[i] / ns[j];
            }
            out[j] = Metrics.relativeMse(m, y);
        }
        return out;
    }

    /** Share of the draws outside [lo, hi]. */
    static double outlierShare(double[][] draws, double lo, double hi) {
        long out = 0;
        long all = 0;
        for (double[] row : draws) {
            for (double v : row) {
                out += v < lo || v > hi ? 1 : 0;
                all++;
            }
        }
        return (double) out / all;
    }
}
