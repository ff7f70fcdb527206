package io.regheads.core.internal;

/**
 * Run in a JVM of its own by {@code SimdTest}: uses the kernels (which loads {@link Simd}), then says whether the
 * warm-up thread exists, before and after {@link Simd#startWarmUp()}: one line, {@code before=<bool> after=<bool>}.
 */
final class SimdWarmUpProbe {
    private SimdWarmUpProbe() {}

    public static void main(String[] args) throws InterruptedException {
        float[] x = {0.5f, -1f, 2f, 3f, -4f};
        float[] y = new float[x.length];
        FastExp.expShifted(x, 0.25f, y, new float[x.length], 0, x.length);
        float[] maxMin = new float[2];
        Simd.addMaxMin(x, 0, x, new float[x.length], x.length, maxMin);
        Simd.weightedSums(y, 0, new double[x.length], x.length, new double[2]);
        Thread.sleep(300);
        boolean before = running();
        Simd.startWarmUp();
        boolean after = running();
        System.out.println("before=" + before + " after=" + after);
    }

    private static boolean running() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(Simd.WARM_UP_THREAD));
    }
}
