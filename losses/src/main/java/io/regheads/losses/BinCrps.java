package io.regheads.losses;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.internal.StdNormal;

/**
 * The CRPS of one histogram (bins of {@link TokenLogits.Bins}, probabilities p) at y, with its gradient with respect
 * to p, in O(V):
 * <pre>
 *   CRPS = int_{z &lt; y} F(z)^2 dz + int_{z > y} S(z)^2 dz,   F = sum_j p_j C_j,  S = sum_j p_j (1 - C_j)
 *   d CRPS / d p_k = 2 int_{z &lt; y} F C_k dz + 2 int_{z > y} S (1 - C_k) dz
 * </pre>
 * with C_j bin j's component cdf. In bin i, {@code F = P_i + p_i C_i} and {@code S = R_i + p_i (1 - C_i)} with the
 * prefix and suffix sums {@code P_i = sum_{j < i} p_j}, {@code R_i = sum_{j > i} p_j} (no {@code 1 - F}
 * cancellation), and {@code C_k = 1} in bins above k, 0 below; so with per-bin integrals {@code JL_i = int F}, {@code
 * KL_i = int F C_i} (left of y) and {@code JR_i = int S}, {@code KR_i = int S (1 - C_i)} (right of y): {@code d CRPS /
 * d p_k = 2 (KL_k + sum_{i > k} JL_i + KR_k + sum_{i &lt; k} JR_i)}. A uniform bin gives polynomials; a half-normal
 * tail (scale s, from the inner border, {@code C = 2 Phi(u)}, {@code u = (z - b_1) / s} for the left one) gives the
 * primitives {@code int Phi = u Phi + phi} and {@code int Phi^2 = u Phi^2 + 2 phi Phi - Phi(sqrt 2 u) / sqrt(pi)}.
 * Without tails, y below the first border adds {@code b_0 - y} (S = 1 there) and above the last {@code y - b_V}.
 * Package-private, stateless.
 */
final class BinCrps {
    private static final double INV_SQRT_PI = 1 / Math.sqrt(Math.PI);
    private static final double SQRT2 = Math.sqrt(2);

    private BinCrps() {}

    /**
     * CRPS of the histogram with probabilities {@code p[0, V)} at y; writes {@code d CRPS / d p} into {@code g} and
     * uses {@code jl, jr} as scratch {@code [V]}.
     */
    static double crps(TokenLogits.Bins bins, double[] p, double y, double[] g, double[] jl, double[] jr) {
        double[] e = bins.borders();
        int v = bins.count();
        double sL = bins.leftTailScale();
        double sR = bins.rightTailScale();
        double value = 0;
        double below = 0; // P_i
        double tail = 0;
        for (int j = v - 1; j >= 0; j--) { // g[i] := R_i, summed from the top (read in step i before g[i] is set)
            g[j] = tail;
            tail += p[j];
        }
        double outside = 0; // the part outside the borders without tails: (b_0 - y) or (y - b_V), S or F = 1 there
        if (y < e[0] && sL == 0) {
            outside = e[0] - y;
        } else if (y > e[v] && sR == 0) {
            outside = y - e[v];
        }
        for (int i = 0; i < v; i++) {
            double pi = p[i];
            double above = g[i];
            double kl;
            double kr;
            if (i == 0 && sL > 0) { // left tail: F = p_0 C, C = 2 Phi(u), u = (z - b_1) / s <= 0
                double uy = (y - e[1]) / sL;
                double uf = Math.min(uy, 0); // F region: u in (-inf, uf]
                double g1f = g1(uf);
                double g2f = g2(uf);
                value += 4 * sL * pi * pi * g2f;
                jl[i] = 2 * sL * pi * g1f;
                kl = 4 * sL * pi * g2f;
                if (uy < 0) { // S region u in [uy, 0]: S = c - 2 p_0 Phi(u), 1 - C = 1 - 2 Phi(u)
                    double c = above + pi;
                    double du = -uy;
                    double d1 = g1(0) - g1f;
                    double d2 = g2(0) - g2f;
                    value += sL * (c * c * du - 4 * c * pi * d1 + 4 * pi * pi * d2);
                    jr[i] = sL * (c * du - 2 * pi * d1);
                    kr = sL * (c * du - 2 * c * d1 - 2 * pi * d1 + 4 * pi * d2);
                } else {
                    jr[i] = 0;
                    kr = 0;
                }
            } else if (i == v - 1 && sR > 0) { // right tail, mirrored: S = p C', C' = 2 Phi(u), u = (b_{V-1} - z) / s
                double uy = (e[v - 1] - y) / sR;
                double uf = Math.min(uy, 0); // S region: u in (-inf, uf]
                double g1f = g1(uf);
                double g2f = g2(uf);
                value += 4 * sR * pi * pi * g2f;
                jr[i] = 2 * sR * pi * g1f;
                kr = 4 * sR * pi * g2f;
                if (uy < 0) { // F region: F = c - 2 p Phi(u), C = 1 - 2 Phi(u)
                    double c = below + pi;
                    double du = -uy;
                    double d1 = g1(0) - g1f;
                    double d2 = g2(0) - g2f;
                    value += sR * (c * c * du - 4 * c * pi * d1 + 4 * pi * pi * d2);
                    jl[i] = sR * (c * du - 2 * pi * d1);
                    kl = sR * (c * du - 2 * c * d1 - 2 * pi * d1 + 4 * pi * d2);
                } else {
                    jl[i] = 0;
                    kl = 0;
                }
            } else { // uniform on [a, a + w]: F = P + p t, S = R + p (1 - t), t = (z - a) / w
                double a = e[i];
                double w = e[i + 1] - a;
                double t = Math.min(1, Math.max(0, (y - a) / w)); // F on [0, t], S on [t, 1]
                double r = 1 - t;
                double t2 = t * t;
                double r2 = r * r;
                value += w * (below * below * t + below * pi * t2 + pi * pi * t2 * t / 3
                        + above * above * r + above * pi * r2 + pi * pi * r2 * r / 3);
                jl[i] = w * (below * t + 0.5 * pi * t2);
                kl = w * (0.5 * below * t2 + pi * t2 * t / 3);
                jr[i] = w * (above * r + 0.5 * pi * r2);
                kr = w * (0.5 * above * r2 + pi * r2 * r / 3);
            }
            g[i] = 2 * (kl + kr + outside);
            below += pi;
        }
        // add the sums over the other bins: sum_{i > k} JL_i and sum_{i < k} JR_i
        double suffix = 0;
        for (int k = v - 1; k >= 0; k--) {
            g[k] += 2 * suffix;
            suffix += jl[k];
        }
        double prefix = 0;
        for (int k = 0; k < v; k++) {
            g[k] += 2 * prefix;
            prefix += jr[k];
        }
        return value + outside;
    }

    /** {@code int_{-inf}^u Phi = u Phi(u) + phi(u)}. */
    private static double g1(double u) {
        return u * StdNormal.cdf(u) + StdNormal.pdf(u);
    }

    /** {@code int_{-inf}^u Phi^2 = u Phi^2 + 2 phi Phi - Phi(sqrt 2 u) / sqrt(pi)}. */
    private static double g2(double u) {
        double c = StdNormal.cdf(u);
        return u * c * c + 2 * StdNormal.pdf(u) * c - INV_SQRT_PI * StdNormal.cdf(SQRT2 * u);
    }
}
