package io.regheads.bench;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.losses.Losses;
import java.util.Arrays;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The NTL paper's loss-overhead measurement, as the PyTorch peer runs it (its script heads_ref.py,
 * {@code ntl_bench}): logits 32 x 512 x 32128 float (1.96 GiB), 80% of the positions labelled with one of the 10
 * digit tokens (ids 1000..1009, values 0..9), the rest with a random other token, lambda 0.3. One operation is
 * the forward and backward of the loss w.r.t. the logits: {@code loss.accumulate(...)} into a caller-owned
 * gradient buffer (allocated once; a training loop zeroes it once per step, not counted here, as PyTorch's
 * freshly allocated {@code .grad} is not zeroed either).
 *
 * <p>Variants: {@code ce} (the baseline), {@code ce+ntl-mse}, {@code ce+ntl-was}, {@code ce+ntl-was-cdf} (all
 * {@code ce().plus(0.3, ...)}), and the three {@code 0.3 * ntl-...} terms alone: since a weighted sum runs its
 * terms one after the other into the same buffer, the term alone is the overhead, measurable even when a loaded
 * machine makes the 4-second CE figures drift by more than the overhead. Needs about 4.3 GB off-heap (logits + gradient): the
 * fork raises JavaCPP's limits. Run (see docs/perf-losses.md):
 * {@code SD_MAX_THREADS=1 SD_MASTER_THREADS=1 java -jar bench/target/benchmarks.jar NtlOverhead -f 1 -wi 2 -i 5}.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-Dorg.bytedeco.javacpp.maxbytes=10G",
    "-Dorg.bytedeco.javacpp.maxphysicalbytes=14G", "--add-modules", "jdk.incubator.vector"})
public class NtlOverheadBench extends BenchmarkBase {
    static final int BATCH = 32;
    static final int POSITIONS = 512;
    static final int VOCAB = 32128;
    static final int FIRST_DIGIT = 1000;
    static final double LAMBDA = 0.3;

    @Param({"ce", "ce+ntl-mse", "ce+ntl-was", "ce+ntl-was-cdf", "ntl-mse", "ntl-was", "ntl-was-cdf"})
    public String variant;

    private TokenLogits output;
    private TokenLogits gradient;
    private Targets.Tokens targets;
    private Loss loss;
    private double[] perExample;

    /** The peer's data: logits, a gradient buffer, targets; built once per fork. */
    record Fixture(TokenLogits output, TokenLogits gradient, Targets.Tokens targets, int digitPositions) {}

    /** Builds the fixture and prints the peer's sanity line (NTL-WAS == NTL-WAS-CDF, NTL-MSE). */
    static Fixture fixture(String label) {
        Random r = new Random(0);
        int n = BATCH * POSITIONS;
        int[] tokens = new int[n];
        int digits = 0;
        for (int i = 0; i < n; i++) {
            if (r.nextDouble() < 0.8) {
                tokens[i] = FIRST_DIGIT + r.nextInt(10);
                digits++;
            } else {
                int other = r.nextInt(VOCAB - 10);
                tokens[i] = other >= FIRST_DIGIT ? other + 10 : other; // skip the digit ids
            }
        }
        double[] tokenValues = new double[VOCAB];
        Arrays.fill(tokenValues, Double.NaN);
        for (int d = 0; d < 10; d++) {
            tokenValues[FIRST_DIGIT + d] = d;
        }
        // N(0, 2^2) logits as the peer's randn * 2, from a seeded Java generator: the same array in every fork
        // (ND4J's native Gaussian op gave different arrays per fork even with a seeded Random instance)
        INDArray logits = Nd4j.createUninitialized(DataType.FLOAT, BATCH, POSITIONS, VOCAB); // [B, T, V]
        SplittableRandom rng = new SplittableRandom(0);
        float[] slice = new float[POSITIONS * VOCAB];
        for (int b = 0; b < BATCH; b++) {
            for (int i = 0; i < slice.length; i++) {
                slice[i] = (float) (2.0 * rng.nextGaussian());
            }
            logits.get(NDArrayIndex.point(b), NDArrayIndex.all(), NDArrayIndex.all())
                    .assign(Nd4j.createFromArray(slice).reshape(POSITIONS, VOCAB));
        }
        TokenLogits output = new TokenLogits(logits, tokenValues, null);
        TokenLogits gradient = output.zerosLike(); // [B, T, V]
        Targets.Tokens targets = new Targets.Tokens(tokens, null, BATCH);
        // sanity, as the peer prints it: NTL-WAS == NTL-WAS-CDF on one-hot digit labels
        double was = Losses.ntlWas().accumulate(output, targets, 1.0, gradient, new double[BATCH]);
        double cdf = Losses.ntlWasCdf().accumulate(output, targets, 1.0, gradient, new double[BATCH]);
        double mse = Losses.ntlMse().accumulate(output, targets, 1.0, gradient, new double[BATCH]);
        gradient.logits().assign(0);
        if (Math.abs(was - cdf) > 1e-9 * was) {
            throw new IllegalStateException("NTL-WAS " + was + " != NTL-WAS-CDF " + cdf);
        }
        System.out.printf("%n[setup] %s: logits %dx%dx%d %s, %d/%d digit positions (%.1f%%), lambda %.1f; "
                        + "NTL-WAS %.6f == NTL-WAS-CDF %.6f; NTL-MSE %.6f%n", label, BATCH, POSITIONS, VOCAB,
                logits.dataType(), digits, n, 100.0 * digits / n, LAMBDA, was, cdf, mse);
        return new Fixture(output, gradient, targets, digits);
    }

    /** The loss of a variant name. */
    static Loss loss(String variant) {
        return switch (variant) {
            case "ce" -> Losses.ce();
            case "ce+ntl-mse" -> Losses.ce().plus(LAMBDA, Losses.ntlMse());
            case "ce+ntl-was" -> Losses.ce().plus(LAMBDA, Losses.ntlWas());
            case "ce+ntl-was-cdf" -> Losses.ce().plus(LAMBDA, Losses.ntlWasCdf());
            case "ntl-mse" -> Losses.ntlMse().times(LAMBDA);
            case "ntl-was" -> Losses.ntlWas().times(LAMBDA);
            case "ntl-was-cdf" -> Losses.ntlWasCdf().times(LAMBDA);
            default -> throw new IllegalArgumentException("variant must be one of the @Param values, got " + variant);
        };
    }

    @Setup(Level.Trial)
    public void setUp() {
        Fixture f = fixture(variant);
        output = f.output();
        gradient = f.gradient();
        targets = f.targets();
        perExample = new double[BATCH];
        loss = loss(variant);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        output.logits().close();
        gradient.logits().close();
    }

    /** Forward + backward of the loss w.r.t. the logits, adding into the gradient buffer. */
    @Benchmark
    public double lossForwardBackward() {
        return loss.accumulate(output, targets, 1.0, gradient, perExample);
    }
}
