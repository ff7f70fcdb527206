package io.regheads.core.internal;

/**
 * Whether the array kernels run in SIMD lanes, and the small float reductions the softmax kernels need, with a
 * scalar form for JVMs without SIMD. Internal; stateless and thread-safe.
 *
 * <p>Java 17 has no stable vector API; HotSpot's C2 vectorises plain loops of float arithmetic but neither
 * reductions with {@link Math#max(float, float)}'s NaN rule nor the bit manipulation of an exponential. The JDK's
 * incubating Vector API does both. It is used when the JVM was started with {@code --add-modules
 * jdk.incubator.vector} (the launcher, the benchmarks and the tests do; a library user adds the flag to the
 * application's JVM), the preferred vector shape holds at least four floats, the system property {@value
 * #PROPERTY} is not {@code false}, and a self-check of the kernels against the scalar code passes when this class
 * is initialised. Otherwise every method runs its scalar form. <b>Either way the results are the same bits</b>:
 * the SIMD kernels do the same IEEE operations per element, and the reductions here are exact (a maximum or a
 * minimum does not depend on the order), so switching the flag changes speed only.
 */
public final class Simd {
    private Simd() {}

    /** System property that turns the SIMD kernels off when {@code false} (they are on when available). */
    public static final String PROPERTY = "regheads.simd";

    private static final boolean ENABLED = detect();

    /** True if the array kernels run in SIMD lanes (see the class description). */
    public static boolean enabled() {
        return ENABLED;
    }

    private static boolean detect() {
        if ("false".equalsIgnoreCase(System.getProperty(PROPERTY))) {
            return false;
        }
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return false;
        }
        try {
            return SimdKernels.usable();
        } catch (LinkageError | RuntimeException e) { // an API that changed in a later JDK: the scalar forms
            return false;
        }
    }

    /**
     * The largest of {@code x[0, n)}, NaN if any is NaN, {@code -Infinity} for {@code n = 0}; {@code +0.0} above
     * {@code -0.0} as {@link Math#max(float, float)}.
     */
    public static float max(float[] x, int n) {
        return ENABLED ? SimdKernels.max(x, n) : maxScalar(x, n);
    }

    /** The smallest of {@code x[0, n)}, NaN if any is NaN, {@code +Infinity} for {@code n = 0}. */
    public static float min(float[] x, int n) {
        return ENABLED ? SimdKernels.min(x, n) : minScalar(x, n);
    }

    /** {@code out[j] = a[from + j] + b[j]} for j in {@code [0, n)}. */
    public static void add(float[] a, int from, float[] b, float[] out, int n) {
        if (ENABLED) {
            SimdKernels.add(a, from, b, out, n);
            return;
        }
        System.arraycopy(a, from, out, 0, n);
        for (int j = 0; j < n; j++) { // indexed alike: C2 vectorises it
            out[j] += b[j];
        }
    }

    /** {@link #max} without SIMD: eight partial maxima (C2 does not vectorise the reduction). */
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

    /** {@link #min} without SIMD: four partial minima. */
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
