package io.regheads.core.nn;

/**
 * Plain-Java kernels over {@code float[]} host copies (FLOAT layers). Reductions (means, variances, dot products,
 * softmax sums) accumulate in double; elementwise updates stay in float so the JIT can vectorise them. {@link
 * DoubleKernels} is this file with the {@code (float)} casts removed and every {@code float} made {@code double}
 * ({@code sed -e 's/(float) //g' -e 's/float/double/g' -e 's/FloatKernels/DoubleKernels/g'}, then the class comment
 * replaced), except the constant {@code RELU_SCALE}; keep the two in step. Both are tested against naive references
 * and against each other. Stateless.
 */
final class FloatKernels {
    private FloatKernels() {}

    /**
     * Scale that lifts every positive float, subnormals included, to at least 1 when applied twice (so {@code
     * min(y * S * S, 1)} is exactly 1[y > 0] for y &gt;= 0). The one constant that differs between the two kernel files.
     */
    private static final float RELU_SCALE = 0x1p127f;

    /**
     * y = max(x, 0) (NaN stays NaN). Branch-free: a compare-and-select over random signs mispredicts about half the
     * time, and {@code Math.max} vectorises (figures in docs/perf-engine.md).
     */
    static void relu(float[] x, float[] y) {
        for (int i = 0; i < x.length; i++) {
            y[i] = Math.max(x[i], 0f);
        }
    }

    /** dx = dy * 1[y &gt; 0] for ReLU outputs y &gt;= 0, branch-free (see {@link #relu}). */
    static void reluBackward(float[] y, float[] dy, float[] dx) {
        for (int i = 0; i < y.length; i++) {
            dx[i] = Math.min(y[i] * RELU_SCALE * RELU_SCALE, 1) * dy[i];
        }
    }

    /** Layer norm over rows of width d; writes y, per-row mean and rstd. */
    static void layerNorm(float[] x, float[] gain, float[] bias, float[] y, float[] mean, float[] rstd, int d,
            double eps) {
        layerNorm(x, x.length / d, gain, bias, y, mean, rstd, d, eps);
    }

    /**
     * Layer norm over the first {@code rows} rows of width d; writes y and, unless null, the per-row mean and rstd.
     * The one layer-norm forward of this precision: training and the cached inference step use it.
     */
    static void layerNorm(float[] x, int rows, float[] gain, float[] bias, float[] y, float[] mean, float[] rstd, int d,
            double eps) {
        for (int r = 0; r < rows; r++) {
            int o = r * d;
            double m = sum(x, o, d) / d;
            double s = 1.0 / Math.sqrt(squaredDeviations(x, o, d, m) / d + eps);
            if (mean != null) {
                mean[r] = (float) m;
                rstd[r] = (float) s;
            }
            float mf = (float) m;
            float sf = (float) s;
            for (int j = 0; j < d; j++) {
                y[o + j] = (x[o + j] - mf) * sf * gain[j] + bias[j];
            }
        }
    }

    /**
     * Layer-norm backward: writes dx; adds into dGain, dBias (double accumulators of length d). Uses the stored
     * mean and rstd.
     */
    static void layerNormBackward(float[] x, float[] mean, float[] rstd, float[] gain, float[] dy, float[] dx,
            double[] dGain, double[] dBias, int d) {
        int n = x.length / d;
        float[] xhat = new float[d];
        float[] g = new float[d];
        for (int r = 0; r < n; r++) {
            int o = r * d;
            float m = mean[r];
            float s = rstd[r];
            for (int j = 0; j < d; j++) {
                xhat[j] = (x[o + j] - m) * s;
                // y = gain * xhat + bias
                dGain[j] += dy[o + j] * xhat[j];
                dBias[j] += dy[o + j];
                g[j] = dy[o + j] * gain[j];
            }
            float meanG = (float) (sum(g, 0, d) / d);
            float meanGx = (float) (dot(g, 0, xhat, 0, d) / d);
            for (int j = 0; j < d; j++) {
                // xhat = (x - mu) r  ->  dx = r (g - mean(g) - xhat mean(g xhat)),  g = dy * gain
                dx[o + j] = s * (g[j] - meanG - xhat[j] * meanGx);
            }
        }
    }

    /** sum_e x[i + e], e < n, in double with four partial sums. */
    static double sum(float[] x, int i, int n) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int e = 0;
        for (; e + 3 < n; e += 4) {
            s0 += x[i + e];
            s1 += x[i + e + 1];
            s2 += x[i + e + 2];
            s3 += x[i + e + 3];
        }
        for (; e < n; e++) {
            s0 += x[i + e];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** sum_e (x[i + e] - m)^2, e < n, in double with four partial sums. */
    static double squaredDeviations(float[] x, int i, int n, double m) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int e = 0;
        for (; e + 3 < n; e += 4) {
            double c0 = x[i + e] - m;
            double c1 = x[i + e + 1] - m;
            double c2 = x[i + e + 2] - m;
            double c3 = x[i + e + 3] - m;
            s0 += c0 * c0;
            s1 += c1 * c1;
            s2 += c2 * c2;
            s3 += c3 * c3;
        }
        for (; e < n; e++) {
            double c0 = x[i + e] - m;
            s0 += c0 * c0;
        }
        return (s0 + s1) + (s2 + s3);
    }

    /**
     * Causal attention core. qkv [B, T, 3d] (q | k | v), mask null / [T, T] / [B, T, T]; writes probs [B, H, T, T]
     * (zero above the diagonal) and a [B, T, d]. Scores and softmax in double; the value sums in the array type.
     *
     * @throws IllegalArgumentException when a row has no finite score
     */
    static void attention(float[] qkv, float[] mask, boolean perExample, float[] probs, float[] a, int b, int t,
            int d, int heads) {
        attention(qkv, mask, perExample, probs, a, b, t, d, heads, true);
    }

