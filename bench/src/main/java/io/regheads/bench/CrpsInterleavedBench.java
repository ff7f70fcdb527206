package io.regheads.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link HeadTrainStepBench}'s log-score and CRPS steps round-robin, for a shared machine whose load drifts (JMH runs
 * one variant after another, so a load change between them lands in the ratio): one JVM, for each head the log-score
 * step and the CRPS step alternate in blocks of {@code steps} training steps, warm-up rounds discarded; per head the
 * median time per step of each, and the median over rounds of the per-round ratio CRPS / log score (each round's two
 * blocks run back to back, so drift cancels). Besides wall time it records the calling thread's CPU time ({@code
 * ThreadMXBean}), which a loaded machine does not inflate by descheduling; with {@code OMP_NUM_THREADS=1} the step's
 * matrix products run on the calling thread, so that is the whole step's CPU. Not a JMH benchmark; run with:
 *
 * <pre>
 * OMP_NUM_THREADS=1 SD_MAX_THREADS=1 SD_MASTER_THREADS=1 java -Xmx2g -cp bench/target/benchmarks.jar \
 *     io.regheads.bench.CrpsInterleavedBench [rounds=30] [warmup=5] [steps=20]
 * </pre>
 */
public final class CrpsInterleavedBench {
    private CrpsInterleavedBench() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int steps = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        double sink = 0;
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        System.out.printf("rounds %d after %d warm-up round(s), blocks of %d steps, log score and CRPS alternating%n",
                rounds, warmup, steps);
        for (String head : new String[] {"pointwise", "histogram", "mdn", "quantile"}) {
            HeadTrainStepBench[] pair = new HeadTrainStepBench[2];
            for (int k = 0; k < 2; k++) {
                pair[k] = new HeadTrainStepBench();
                pair[k].head = head;
                pair[k].loss = k == 0 ? "nll" : "crps";
                pair[k].setup();
            }
            List<Double> nll = new ArrayList<>();
            List<Double> crps = new ArrayList<>();
            List<Double> ratio = new ArrayList<>();
            List<Double> nllCpu = new ArrayList<>();
            List<Double> crpsCpu = new ArrayList<>();
            List<Double> ratioCpu = new ArrayList<>();
            for (int r = 0; r < warmup + rounds; r++) {
                double[] us = new double[2];
                double[] cpuUs = new double[2];
                for (int k = 0; k < 2; k++) {
                    int which = r % 2 == 0 ? k : 1 - k; // alternate which goes first
                    long c0 = cpu.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    for (int s = 0; s < steps; s++) {
                        sink += pair[which].trainStep();
                    }
                    us[which] = (System.nanoTime() - t0) / 1e3 / steps;
                    cpuUs[which] = (cpu.getCurrentThreadCpuTime() - c0) / 1e3 / steps;
                }
                if (r >= warmup) {
                    nll.add(us[0]);
                    crps.add(us[1]);
                    ratio.add(us[1] / us[0]);
                    nllCpu.add(cpuUs[0]);
                    crpsCpu.add(cpuUs[1]);
                    ratioCpu.add(cpuUs[1] / cpuUs[0]);
                }
            }
            System.out.printf("  %-10s wall: log score %8.1f, crps %8.1f us/step, median per-round ratio %.3f; "
                    + "thread CPU: %8.1f, %8.1f us/step, ratio %.3f (rounds' ratios %.3f to %.3f)%n", head, median(nll),
                    median(crps), median(ratio), median(nllCpu), median(crpsCpu), median(ratioCpu),
                    ratioCpu.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                    ratioCpu.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN));
        }
        System.out.printf("(checksum %.3f)%n", sink);
    }

    private static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        int m = a.length / 2;
        return a.length % 2 == 1 ? a[m] : 0.5 * (a[m - 1] + a[m]);
    }
}
