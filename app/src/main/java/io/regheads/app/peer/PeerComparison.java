package io.regheads.app.peer;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.VectorKernels;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.core.optim.Optimizer;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.decoder.DecoderDistribution;
import io.regheads.heads.decoder.DecoderSampling;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Trains the distribution heads on the PyTorch peer's data with the peer's configuration and prints what the peer
 * prints: training step time (one fixed batch of 128: zero grad + forward + loss + backward + Adam step; median of
 * 200 steps after 20 warm-up, 3 rounds, once the SIMD kernels are on where the JVM has them), epoch time (median of
 * the epochs after the first), test MSE of the mean and test NLL in y01 units, and predictions per second as the
 * peer times them (x of the 2048 test rows to their means, median of 30 calls after 3 warm-up calls, right after
 * training; ours includes the double[][] to INDArray conversion and the x scaling), then the same once the SIMD
 * kernels are on, after 100 more calls (the steady state).
 *
 * <p>Setup as the peer's script {@code heads_ref.py}: encoder 8-256-256 ReLU, Adam 1e-3, batch 128, 20 epochs on all
 * 8192 training rows (no validation split), histogram 256 bins, MDN 10 components; pointwise NLL is a Gaussian with
 * sigma^2 = train MSE; test y01 clipped into [0, 1 - 1e-7] as the peer does.
 *
 * <p>Usage: {@code PeerComparison [--micro-only] PEER_DIR [heads]}, e.g. {@code /path/to/peer
 * pointwise,histogram,mdn}: {@code PEER_DIR} (required) is the peer's folder holding
 * {@code heads_ref_data_{train,test}.csv.gz}, which is not part of this repository; {@code --micro-only} times the training step of each head and nothing else (as the
 * peer's flag of that name).
 */
public final class PeerComparison {

    /**
     * One head's figures; {@code predPerSecondWarm} is the same timing after 100 more calls (the JIT's steady state),
     * NaN where not measured.
     */
    public record Row(String head, double msPerStep, double secondsPerEpoch, double testMse, double testNll, double predPerSecond,
            double predPerSecondWarm, TrainingResult training) {}

    private PeerComparison() {}

    public static void main(String[] args) {
        boolean microOnly = Arrays.asList(args).contains("--micro-only");
        args = Arrays.stream(args).filter(a -> !a.equals("--micro-only")).toArray(String[]::new);
        if (args.length == 0) {
            System.err.println("usage: PeerComparison [--micro-only] PEER_DIR [heads], PEER_DIR holding the PyTorch "
                    + "peer's heads_ref_data_{train,test}.csv.gz; heads: pointwise,histogram,mdn (default) or decoder");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        List<String> heads = Arrays.asList((args.length > 1 ? args[1] : "pointwise,histogram,mdn").split(","));
        PeerData train = PeerData.read(dir.resolve("heads_ref_data_train.csv.gz"));
        if (microOnly) { // the peer's --micro-only: one training step per head, nothing else
            for (String h : heads) {
                HeadSpec spec = spec(h);
                double ms = microStep(RegressionModel.create(config(spec), train.data().features()), spec, train.data());
                System.out.printf("%-10s %8.3f ms/step%n", h, ms);
            }
            return;
        }
        PeerData test = PeerData.read(dir.resolve("heads_ref_data_test.csv.gz"));
        System.out.printf("peer data: train %d x %d, test %d; java %s; %s%n", train.data().rows(), train.data().features(),
                test.data().rows(), System.getProperty("java.version"), java.time.Instant.now());
        System.out.printf("%-10s %10s %9s %10s %9s %14s %14s%n", "head", "ms/step", "s/epoch", "test MSE", "test NLL",
                "pred/s", "pred/s warm");
        for (String h : heads) {
            Row r = run(spec(h), train, test);
            System.out.printf("%-10s %10.3f %9.3f %10.6f %9.4f %14.0f %14.0f%n", r.head(), r.msPerStep(),
                    r.secondsPerEpoch(), r.testMse(), r.testNll(), r.predPerSecond(), r.predPerSecondWarm());
        }
    }

    static HeadSpec spec(String name) {
        return switch (name) {
            case "pointwise" -> new PointwiseSpec(false);
            case "histogram" -> new HistogramSpec(256, false);
            case "mdn" -> new MixtureSpec(10);
            case "decoder" -> DecoderSpec.referenceSetup(); // ReLU MLP, as the peer's block
            default -> throw new IllegalArgumentException("head must be pointwise, histogram, mdn or decoder, got " + name);
        };
    }

    /** The peer's configuration for a head. */
    public static ModelConfig config(HeadSpec head) {
        return ModelConfig.referenceSetup(head);
    }

    public static Row run(HeadSpec head, PeerData train, PeerData test) {
        RegressionModel m = RegressionModel.create(config(head), train.data().features());
        List<Double> epochEnds = new java.util.ArrayList<>();
        TrainingResult tr = m.fit(train.data(), new io.regheads.core.train.ProgressListener() {
            @Override
            public void onEpochEnd(io.regheads.core.train.Progress p) {
                epochEnds.add(p.elapsed().toNanos() * 1e-9);
            }
        });
        double secondsPerEpoch = medianEpochSeconds(epochEnds);
        double[] y01 = test.y01();
        if (head instanceof DecoderSpec) {
            double msPerStep = microStep(RegressionModel.create(config(head), train.data().features()), head,
                    train.data());
            return decoder(m, head, tr, msPerStep, secondsPerEpoch, test);
        }
        // the peer's protocol, right after training as the peer times it: median of 30 timed calls after 3 warm-up
        // calls, x to point predictions (the mean); then the steady state: once the SIMD kernels are on, the same
        // after 100 more calls
        double[][] x = test.data().x();
        double predPerSecond = y01.length / medianPredictSeconds(m, x, 3);
        VectorKernels.awaitWarmUp(java.time.Duration.ofSeconds(30));
        double predPerSecondWarm = y01.length / medianPredictSeconds(m, x, 100);
        // timed on a fresh model: the fixed-batch steps would otherwise keep training the evaluated one
        double msPerStep = microStep(RegressionModel.create(config(head), train.data().features()), head, train.data());
        PredictiveDistribution d = m.predictUnit(x);
        double[] mean = d.mean();
        double mse = 0;
        double nll = 0;
        double[] logp = d.logDensity(y01);
        for (int i = 0; i < y01.length; i++) {
            mse += (mean[i] - y01[i]) * (mean[i] - y01[i]);
            nll -= logp[i];
        }
        return new Row(head.name(), msPerStep, secondsPerEpoch, mse / y01.length,
                nll / y01.length, predPerSecond, predPerSecondWarm, tr);
    }

    /** Median seconds of 30 timed {@code predictUnit(x).mean()} calls after {@code warmUp} untimed ones. */
    static double medianPredictSeconds(RegressionModel m, double[][] x, int warmUp) {
        double[] seconds = new double[30];
        for (int r = -warmUp; r < seconds.length; r++) {
            long t0 = System.nanoTime();
            m.predictUnit(x).mean();
            if (r >= 0) {
                seconds[r] = (System.nanoTime() - t0) * 1e-9;
            }
        }
        Arrays.sort(seconds);
        return seconds[seconds.length / 2];
    }

    /**
     * The peer's epoch time: the median duration of the epochs after the first (the first carries the JIT's warm-up,
     * as PyTorch's carries its own; the peer prints "median(rest)").
     */
    static double medianEpochSeconds(List<Double> epochEnds) {
        if (epochEnds.size() < 2) {
            return epochEnds.isEmpty() ? Double.NaN : epochEnds.get(0);
        }
        double[] d = new double[epochEnds.size() - 1];
        for (int i = 1; i < epochEnds.size(); i++) {
            d[i - 1] = epochEnds.get(i) - epochEnds.get(i - 1);
        }
        Arrays.sort(d);
        return d.length % 2 == 1 ? d[d.length / 2] : 0.5 * (d[d.length / 2 - 1] + d[d.length / 2]);
    }

    /**
     * Median ms of one training step on a fixed batch of 128 rows, best of 3 rounds of 200 after 20 warm-up. It first
     * waits (at most 30 s) until the SIMD kernels have been compiled and switched on where the JVM has them ({@link
     * VectorKernels#awaitWarmUp}): the steady state, as the peer's precompiled kernels are from its first step; in a
     * fresh JVM the three rounds alone (about 2 s) would otherwise time the scalar kernels.
     */
    public static double microStep(RegressionModel m, HeadSpec head, Dataset train) {
        VectorKernels.awaitWarmUp(java.time.Duration.ofSeconds(30));
        MinMaxScaler ys = MinMaxScaler.fit(train);
        double[] yHead = head.targetScaling().toHead(train.y(), ys.min(), ys.max());
        Dataset scaled = train.withY(yHead); // the peer feeds x raw
        int b = 128;
        int[] order = new int[b];
        for (int i = 0; i < b; i++) {
            order[i] = i;
        }
        TrainableModel t = m.asTrainable();
        INDArray x = scaled.featureMatrix(DataType.FLOAT).get(org.nd4j.linalg.indexing.NDArrayIndex.interval(0, b)).dup('c');
        double[] y = Arrays.copyOf(scaled.y(), b);
        Optimizer opt = new AdamW(t.params(), AdamConfig.adam(1e-3));
        Arena arena = Arena.create();
        double best = Double.POSITIVE_INFINITY;
        for (int round = 0; round < 3; round++) {
            double[] ms = new double[200];
            for (int i = -20; i < 200; i++) {
                long s = System.nanoTime();
                opt.zeroGrad();
                arena.reset();
                t.trainStep(x, y, arena);
                opt.step();
                if (i >= 0) {
                    ms[i] = (System.nanoTime() - s) * 1e-6;
                }
            }
            Arrays.sort(ms);
            best = Math.min(best, ms[100]);
        }
        return best;
    }

    /**
     * The decoder's figures as the peer reports them: test MSE of the 64-sample mean (the row's MSE), test NLL, and
     * sampling speed (median of 3 calls); plus the exact mean (tree expansion, full and under certified error
     * budgets 1e-6 ... 1e-3 per row, medians of 3 calls; the row reports 1e-6) with its MSE, error bound and
     * predictions per second.
     */
    static Row decoder(RegressionModel m, HeadSpec head, TrainingResult tr, double msPerStep, double secondsPerEpoch,
            PeerData test) {
        double[] y01 = test.y01();
        int n = y01.length;
        // the peer's decoder has no tails: its log densities against the model's decoder inside its tails
        io.regheads.core.dist.PredictiveDistribution unit = m.predictUnit(test.data().x());
        DecoderDistribution d = (DecoderDistribution) (unit instanceof io.regheads.core.dist.WithTails w ? w.base()
                : unit);
        double[] logp = d.logDensity(y01);
        double nll = -Arrays.stream(logp).sum() / n;
        org.apache.commons.rng.UniformRandomProvider rng = org.apache.commons.rng.simple.RandomSource.SPLIT_MIX_64.create(1);
        d.sampling().sampleValues(rng, 64, DecoderSampling.Settings.plain()); // warm-up
        double[][] s = null;
        double[] times = new double[3]; // median of 3, as the peer's med_time(reps=3, warm=1)
        for (int rep = 0; rep < times.length; rep++) {
            long t0 = System.nanoTime();
            s = d.sampling().sampleValues(rng, 64, DecoderSampling.Settings.plain());
            times[rep] = (System.nanoTime() - t0) * 1e-9;
        }
        Arrays.sort(times);
        double sampleSeconds = times[1];
        double[] sm = new double[n];
        for (double[] row : s) {
            for (int i = 0; i < n; i++) {
                sm[i] += row[i] / 64;
            }
        }
        double mseSample = mse(sm, y01);
        System.out.printf("[decoder] 64-sample mean: MSE %.6f, %.0f samples/s (%.2f s for %d x 64)%n", mseSample,
                n * 64 / sampleSeconds, sampleSeconds, n);
        double first = 0;
        for (double tol : new double[] {0.0, 1e-6, 1e-5, 1e-4, 3e-4, 5e-4, 1e-3}) {
            d.exactMean(tol); // warm-up
            DecoderDistribution.MeanEstimate e = null;
            double[] et = new double[3]; // median of 3, as for sampling
            for (int rep = 0; rep < et.length; rep++) {
                long t1 = System.nanoTime();
                e = d.exactMean(tol);
                et[rep] = (System.nanoTime() - t1) * 1e-9;
            }
            Arrays.sort(et);
            double sec = et[1];
            double maxBound = Arrays.stream(e.errorBound()).max().orElse(0);
            System.out.printf("[decoder] exact mean (certified error budget %g per row): MSE %.6f, max error bound %.2e, %.0f pred/s%n",
                    tol, mse(e.mean(), y01), maxBound, n / sec);
            if (tol == 1e-6) {
                first = n / sec;
            }
        }
        long t2 = System.nanoTime();
        double[] med = d.median();
        System.out.printf("[decoder] tree-walk median: MSE %.6f, %.0f pred/s%n", mse(med, y01), n / ((System.nanoTime() - t2) * 1e-9));
        return new Row(head.name(), msPerStep, secondsPerEpoch, mseSample, nll, first, Double.NaN, tr);
    }

    private static double mse(double[] a, double[] y) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += (a[i] - y[i]) * (a[i] - y[i]);
        }
        return s / y.length;
    }
}