    /**
     * Attention core, causal (position t sees u <= t; probs zero above the diagonal) or not (every position sees
     * every position; only the mask removes pairs). Added beside the causal-only form; backward compatible.
     *
     * @throws IllegalArgumentException when a row has no finite score
     */
    static void attention(float[] qkv, float[] mask, boolean perExample, float[] probs, float[] a, int b, int t,
            int d, int heads, boolean causal) {
        int dh = d / heads;
        double scale = 1.0 / Math.sqrt(dh);
        int row = 3 * d;
        double[] s = new double[t];
        float[] acc = new float[dh];
        for (int bi = 0; bi < b; bi++) {
            int base = bi * t * row;
            int mBase = perExample ? bi * t * t : 0;
            for (int h = 0; h < heads; h++) {
                int qo = h * dh;
                int ko = d + h * dh;
                int vo = 2 * d + h * dh;
                int pBase = (bi * heads + h) * t * t;
                for (int ti = 0; ti < t; ti++) {
                    int lim = causal ? ti + 1 : t;
                    double max = Double.NEGATIVE_INFINITY;
                    int qi = base + ti * row + qo;
                    for (int u = 0; u < lim; u++) {
                        double sc = dot(qkv, qi, qkv, base + u * row + ko, dh) * scale;
                        if (mask != null) {
                            sc += mask[mBase + ti * t + u];
                        }
                        s[u] = sc;
                        if (sc > max) {
                            max = sc;
                        }
                    }
                    if (max == Double.NEGATIVE_INFINITY) {
                        throw new IllegalArgumentException("mask must leave at least one finite score per row, "
                                + "got none at batch " + bi + ", head " + h + ", position " + ti);
                    }
                    double z = 0;
                    for (int u = 0; u < lim; u++) {
                        s[u] = Math.exp(s[u] - max);
                        z += s[u];
                    }
                    double iz = 1 / z;
                    int pr = pBase + ti * t;
                    for (int u = 0; u < t; u++) {
                        probs[pr + u] = u < lim ? (float) (s[u] * iz) : 0;
                    }
                    java.util.Arrays.fill(acc, 0);
                    for (int u = 0; u < lim; u++) {
                        float p = probs[pr + u];
                        int vi = base + u * row + vo;
                        for (int e = 0; e < dh; e++) {
                            acc[e] += p * qkv[vi + e];
                        }
                    }
                    System.arraycopy(acc, 0, a, (bi * t + ti) * d + qo, dh);
                }
            }
        }
    }

    /** Attention core backward: from dA [B, T, d] writes dQkv [B, T, 3d] (fully overwritten). */
    static void attentionBackward(float[] qkv, float[] probs, float[] dA, float[] dQkv, int b, int t, int d,
            int heads) {
        attentionBackward(qkv, probs, dA, dQkv, b, t, d, heads, true);
    }

    /** Attention core backward, causal or not (as the forward ran): writes dQkv [B, T, 3d] (fully overwritten). */
    static void attentionBackward(float[] qkv, float[] probs, float[] dA, float[] dQkv, int b, int t, int d,
            int heads, boolean causal) {
        int dh = d / heads;
        double scale = 1.0 / Math.sqrt(dh);
        int row = 3 * d;
        java.util.Arrays.fill(dQkv, 0);
        double[] dp = new double[t];
        for (int bi = 0; bi < b; bi++) {
            int base = bi * t * row;
            for (int h = 0; h < heads; h++) {
                int qo = h * dh;
                int ko = d + h * dh;
                int vo = 2 * d + h * dh;
                int pBase = (bi * heads + h) * t * t;
                for (int ti = 0; ti < t; ti++) {
                    int lim = causal ? ti + 1 : t;
                    int gi = (bi * t + ti) * d + qo;
                    int pr = pBase + ti * t;
                    double dot = 0;
                    for (int u = 0; u < lim; u++) {
                        int vi = base + u * row + vo;
                        float pu = probs[pr + u];
                        double g = dot(dA, gi, qkv, vi, dh);
                        for (int e = 0; e < dh; e++) {
                            // a_t = sum_u P[t,u] v_u  ->  dv_u += P[t,u] dA_t
                            dQkv[vi + e] += pu * dA[gi + e];
                        }
                        dp[u] = g;
                        dot += pu * g;
                    }
                    int qi = base + ti * row + qo;
                    for (int u = 0; u < lim; u++) {
                        // P = softmax(s)  ->  ds = P (dP - sum P dP); s = q.k scale
                        float ds = (float) (probs[pr + u] * (dp[u] - dot) * scale);
                        int ki = base + u * row + ko;
                        for (int e = 0; e < dh; e++) {
                            dQkv[qi + e] += ds * qkv[ki + e];
                        }
                        for (int e = 0; e < dh; e++) {
                            dQkv[ki + e] += ds * qkv[qi + e];
                        }
                    }
                }
            }
        }
    }

    /**
     * sum_e x[i + e] y[j + e] for e < n, with four independent partial sums (the single-accumulator loop is bound by
     * the add latency at these lengths).
     */
    static double dot(float[] x, int i, float[] y, int j, int n) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int e = 0;
        for (; e + 3 < n; e += 4) {
            double x0 = x[i + e];
            double x1 = x[i + e + 1];
            double x2 = x[i + e + 2];
            double x3 = x[i + e + 3];
            s0 += x0 * y[j + e];
            s1 += x1 * y[j + e + 1];
            s2 += x2 * y[j + e + 2];
            s3 += x3 * y[j + e + 3];
        }
        for (; e < n; e++) {
            double x0 = x[i + e];
            s0 += x0 * y[j + e];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
