package io.regheads.losses;

import io.regheads.core.check.Checks;

/**
 * One number position of the Number Token Loss: the loss and {@code dz = dl/dz} over the n valid number tokens
 * (values {@code v} ascending, restricted softmax {@code q}, label value {@code y}). The formulas are in {@link
 * NumberTokenLoss}'s class comment; this file holds the three kernels (the dot-product form behind NTL-MSE/MAE/Huber,
 * NTL-WAS, NTL-WAS-CDF) and their forms on continuous outputs. Package-private.
 */
interface NtlKernel {
    double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work);

    String label();

    /** NTL-MSE / MAE / Huber: {@code f(sum_j q_j v_j - y)}. */
    static NtlKernel dotProduct(Penalty f) {
        Checks.notNull("penalty", f);
        return new NtlKernel() {
            @Override
            public double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work) {
                double yHat = 0;
                for (int j = 0; j < n; j++) {
                    yHat += q[j] * v[j];
                }
                double slope = f.slope(yHat - y);
                for (int j = 0; j < n; j++) {
                    dz[j] = slope * q[j] * (v[j] - yHat);
                }
                return f.value(yHat - y);
            }

            @Override
            public String label() {
                return "ntl-" + f.label();
            }
        };
    }

    /** The dot-product loss on a mixture or point output: {@code f(E[Y] - y)}. */
    static ContinuousForm dotProductForm(Penalty f) {
        return new ContinuousForm() {
            @Override
            public double mixture(Mixture.Parameters p, double y, double scale, Mixture.Gradients g) {
                double[] pi = new double[p.a().length];
                Mixture.weights(p.a(), pi);
                double mean = Mixture.mean(pi, p.mu());
                Mixture.addMeanGradient(pi, p.mu(), mean, scale * f.slope(mean - y), g.da(), g.dMu());
                return f.value(mean - y);
            }

            @Override
            public double scalar(double yHat, double y, double[] slope) {
                slope[0] = f.slope(yHat - y);
                return f.value(yHat - y);
            }
        };
    }

    /** NTL-WAS, the absolute-difference form: {@code sum_j q_j |y - v_j|}. */
    static NtlKernel wasserstein() {
        return new NtlKernel() {
            @Override
            public double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work) {
                double l = 0;
                for (int j = 0; j < n; j++) {
                    l += q[j] * Math.abs(y - v[j]);
                }
                for (int j = 0; j < n; j++) {
                    dz[j] = q[j] * (Math.abs(y - v[j]) - l);
                }
                return l;
            }

            @Override
            public String label() {
                return "ntl-was";
            }
        };
    }

    /** NTL-WAS-CDF against {@code target}: the 1-Wasserstein distance in value space. */
    static NtlKernel wassersteinCdf(TargetDistribution target) {
        Checks.notNull("target", target);
        return new NtlKernel() {
            @Override
            public double apply(double[] v, double[] q, int n, double y, double[] dz, double[] work) {
                // work: [0, n) target r, [n, 2n) g
                double[] r = work;
                target.fill(y, v, n, r);
                double mass = 0;
                for (int j = 0; j < n; j++) {
                    Checks.require(r[j] >= 0, "target distribution %s must be >= 0, got %s at %d",
                            target.label(), r[j], j);
                    mass += r[j];
                }
                Checks.require(Math.abs(mass - 1) <= 1e-9,
                        "target distribution %s must sum to 1, got %s", target.label(), mass);
                double cq = 0;
                double cr = 0;
                double l = 0;
                for (int i = 0; i < n - 1; i++) {
                    cq += q[i];
                    cr += r[i];
                    double gap = v[i + 1] - v[i];
                    l += Math.abs(cq - cr) * gap;
                    work[n + i] = Math.signum(cq - cr) * gap;
                }
                // g_k = sum_{k <= i < n-1} s_i (suffix sums), then dz_j = q_j (g_j - sum_k q_k g_k)
                double suffix = 0;
                double mean = 0;
                for (int j = n - 1; j >= 0; j--) {
                    if (j < n - 1) {
                        suffix += work[n + j];
                    }
                    dz[j] = suffix;
                    mean += q[j] * suffix;
                }
                for (int j = 0; j < n; j++) {
                    dz[j] = q[j] * (dz[j] - mean);
                }
                return l;
            }

            @Override
            public String label() {
                return "ntl-was-cdf(" + target.label() + ")";
            }
        };
    }

    /** NTL-WAS and NTL-WAS-CDF on a mixture or point output: {@code E|Y - y|}, the W1 distance to the point mass. */
    ContinuousForm ABSOLUTE_DEVIATION = new ContinuousForm() {
        @Override
        public double mixture(Mixture.Parameters p, double y, double scale, Mixture.Gradients g) {
            return Mixture.absoluteDeviation(p, y, scale, g);
        }

        @Override
        public double scalar(double yHat, double y, double[] slope) {
            slope[0] = Math.signum(yHat - y);
            return Math.abs(yHat - y);
        }
    };
}
