package io.regheads.app.cli;

import io.regheads.core.data.Dataset;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.MlpEncoder;
import io.regheads.core.nn.MlpEncoderConfig;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderSampling;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.RepeatedTokenizer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code regheads repeat}: the decoding paper's Fig. 9 (error correction by repetition) at small scale.
 *
 * <p>Data: x uniform on [0, 1], {@code y = f(x) + e}, {@code f(x) = 0.5 + 0.35 sin(2 pi x)}, e ~ N(0, noise^2),
 * y clipped to [0, 0.999]. For each repetition count r a fresh MLP encoder (2 x 64, ReLU) and the small decoder
 * head ({@link DecoderHead#small}) are trained with cross-entropy on the r-times repeated normalized base-10 K-digit
 * tokens ({@link RepeatedTokenizer}: {@code t1..tK t1..tK ...}). At test time n sequences are sampled per x
 * (temperature 1), each is decoded by a majority vote per digit position over its r blocks
 * ({@link RepeatedTokenizer#decode}), and the n decoded values are averaged. Reported: the test MSE of that average
 * against the noise-free f(x), for n = 1, 2, 4, ..., {@code --max-samples} (the first n of the same 64 draws, so
 * the curves are nested). Example: {@code regheads repeat --repeats 1,2,3}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "repeat", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Decoding paper Fig. 9: error-correcting repetitions r vs test MSE as the number of decoder "
                + "samples grows (1-D synthetic function, normalized base-10 digits, majority vote per position).")
final class RepeatCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--repeats", paramLabel = "LIST", defaultValue = "1,2,3",
            description = "Repetition counts r (default: ${DEFAULT-VALUE}).")
    String repeats;

    @Option(names = "--digits", paramLabel = "K", defaultValue = "3", description = "Base-10 digits K (default: ${DEFAULT-VALUE}).")
    int digits;

    @Option(names = "--max-samples", paramLabel = "N", defaultValue = "64",
            description = "Largest number of samples per x; the x-axis is 1, 2, 4, ... up to it (default: ${DEFAULT-VALUE}).")
    int maxSamples;

    @Option(names = "--train", paramLabel = "N", defaultValue = "2000", description = "Training rows (default: ${DEFAULT-VALUE}).")
    int trainRows;

    @Option(names = "--test", paramLabel = "N", defaultValue = "200", description = "Test rows (default: ${DEFAULT-VALUE}).")
    int testRows;

    @Option(names = "--noise", paramLabel = "S", defaultValue = "0.05", description = "Noise std (default: ${DEFAULT-VALUE}).")
    double noise;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "30", description = "Training epochs (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "runs/repeat.png",
            description = "PNG file (default: ${DEFAULT-VALUE}).")
    Path out;

    /** The noise-free target 0.5 + 0.35 sin(2 pi x). */
    static double f(double x) {
        return 0.5 + 0.35 * Math.sin(2 * Math.PI * x);
    }

    /** n rows: x uniform on [0, 1], y = f(x) + N(0, noise^2) clipped to [0, 0.999]. */
    static Dataset sample(int n, double noise, UniformRandomProvider rng) {
        double[][] x = new double[n][1];
        double[] y = new double[n];
        org.apache.commons.rng.sampling.distribution.ContinuousSampler g =
                org.apache.commons.rng.sampling.distribution.ZigguratSampler.NormalizedGaussian.of(rng);
        for (int i = 0; i < n; i++) {
            x[i][0] = rng.nextDouble();
            y[i] = Math.min(0.999, Math.max(0, f(x[i][0]) + noise * g.sample()));
        }
        return Dataset.of(x, y);
    }

    /** Encoder input: x standardised by the uniform law's mean 1/2 and std 1/sqrt(12). */
    static INDArray features(double[][] x) {
        float[] flat = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            flat[i] = (float) ((x[i][0] - 0.5) * Math.sqrt(12));
        }
        return Nd4j.create(flat, new long[] {x.length, 1}, 'c');
    }

    /**
     * Mean of the first n values of each row, for n = 1, 2, 4, ...: {@code out[j][i]} uses n = 2^j, from draws
     * {@code [n_max][rows]} as {@link DecoderSampling#sampleValues} returns them.
     */
    static double[][] prefixMeans(double[][] draws, int levels) {
        int rows = draws[0].length;
        double[][] out = new double[levels][rows];
        double[] sum = new double[rows];
        int n = 0;
        for (int j = 0; j < levels; j++) {
            int upto = 1 << j;
            for (; n < upto; n++) {
                for (int i = 0; i < rows; i++) {
                    sum[i] += draws[n][i];
                }
            }
            for (int i = 0; i < rows; i++) {
                out[j][i] = sum[i] / upto;
            }
        }
        return out;
    }

    /** Encoder + decoder + CE as a trainable model (x already standardised, y in [0, 1)). */
    private record Model(MlpEncoder encoder, DecoderHead head, Loss loss) implements TrainableModel {
        @Override
        public List<Param> params() {
            List<Param> all = new ArrayList<>(encoder.params());
            all.addAll(head.params());
            return all;
        }

        @Override
        public double trainStep(INDArray x, double[] y, Arena arena) {
            MlpEncoder.Cache ec = encoder.forward(x, arena);
            Targets t = head.targets(y);
            var fw = head.forward(ec.output(), t, arena);
            HeadOutput g = fw.output().zerosLike(arena);
            double value = loss.accumulate(fw.output(), t, 1.0, g, new double[y.length]);
            encoder.backwardParams(ec, head.backward(fw, g, arena), arena);
            return value;
        }

        @Override
        public double evaluate(INDArray x, double[] y, Arena arena) {
            MlpEncoder.Cache ec = encoder.forward(x, arena);
            Targets t = head.targets(y);
            var fw = head.forward(ec.output(), t, arena);
            return loss.accumulate(fw.output(), t, 1.0, fw.output().zerosLike(arena), new double[y.length]);
        }

        @Override
        public DataType dataType() {
            return DataType.FLOAT;
        }
    }

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        int[] rs;
        try {
            rs = Arrays.stream(repeats.split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--repeats must list integers such as 1,2,3, got '" + repeats + "'");
        }
        for (int r : rs) {
            Checks.require(r >= 1 && r <= 9, "--repeats must be in 1..9 each, got %d", r);
        }
        Checks.require(digits >= 1 && digits <= 6, "--digits must be in 1..6, got %d", digits);
        Checks.require(maxSamples >= 1 && maxSamples <= 1024, "--max-samples must be in 1..1024, got %d", maxSamples);
        Checks.require(trainRows >= 20, "--train must be >= 20, got %d", trainRows);
        Checks.require(testRows >= 2, "--test must be >= 2, got %d", testRows);
        Checks.require(Double.isFinite(noise) && noise >= 0 && noise <= 0.5, "--noise must be in [0, 0.5], got %s", noise);
        Checks.require(epochs >= 1, "--epochs must be >= 1, got %d", epochs);
        int levels = 32 - Integer.numberOfLeadingZeros(maxSamples); // n = 1, 2, ..., 2^(levels-1) <= maxSamples
        int drawn = 1 << (levels - 1);
        Dataset train = sample(trainRows, noise, RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
        Dataset test = sample(testRows, noise, RandomSource.XO_RO_SHI_RO_128_PP.create(seed + 1));
        double[] truth = new double[testRows];
        for (int i = 0; i < testRows; i++) {
            truth[i] = f(test.x(i, 0));
        }
        double[] ns = new double[levels];
        for (int j = 0; j < levels; j++) {
            ns[j] = 1 << j;
        }
        XYChart chart = new XYChartBuilder().width(800).height(500)
                .title(String.format(Locale.ROOT, "Error correction by repetition: K=%d base-10 digits, %d train rows",
                        digits, trainRows))
                .xAxisTitle("samples per x (mean of majority-voted samples)").yAxisTitle("test MSE vs noise-free f(x)")
                .build();
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        TrainerConfig tc = TrainerConfig.defaults().withSeed(seed).withMaxEpochs(epochs).withValidationFraction(0);
        o.printf(Locale.ROOT, "f(x) = 0.5 + 0.35 sin(2 pi x), noise %.3g, %d train / %d test rows, K=%d, %d epochs%n",
                noise, trainRows, testRows, digits, epochs);
        o.printf(Locale.ROOT, "%3s %7s %12s%n", "r", "samples", "test MSE");
        INDArray xTest = features(test.x());
        for (int r : rs) {
            RepeatedTokenizer tok = new RepeatedTokenizer(NormalizedTokenizer.of(10, digits), r);
            MlpEncoder enc = new MlpEncoder(new MlpEncoderConfig(1, 2, 64, seed), DataType.FLOAT);
            DecoderHead head = DecoderHead.small(tok, 64, seed + 1, DataType.FLOAT);
            Model m = new Model(enc, head, Losses.ce());
            System.err.printf(Locale.ROOT, "training r=%d (%d tokens per target)%n", r, tok.sequenceLength());
            Dataset scaled = train.withX(standardised(train.x()));
            TrainingResult tr = new Trainer(tc).fit(m, scaled);
            tr.requireConverged(); // a failure ends the command with exit code 1 and the trainer's message
            DecoderDistribution d = head.distribution(enc.forward(xTest, Arena.none()).output());
            double[][] draws = d.sampling().sampleValues(RandomSource.XO_RO_SHI_RO_128_PP.create(seed + 31L * r), drawn,
                    DecoderSampling.Settings.plain());
            double[][] means = prefixMeans(draws, levels);
            double[] mse = new double[levels];
            for (int j = 0; j < levels; j++) {
                for (int i = 0; i < testRows; i++) {
                    double e = means[j][i] - truth[i];
                    mse[j] += e * e / testRows;
                }
                o.printf(Locale.ROOT, "%3d %7d %12.5g%n", r, 1 << j, mse[j]);
            }
            chart.addSeries("r = " + r, ns, mse);
        }
        try {
            if (out.toAbsolutePath().getParent() != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
            }
            BitmapEncoder.saveBitmap(chart, out.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("--out: cannot write " + out + ": " + e.getMessage(), e);
        }
        o.println("plot: " + out);
        o.flush();
        return 0;
    }

    private static double[][] standardised(double[][] x) {
        double[][] z = new double[x.length][1];
        for (int i = 0; i < x.length; i++) {
            z[i][0] = (x[i][0] - 0.5) * Math.sqrt(12);
        }
        return z;
    }
}
