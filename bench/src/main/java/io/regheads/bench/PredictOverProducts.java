package io.regheads.bench;

import io.regheads.core.internal.Simd;
import java.time.Duration;
import java.util.Arrays;

/**
 * A prediction against the raw time of its own matrix products, call by call in one JVM: {@link PredictBench#mean}
 * and {@link GemmPredictBench#products} (the same three products alone, float32, through the same OpenBLAS call)
 * alternated, so that both see the same machine at the same moments; prints each side's median and their ratio per
 * round. Two JMH runs of the two benchmarks, minutes apart on a shared machine, swing more than the ratio itself.
 *
 * <pre>{@code
 * java --add-modules jdk.incubator.vector -cp "$(cat bench/target/cp.txt):bench/target/classes" \
 *     io.regheads.bench.PredictOverProducts [rows=2048] [calls=400] [rounds=3] [heads=pointwise,histogram,mdn]
 * }</pre>
 *
 * <p>Threads as for the benchmarks: {@code OMP_NUM_THREADS} for OpenBLAS, {@code SD_MAX_THREADS=1} for libnd4j.
 */
public final class PredictOverProducts {
    private PredictOverProducts() {}

    public static void main(String[] args) {
        int rows = 2048;
        int calls = 400;
        int rounds = 3;
        String[] heads = {"pointwise", "histogram", "mdn"};
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("arguments must be key=value, got " + a);
            }
            switch (kv[0]) {
                case "rows" -> rows = Integer.parseInt(kv[1]);
                case "calls" -> calls = Integer.parseInt(kv[1]);
                case "rounds" -> rounds = Integer.parseInt(kv[1]);
                case "heads" -> heads = kv[1].split(",");
                default -> throw new IllegalArgumentException("unknown argument " + kv[0]
                        + " (rows, calls, rounds, heads)");
            }
        }
        System.out.printf("rows %d, %d alternated calls per round; OMP_NUM_THREADS=%s; SIMD kernels %s%n", rows,
                calls, System.getenv("OMP_NUM_THREADS"), Simd.awaitWarmUp(Duration.ofSeconds(60)) ? "on" : "off");
        for (String head : heads) {
            PredictBench predict = new PredictBench();
            predict.head = head;
            predict.rows = rows;
            predict.setup();
            GemmPredictBench products = new GemmPredictBench();
            products.head = head;
            products.rows = rows;
            products.setup();
            for (int i = 0; i < 100; i++) { // warm-up
                predict.mean();
                products.products();
            }
            for (int r = 1; r <= rounds; r++) {
                double[] p = new double[calls];
                double[] g = new double[calls];
                for (int i = 0; i < calls; i++) {
                    long t0 = System.nanoTime();
                    predict.mean();
                    long t1 = System.nanoTime();
                    products.products();
                    long t2 = System.nanoTime();
                    p[i] = (t1 - t0) * 1e-3;
                    g[i] = (t2 - t1) * 1e-3;
                }
                Arrays.sort(p);
                Arrays.sort(g);
                double mp = p[calls / 2];
                double mg = g[calls / 2];
                System.out.printf("%-9s round %d: prediction %8.0f us, products %8.0f us (medians), ratio %.2f%n",
                        head, r, mp, mg, mp / mg);
            }
        }
    }
}
