package io.regheads.bench;

import io.regheads.core.loss.Loss;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The NTL overhead measured as the PyTorch peer measures it (its script heads_ref.py, {@code ntl_bench}):
 * one JVM, the variants run round-robin (one run each per round, so slow drift of a shared machine hits all
 * alike), warm-up rounds discarded, then the median per variant and the overhead {@code median / median(CE) - 1}.
 * Also the median over rounds of the per-round ratio to that round's CE run, which cancels drift better.
 * Same data as {@link NtlOverheadBench}. Not a JMH benchmark (JMH runs variants one after another); run with:
 *
 * <pre>
 * SD_MAX_THREADS=1 SD_MASTER_THREADS=1 java -Xmx2g -Dorg.bytedeco.javacpp.maxbytes=10G \
 *     -Dorg.bytedeco.javacpp.maxphysicalbytes=14G -cp bench/target/benchmarks.jar \
 *     io.regheads.bench.NtlInterleavedBench [rounds=10] [warmup=1]
 * </pre>
 */
public final class NtlInterleavedBench {
    private NtlInterleavedBench() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        NtlOverheadBench.Fixture f = NtlOverheadBench.fixture("round-robin");
        String[] names = {"ce", "ce+ntl-mse", "ce+ntl-was", "ce+ntl-was-cdf"};
        Map<String, Loss> losses = new LinkedHashMap<>();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        for (String n : names) {
            losses.put(n, NtlOverheadBench.loss(n));
            times.put(n, new ArrayList<>());
            ratios.put(n, new ArrayList<>());
        }
        double[] perExample = new double[NtlOverheadBench.BATCH];
        double sink = 0;
        for (int r = 0; r < warmup + rounds; r++) {
            double ce = Double.NaN;
            for (String n : names) {
                long t0 = System.nanoTime();
                sink += losses.get(n).accumulate(f.output(), f.targets(), 1.0, f.gradient(), perExample);
                double ms = (System.nanoTime() - t0) / 1e6;
                if (n.equals("ce")) {
                    ce = ms;
                }
                if (r >= warmup) {
                    times.get(n).add(ms);
                    ratios.get(n).add(ms / ce);
                }
            }
        }
        double base = median(times.get("ce"));
        System.out.printf("rounds %d after %d warm-up round(s), variants round-robin (checksum %.3f)%n", rounds,
                warmup, sink);
        for (String n : names) {
            List<Double> t = times.get(n);
            System.out.printf("  %-16s median %8.1f ms (min %8.1f, max %8.1f, n=%d)", n, median(t),
                    t.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                    t.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN), t.size());
            if (!n.equals("ce")) {
                System.out.printf("  overhead vs CE %+6.2f%%, median per-round ratio %+6.2f%%",
                        100 * (median(t) / base - 1), 100 * (median(ratios.get(n)) - 1));
            }
            System.out.println();
        }
    }

    private static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        int m = a.length / 2;
        return a.length % 2 == 1 ? a[m] : 0.5 * (a[m - 1] + a[m]);
    }
}
