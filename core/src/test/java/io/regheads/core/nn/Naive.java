package io.regheads.core.nn;

import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Naive plain-loop references for the optimised layers (test code): flat double arrays, c-order, written straight
 * from the formulas with no reuse of the production kernels.
 */
final class Naive {
    private Naive() {}

    static double[] flat(INDArray a) {
        return a.castTo(DataType.DOUBLE).dup('c').data().asDouble();
    }

    static INDArray array(double[] v, DataType type, long... shape) {
        return Nd4j.createFromArray(v).reshape('c', shape).castTo(type).dup('c');
    }

    /** y[n, o] = sum_i x[n, i] w[i, o] + b[o]. */
    static double[] linear(double[] x, double[] w, double[] b, int n, int in, int out) {
        double[] y = new double[n * out];
        for (int r = 0; r < n; r++) {
            for (int o = 0; o < out; o++) {
                double s = b[o];
                for (int i = 0; i < in; i++) {
                    s += x[r * in + i] * w[i * out + o];
                }
                y[r * out + o] = s;
            }
        }
        return y;
    }

    /** Layer norm over rows of width d with epsilon 1e-5. */
    static double[] layerNorm(double[] x, double[] gain, double[] bias, int d) {
        int n = x.length / d;
        double[] y = new double[x.length];
        for (int r = 0; r < n; r++) {
            double mean = 0;
            for (int j = 0; j < d; j++) {
                mean += x[r * d + j] / d;
            }
            double var = 0;
            for (int j = 0; j < d; j++) {
                var += (x[r * d + j] - mean) * (x[r * d + j] - mean) / d;
            }
            for (int j = 0; j < d; j++) {
                y[r * d + j] = (x[r * d + j] - mean) / Math.sqrt(var + 1e-5) * gain[j] + bias[j];
            }
        }
        return y;
    }

    static double geluTanh(double x) {
        return 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
    }

    /**
     * Causal multi-head attention core on q, k, v given as [B, T, d] each (heads = column blocks), additive mask
     * [T, T] (maskPerExample false) or [B, T, T], null for none. Returns a [B, T, d].
     */
    static double[] attention(double[] q, double[] k, double[] v, double[] mask, boolean maskPerExample, int b,
            int t, int d, int heads) {
        int dh = d / heads;
        double[] a = new double[b * t * d];
        for (int bi = 0; bi < b; bi++) {
            for (int h = 0; h < heads; h++) {
                for (int i = 0; i < t; i++) {
                    double[] s = new double[t];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int u = 0; u < t; u++) {
                        if (u > i) {
                            s[u] = Double.NEGATIVE_INFINITY;
                            continue;
                        }
                        double dot = 0;
                        for (int e = 0; e < dh; e++) {
                            dot += q[(bi * t + i) * d + h * dh + e] * k[(bi * t + u) * d + h * dh + e];
                        }
                        s[u] = dot / Math.sqrt(dh);
                        if (mask != null) {
                            s[u] += maskPerExample ? mask[(bi * t + i) * t + u] : mask[i * t + u];
                        }
                        max = Math.max(max, s[u]);
                    }
                    double z = 0;
                    for (int u = 0; u < t; u++) {
                        z += Math.exp(s[u] - max);
                    }
                    for (int e = 0; e < dh; e++) {
                        double acc = 0;
                        for (int u = 0; u < t; u++) {
                            acc += Math.exp(s[u] - max) / z * v[(bi * t + u) * d + h * dh + e];
                        }
                        a[(bi * t + i) * d + h * dh + e] = acc;
                    }
                }
            }
        }
        return a;
    }

    /** The full attention layer: fused qkv projection, core, output projection. x [B, T, d]. */
    static double[] attentionLayer(MultiHeadSelfAttention layer, double[] x, double[] mask, boolean perExample,
            int b, int t) {
        int d = layer.width();
        double[] qkv = linear(x, flat(layer.qkv().weight().value()), flat(layer.qkv().bias().value()), b * t, d,
                3 * d);
        double[] q = new double[b * t * d];
        double[] k = new double[b * t * d];
        double[] v = new double[b * t * d];
        for (int r = 0; r < b * t; r++) {
            for (int j = 0; j < d; j++) {
                q[r * d + j] = qkv[r * 3 * d + j];
                k[r * d + j] = qkv[r * 3 * d + d + j];
                v[r * d + j] = qkv[r * 3 * d + 2 * d + j];
            }
        }
        double[] a = attention(q, k, v, mask, perExample, b, t, d, layer.heads());
        return linear(a, flat(layer.out().weight().value()), flat(layer.out().bias().value()), b * t, d, d);
    }

    /** The full pre-LN block. */
    static double[] block(TransformerBlock blk, double[] x, double[] mask, boolean perExample, int b, int t) {
        int d = blk.config().d();
        int ff = blk.config().ff();
        double[] l1 = layerNorm(x, flat(blk.ln1().gain().value()), flat(blk.ln1().bias().value()), d);
        double[] at = attentionLayer(blk.attention(), l1, mask, perExample, b, t);
        double[] h = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            h[i] = x[i] + at[i];
        }
        double[] l2 = layerNorm(h, flat(blk.ln2().gain().value()), flat(blk.ln2().bias().value()), d);
        double[] f1 = linear(l2, flat(blk.fc1().weight().value()), flat(blk.fc1().bias().value()), b * t, d, ff);
        for (int i = 0; i < f1.length; i++) {
            f1[i] = blk.config().activation() == TransformerBlock.Activation.RELU ? Math.max(f1[i], 0) : geluTanh(f1[i]);
        }
        double[] f2 = linear(f1, flat(blk.fc2().weight().value()), flat(blk.fc2().bias().value()), b * t, ff, d);
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = h[i] + f2[i];
        }
        return y;
    }

    static double maxAbsDiff(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new AssertionError("lengths differ: " + a.length + " vs " + b.length);
        }
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            double diff = Math.abs(a[i] - b[i]);
            if (!(diff <= m)) {
                m = Double.isNaN(diff) ? Double.POSITIVE_INFINITY : diff;
            }
        }
        return m;
    }
}
