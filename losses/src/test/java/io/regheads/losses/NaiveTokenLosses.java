package io.regheads.losses;

import io.regheads.core.head.Targets;
import java.util.ArrayList;
import java.util.List;

/**
 * Naive reference for the token losses (test code), straight from their definitions (q = softmax over the number
 * tokens only, v = token values, y = label value): CE {@code -log p_t}; NTL-MSE/MAE/Huber {@code f(sum_j q_j v_j -
 * y)}; NTL-WAS {@code sum_j q_j |y - v_j|}; NTL-WAS-CDF {@code sum_i |Q_i - R_i| dv_i} over the sorted values; GCE
 * {@code -sum_j r_j log p_j} with {@code r_j ~ exp(-(v_j - y)^2 / (2 sigma^2))} over the number tokens. Plain loops
 * over {@code double[B][T][V]}, full recomputation, no shared code with the optimised path. Values only; gradients
 * are checked by finite differences.
 */
final class NaiveTokenLosses {
    enum Kind { CE, GCE, MSE, MAE, HUBER, WAS, WAS_CDF_POINT, WAS_CDF_GAUSS }

    private NaiveTokenLosses() {}

    /**
     * @param param sigma for GCE / WAS_CDF_GAUSS, delta for HUBER
     * @param mask  null or [B][T][V] true = valid
     */
    static double value(Kind kind, double param, double[][][] z, double[] tokenValues, boolean[][][] mask,
                        int[] tokens, double[] values, double[] positionWeights) {
        int b = z.length;
        int t = z[0].length;
        int v = z[0][0].length;
        double num = 0;
        double den = 0;
        for (int i = 0; i < b; i++) {
            for (int p = 0; p < t; p++) {
                int row = i * t + p;
                int tok = tokens[row];
                if (tok == Targets.IGNORE) {
                    continue;
                }
                double y = values != null ? values[row] : tokenValues[tok];
                double w = positionWeights == null ? 1 : positionWeights[p];
                boolean[] ok = new boolean[v];
                for (int j = 0; j < v; j++) {
                    ok[j] = mask == null || mask[i][p][j];
                }
                double l;
                if (kind == Kind.CE || kind == Kind.GCE) {
                    // full softmax over valid tokens, via sum of exp (small logits in tests)
                    double s = 0;
                    for (int j = 0; j < v; j++) {
                        if (ok[j]) {
                            s += Math.exp(z[i][p][j]);
                        }
                    }
                    if (kind == Kind.GCE && !Double.isNaN(y)) {
                        double rs = 0;
                        double[] r = new double[v];
                        for (int j = 0; j < v; j++) {
                            if (ok[j] && Double.isFinite(tokenValues[j])) {
                                r[j] = Math.exp(-Math.pow(tokenValues[j] - y, 2) / (2 * param * param));
                                rs += r[j];
                            }
                        }
                        l = 0;
                        for (int j = 0; j < v; j++) {
                            l -= r[j] / rs * Math.log(ok[j] ? Math.exp(z[i][p][j]) / s : 1);
                        }
                    } else {
                        l = -Math.log(Math.exp(z[i][p][tok]) / s);
                    }
                } else {
                    if (Double.isNaN(y)) {
                        continue;
                    }
                    // restricted softmax over valid number tokens, sorted by value
                    List<double[]> nums = new ArrayList<>(); // {value, prob-unnormalised}
                    double s = 0;
                    for (int j = 0; j < v; j++) {
                        if (ok[j] && Double.isFinite(tokenValues[j])) {
                            nums.add(new double[] {tokenValues[j], Math.exp(z[i][p][j])});
                            s += Math.exp(z[i][p][j]);
                        }
                    }
                    nums.sort((x1, x2) -> Double.compare(x1[0], x2[0]));
                    int n = nums.size();
                    double[] q = new double[n];
                    double[] vals = new double[n];
                    for (int k = 0; k < n; k++) {
                        vals[k] = nums.get(k)[0];
                        q[k] = nums.get(k)[1] / s;
                    }
                    double yHat = 0;
                    for (int k = 0; k < n; k++) {
                        yHat += q[k] * vals[k];
                    }
                    double r = yHat - y;
                    switch (kind) {
                        case MSE -> l = r * r;
                        case MAE -> l = Math.abs(r);
                        case HUBER -> l = Math.abs(r) < param ? 0.5 * r * r : param * (Math.abs(r) - 0.5 * param);
                        case WAS -> {
                            l = 0;
                            for (int k = 0; k < n; k++) {
                                l += q[k] * Math.abs(y - vals[k]);
                            }
                        }
                        default -> {
                            double[] target = new double[n];
                            if (kind == Kind.WAS_CDF_POINT) {
                                int best = 0;
                                for (int k = 1; k < n; k++) {
                                    if (Math.abs(vals[k] - y) < Math.abs(vals[best] - y)) {
                                        best = k;
                                    }
                                }
                                target[best] = 1;
                            } else {
                                double ts = 0;
                                for (int k = 0; k < n; k++) {
                                    target[k] = Math.exp(-Math.pow(vals[k] - y, 2) / (2 * param * param));
                                    ts += target[k];
                                }
                                for (int k = 0; k < n; k++) {
                                    target[k] /= ts;
                                }
                            }
                            l = 0;
                            for (int k = 0; k < n - 1; k++) {
                                double cq = 0;
                                double cr = 0;
                                for (int u = 0; u <= k; u++) {
                                    cq += q[u];
                                    cr += target[u];
                                }
                                l += Math.abs(cq - cr) * (vals[k + 1] - vals[k]);
                            }
                        }
                    }
                }
                num += w * l;
                den += w;
            }
        }
        return den == 0 ? 0 : num / den;
    }
}
