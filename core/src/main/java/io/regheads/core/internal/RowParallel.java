package io.regheads.core.internal;

import io.regheads.core.check.Checks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Splits host work on independent rows over as many threads as ND4J gives the BLAS ({@code OMP_NUM_THREADS}, else
 * the cores), so that the host kernels after a matrix product use the threads the product used. Internal.
 *
 * <p>The caller runs the first part itself; the other parts go to a small pool of daemon threads ({@value
 * #THREAD_NAME}-k). A part that no pool thread has started by the time the caller is done with its own is taken
 * back and run by the caller, so a busy pool (many concurrent callers) never makes a caller wait for a queue. The
 * parts must write disjoint rows: then the result is the same as one sequential pass, bit for bit, whatever the
 * number of threads. An exception of any part is rethrown to the caller (an unchecked one as it is).
 */
public final class RowParallel {
    private RowParallel() {}

    /** Name prefix of the pool's threads. */
    public static final String THREAD_NAME = "regheads-rows";

    /** Work on rows {@code [from, to)}. */
    public interface Range {
        void run(int from, int to);
    }

    private static final int CORES = Runtime.getRuntime().availableProcessors();
    private static volatile ExecutorService pool;

    /** The number of threads for host work now: ND4J's BLAS threads, within {@code [1, cores]}. */
    public static int threads() {
        int t;
        try {
            t = Nd4j.factory().blas().getMaxThreads();
        } catch (RuntimeException | LinkageError e) { // a backend without a BLAS thread count
            t = 1;
        }
        return Math.max(1, Math.min(t, CORES));
    }

    /**
     * Runs {@code task} over {@code [from, to)} in parts of at least {@code minRows} rows, one part per thread of
     * {@link #threads()} at most; in the calling thread alone when there is one part.
     *
     * @throws IllegalArgumentException if {@code to < from} or {@code minRows < 1}
     */
    public static void run(int from, int to, int minRows, Range task) {
        Checks.require(to >= from, "to must be >= from, got from = %d, to = %d", from, to);
        Checks.atLeast("minRows", minRows, 1);
        int parts = Math.min(threads(), (to - from) / minRows);
        if (parts <= 1) {
            task.run(from, to);
            return;
        }
        int rows = to - from;
        int[] cut = new int[parts + 1];
        for (int k = 0; k <= parts; k++) {
            cut[k] = from + (int) ((long) rows * k / parts);
        }
        List<Part> others = new ArrayList<>(parts - 1);
        ExecutorService p = pool();
        for (int k = 1; k < parts; k++) {
            Part part = new Part(cut[k], cut[k + 1], task);
            others.add(part);
            p.execute(part);
        }
        try {
            task.run(cut[0], cut[1]);
        } catch (RuntimeException | Error e) {
            others.forEach(Part::claim); // the pool skips the parts not started
            throw e;
        }
        for (Part part : others) {
            if (part.claim()) { // no pool thread has started it: run it here
                task.run(part.from, part.to);
            } else {
                part.join();
            }
        }
    }

    /** One part for the pool; whoever claims it first (a pool thread or the caller) runs it. */
    private static final class Part implements Runnable {
        final int from;
        final int to;
        private final Range task;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile Throwable failure;

        Part(int from, int to, Range task) {
            this.from = from;
            this.to = to;
            this.task = task;
        }

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }

        @Override
        public void run() {
            if (!claim()) {
                return;
            }
            try {
                task.run(from, to);
            } catch (Throwable t) {
                failure = t;
            } finally {
                done.countDown();
            }
        }

        /** Waits for a part a pool thread has claimed; rethrows its exception. */
        void join() {
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for rows of a parallel pass", e);
            }
            Throwable t = failure;
            if (t instanceof RuntimeException r) {
                throw r;
            }
            if (t instanceof Error r) {
                throw r;
            }
            if (t != null) {
                throw new IllegalStateException(t);
            }
        }
    }

    private static ExecutorService pool() {
        ExecutorService p = pool;
        if (p == null) {
            synchronized (RowParallel.class) {
                p = pool;
                if (p == null) {
                    AtomicInteger count = new AtomicInteger();
                    p = Executors.newFixedThreadPool(Math.max(1, CORES - 1), r -> {
                        Thread t = new Thread(r, THREAD_NAME + "-" + count.incrementAndGet());
                        t.setDaemon(true);
                        return t;
                    });
                    pool = p;
                }
            }
        }
        return p;
    }
}
