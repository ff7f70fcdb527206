package io.regheads.core.dist;

import io.regheads.core.internal.StdNormal;

/**
 * Nodes and weights for expectations over a quantile function, {@code E[g(Y)] = int_0^1 g(Q(tau)) dtau = int g(Q(Phi(z)))
 * phi(z) dz}: the trapezoid rule in z on {@code z_i = -8 + i / 64}, i = 0..1024, so {@code tau_i = Phi(z_i)} and
 * {@code w_i = phi(z_i) / 64}. In z the integrand is smooth for Gaussian and exponential tails alike (an exponential
 * tail's {@code Q(Phi(z))} grows like {@code b z^2 / 2}), so the rule converges fast (for N(10, 1): {@code E[exp(-Y /
 * 2)]} to 1e-14 relative, the 1/y-weighted median to 3e-8); the levels beyond {@code Phi(-8) = 6.2e-16} on either side
 * are left out. Nodes are in increasing order of level, so a distribution's node quantiles are non-decreasing.
 *
 * <p>Package-private helper of {@link PointLoss}; immutable and thread-safe.
 */
final class QuantileQuadrature {
    static final double Z_MAX = 8;
    static final int PER_UNIT = 64;
    private static final QuantileQuadrature STANDARD = new QuantileQuadrature();

    private final double[] z; // [C]
    private final double[] level; // [C] Phi(z)
    private final double[] weight; // [C] phi(z) dz

    private QuantileQuadrature() {
        int n = (int) (2 * Z_MAX * PER_UNIT) + 1;
        z = new double[n];
        level = new double[n];
        weight = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = -Z_MAX + (double) i / PER_UNIT;
            level[i] = StdNormal.cdf(z[i]);
            weight[i] = StdNormal.pdf(z[i]) / PER_UNIT;
        }
    }

    static QuantileQuadrature standard() {
        return STANDARD;
    }

    int size() {
        return z.length;
    }

    /** A copy of the node levels, increasing. */
    double[] nodes() {
        return level.clone();
    }

    double node(int c) {
        return level[c];
    }

    double width(int c) {
        return weight[c];
    }

    /**
     * The median of row b reweighted by {@code w} ({@code w_c}: node c's weight times its factor, summing to {@code
     * total}): the z where the trapezoid cumulative {@code C_c = sum_{i < c} w_i + w_c / 2} crosses half, interpolated
     * linearly between nodes, and the quantile there interpolated linearly in z between the nodes' quantiles {@code
     * q[c][b]}.
     */
    double weightedMedian(double[][] q, int b, double[] w, double total) {
        double half = 0.5 * total;
        double before = 0; // C_{c-1}
        double cum = 0.5 * w[0]; // C_c
        int c = 0;
        while (c < w.length - 1 && cum < half) {
            before = cum;
            cum += 0.5 * (w[c] + w[c + 1]);
            c++;
        }
        if (c == 0 || cum <= before) {
            return q[c][b];
        }
        double t = Math.min(1, Math.max(0, (half - before) / (cum - before)));
        return q[c - 1][b] + t * (q[c][b] - q[c - 1][b]);
    }
}
