package io.regheads.core.internal;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the array kernels run in SIMD lanes, and the small reductions the softmax kernels need (a row's maximum
 * and minimum, its sums in double), with a scalar form for JVMs without SIMD. Internal; stateless and thread-safe.
 *
 * <p>Java 17 has no stable vector API; HotSpot's C2 vectorises plain loops of float arithmetic but neither
 * reductions with {@link Math#max(float, float)}'s NaN rule nor the bit manipulation of an exponential. The JDK's
 * incubating Vector API does both. It is used when the JVM was started with {@code --add-modules
 * jdk.incubator.vector} (the launcher, the benchmarks and the tests do; a library user adds the flag to the
 * application's JVM), the system property {@value #PROPERTY} is not {@code false}, the preferred vector shape holds
 * at least four floats, the kernels agree with the scalar code on a self-check, and they have been compiled:
 * Vector API code is many times slower than scalar code until C2 compiles it (about two seconds for the first 2048
 * histogram rows), so a daemon thread ({@value #WARM_UP_THREAD}) checks and compiles them first. Loading this class
 * starts no thread: the warm-up starts when asked, once per JVM, by {@link #startWarmUp()} (the first use of a
 * path that runs the kernels: a prediction through the histogram or mixture head's distribution builder, a token
 * cross-entropy), {@link #warmUpNow()} (training, as {@code Trainer.fit} does when it starts) or {@link
 * #awaitWarmUp}. The thread waits
 * until the JIT has been idle for half a second (the application's own first calls compiled; at most 3 s; not at
 * all once {@link #warmUpNow()} has been called), runs the self-check, then the SIMD and the scalar kernels on small
 * arrays in turns, resting twice as long as each turn took, until the SIMD ones are the faster three times in a
 * row, and only then switches them on (typically within a few seconds; never, if they do not get faster within 90
 * seconds). Until then, and otherwise, every method runs its scalar form. <b>Either way the results are the same
 * bits</b>: the SIMD kernels do the same IEEE operations per element, a maximum or a minimum does not depend on the
 * order, and the sums keep the scalar code's order, so the switch changes speed only.
 */
public final class Simd {
    private Simd() {}

    /** System property that turns the SIMD kernels off when {@code false} (they are on when available). */
    public static final String PROPERTY = "regheads.simd";
    /** Longest wait of the warm-up thread for the JIT to fall quiet before it starts. */
    static final int QUIET_COMPILER_MAX_SECONDS = 3;
    /** Name of the daemon thread that checks and compiles the SIMD kernels before they are used. */
    public static final String WARM_UP_THREAD = "regheads-simd-warm-up";

    /** The JVM has the module and the property allows it. */
    private static final boolean REQUESTED = requested();
    /** The kernels passed the self-check and beat the scalar ones once compiled (set by the warm-up thread). */
    private static volatile boolean enabled;
    /** Set by {@link #warmUpNow()}: the warm-up stops waiting for a quiet JIT. */
    private static volatile boolean now;
    /** Whether the warm-up has been started (by the first {@link #startWarmUp()}). */
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    /** Counted down when the warm-up has decided: at once when the SIMD kernels were not requested. */
    private static final CountDownLatch WARM_UP_DONE = new CountDownLatch(REQUESTED ? 1 : 0);

    /** True if the array kernels run in SIMD lanes now (see the class description). */
    public static boolean enabled() {
        return enabled;
    }

    /**
     * Starts the warm-up if it has not been started (see the class description), and returns at once: the thread
     * waits for a quiet JIT before it compiles the kernels, so that this does not delay the caller's own first calls.
     * Does nothing where the SIMD kernels were not requested. Callers: the paths that run the kernels, on each use
     * (a read once started). Changes no result. Thread-safe: one thread per JVM whoever calls first.
     */
    public static void startWarmUp() {
        if (REQUESTED && !STARTED.get() && STARTED.compareAndSet(false, true)) { // a read only, once started
            Thread t = new Thread(Simd::warmUp, WARM_UP_THREAD);
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            t.start();
        }
    }

    /**
     * Starts the warm-up if need be ({@link #startWarmUp()}) and waits until it has decided (immediately when the SIMD
     * kernels were not requested), at most the given time; for benchmarks and tests that want the steady state from
     * their first call.
     *
     * @return {@link #enabled()} afterwards
     */
    public static boolean awaitWarmUp(Duration timeout) {
        startWarmUp();
        try {
            WARM_UP_DONE.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return enabled;
    }

    /**
     * Lets the warm-up start at once instead of waiting for a quiet JIT, starting it if it has not been started
     * ({@link #startWarmUp()}): for work that takes long and is about to begin, such as training, during which
     * compiling the kernels costs a small share, where after it the same compilation would land on the first
     * predictions. Changes no result (see the class description).
     */
    public static void warmUpNow() {
        now = true;
        startWarmUp();
    }

    /** True if the JVM has the Vector API module and {@value #PROPERTY} is not {@code false}. */
    static boolean requested() {
        return !"false".equalsIgnoreCase(System.getProperty(PROPERTY))
                && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    }

    private static void warmUp() {
        try {
            awaitQuietCompiler();
            if (SimdKernels.usable()) {
                enabled = SimdKernels.fasterOnceCompiled();
            }
        } catch (LinkageError | RuntimeException e) { // an API that changed in a later JDK: the scalar forms
            enabled = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            enabled = false;
        } finally {
            WARM_UP_DONE.countDown();
        }
    }

    /**
     * Waits until the JIT has compiled nothing for half a second, at most {@value #QUIET_COMPILER_MAX_SECONDS} s:
     * compiling the Vector API kernels is expensive, and started at once it delayed the compilation of the
     * application's own first calls (the first 30 histogram predictions after loading a model took twice as long).
     * Without a compilation-time monitor: the longest wait. Ends early once {@link #warmUpNow()} has been called.
     */
    private static void awaitQuietCompiler() throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean monitored = jit != null && jit.isCompilationTimeMonitoringSupported();
        long deadline = System.nanoTime() + QUIET_COMPILER_MAX_SECONDS * 1_000_000_000L;
        long last = monitored ? jit.getTotalCompilationTime() : 0;
        int quiet = 0;
        while (!now && quiet < 2 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            if (monitored) {
                long total = jit.getTotalCompilationTime();
                quiet = total == last ? quiet + 1 : 0;
                last = total;
            }
        }
    }

    /**
     * The sum of {@code e_j = e[from + j]}, j in {@code [0, n)}, and their {@code values}-weighted sum, both in
     * double: {@code sums[0] = sum_j e_j}, {@code sums[1] = sum_j e_j values_j}, each in four partial sums (element j
     * into partial {@code j mod 4}, the elements after the last full group of four into partial 0, then {@code (p0 +
     * p1) + (p2 + p3)}), the weighted terms as {@code e_j * values_j} (a multiply and an add, no fused multiply-add).
     * The SIMD form keeps the four partial sums in the lanes of one double vector: the same operations in the same
     * order, so the same bits.
     *
     * @param sums {@code [2]}, written
     */
    public static void weightedSums(float[] e, int from, double[] values, int n, double[] sums) {
        if (enabled) {
            SimdKernels.weightedSums(e, from, values, n, sums);
            return;
        }
        weightedSumsScalar(e, from, values, n, sums);
    }

    /** {@link #weightedSums} without SIMD. */
    static void weightedSumsScalar(float[] e, int from, double[] values, int n, double[] sums) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        double m0 = 0;
        double m1 = 0;
        double m2 = 0;
        double m3 = 0;
        int j = 0;
        for (; j + 3 < n; j += 4) {
            double e0 = e[from + j];
            double e1 = e[from + j + 1];
            double e2 = e[from + j + 2];
            double e3 = e[from + j + 3];
            s0 += e0;
            s1 += e1;
            s2 += e2;
            s3 += e3;
            m0 += e0 * values[j];
            m1 += e1 * values[j + 1];
            m2 += e2 * values[j + 2];
            m3 += e3 * values[j + 3];
        }
        for (; j < n; j++) {
            double e0 = e[from + j];
            s0 += e0;
            m0 += e0 * values[j];
        }
        sums[0] = (s0 + s1) + (s2 + s3);
        sums[1] = (m0 + m1) + (m2 + m3);
    }

    /**
     * {@code out[j] = a[from + j] + b[j]} for j in {@code [0, n)}, and the largest and the smallest of them into
     * {@code maxMin[0]} and {@code maxMin[1]} as {@link Math#max(float, float)} and {@link Math#min(float, float)}
     * give them (NaN if any is NaN, {@code +0.0} above {@code -0.0}; {@code -Infinity} and {@code +Infinity} for
     * {@code n = 0}); one pass where the SIMD kernels are on.
     *
     * @param maxMin {@code [2]}, written
     */
    public static void addMaxMin(float[] a, int from, float[] b, float[] out, int n, float[] maxMin) {
        if (enabled) {
            SimdKernels.addMaxMin(a, from, b, out, n, maxMin);
            return;
        }
        addMaxMinScalar(a, from, b, out, n, maxMin);
    }

    /** {@link #addMaxMin} without SIMD: the sums, then their maximum and minimum. */
    static void addMaxMinScalar(float[] a, int from, float[] b, float[] out, int n, float[] maxMin) {
        addScalar(a, from, b, out, n);
        maxMin[0] = maxScalar(out, n);
        maxMin[1] = minScalar(out, n);
    }

    /** The sums of {@link #addMaxMin} without SIMD. */
    static void addScalar(float[] a, int from, float[] b, float[] out, int n) {
        System.arraycopy(a, from, out, 0, n);
        for (int j = 0; j < n; j++) { // indexed alike: C2 vectorises it
            out[j] += b[j];
        }
    }

    /**
     * The largest of {@code x[from, from + n)} as one chain of {@link Math#max(double, double)} from negative
     * infinity gives it (NaN if any entry is NaN, +0 over -0; negative infinity for n = 0), in four partial maxima:
     * the same value in any order, and a single chain waits on each comparison in turn (a softmax row's maximum).
     */
    public static double max(double[] x, int from, int n) {
        double a0 = Double.NEGATIVE_INFINITY;
        double a1 = a0;
        double a2 = a0;
        double a3 = a0;
        int j = 0;
        for (; j + 3 < n; j += 4) {
            a0 = Math.max(a0, x[from + j]);
            a1 = Math.max(a1, x[from + j + 1]);
            a2 = Math.max(a2, x[from + j + 2]);
            a3 = Math.max(a3, x[from + j + 3]);
        }
        for (; j < n; j++) {
            a0 = Math.max(a0, x[from + j]);
        }
        return Math.max(Math.max(a0, a1), Math.max(a2, a3));
    }

    /** The maximum of {@link #addMaxMin} without SIMD: eight partial maxima (C2 does not vectorise the reduction). */
    static float maxScalar(float[] x, int n) {
        float a0 = Float.NEGATIVE_INFINITY;
        float a1 = a0;
        float a2 = a0;
        float a3 = a0;
        float a4 = a0;
        float a5 = a0;
        float a6 = a0;
        float a7 = a0;
        int j = 0;
        for (; j + 7 < n; j += 8) {
            a0 = Math.max(a0, x[j]);
            a1 = Math.max(a1, x[j + 1]);
            a2 = Math.max(a2, x[j + 2]);
            a3 = Math.max(a3, x[j + 3]);
            a4 = Math.max(a4, x[j + 4]);
            a5 = Math.max(a5, x[j + 5]);
            a6 = Math.max(a6, x[j + 6]);
            a7 = Math.max(a7, x[j + 7]);
        }
        for (; j < n; j++) {
            a0 = Math.max(a0, x[j]);
        }
        return Math.max(Math.max(Math.max(a0, a1), Math.max(a2, a3)), Math.max(Math.max(a4, a5), Math.max(a6, a7)));
    }

    /** The minimum of {@link #addMaxMin} without SIMD: four partial minima. */
    static float minScalar(float[] x, int n) {
        float a0 = Float.POSITIVE_INFINITY;
        float a1 = a0;
        float a2 = a0;
        float a3 = a0;
        int j = 0;
        for (; j + 3 < n; j += 4) {
            a0 = Math.min(a0, x[j]);
            a1 = Math.min(a1, x[j + 1]);
            a2 = Math.min(a2, x[j + 2]);
            a3 = Math.min(a3, x[j + 3]);
        }
        for (; j < n; j++) {
            a0 = Math.min(a0, x[j]);
        }
        return Math.min(Math.min(a0, a1), Math.min(a2, a3));
    }
}
