package io.regheads.losses;

import org.apache.commons.numbers.gamma.Erf;

/**
 * Closed forms on one Gaussian mixture {@code p(t) = sum_m pi_m N(t; mu_m, s_m^2)}, {@code pi = softmax(a)}, with
 * gradients with respect to {@code a} (weight logits), {@code mu} and {@code s}. Each method returns the loss of one
 * example and <em>adds</em> {@code scale *} its gradient into {@link Gradients} {@code da, dMu, dS}. The example's
 * {@link Parameters} and its gradients travel as two small records. Package-private, stateless.
 */
final class Mixture {
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
    private static final double INV_SQRT_2PI = 1.0 / Math.sqrt(2 * Math.PI);
    private static final double INV_SQRT_PI = 1.0 / Math.sqrt(Math.PI);

    private Mixture() {}

    /**
     * One example's mixture, K components.
     *
     * @param a  {@code [K]} weight logits
     * @param mu {@code [K]} means
     * @param s  {@code [K]} standard deviations, > 0
     */
    record Parameters(double[] a, double[] mu, double[] s) {}

    /**
     * Where one example's gradient is added ({@code +=}), mirroring {@link Parameters}.
     *
     * @param da  {@code [K]} d loss / d a
     * @param dMu {@code [K]} d loss / d mu
     * @param dS  {@code [K]} d loss / d s
     */
    record Gradients(double[] da, double[] dMu, double[] dS) {}

    /** {@code pi = softmax(a)} into {@code pi}. */
    static void weights(double[] a, double[] pi) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : a) {
            max = Math.max(max, v);
        }
        double sum = 0;
        for (int m = 0; m < a.length; m++) {
            pi[m] = Math.exp(a[m] - max);
            sum += pi[m];
        }
        for (int m = 0; m < a.length; m++) {
            pi[m] /= sum;
        }
    }

    /**
     * NLL {@code -log p(y) = -logsumexp_m(a_m - lse(a) - log s_m - z_m^2/2 - log sqrt(2 pi))}, {@code z = (y -
     * mu)/s}; stable for y far from every mean. With responsibilities {@code g_m = pi_m N_m(y) / p(y)}: {@code d/da_m
     * = pi_m - g_m}, {@code d/dmu_m = -g_m z_m / s_m}, {@code d/ds_m = g_m (1 - z_m^2) / s_m}.
     */
    static double nll(Parameters p, double y, double scale, Gradients g) {
        double[] a = p.a();
        double[] mu = p.mu();
        double[] s = p.s();
        double[] ga = g.da();
        double[] gm = g.dMu();
        double[] gs = g.dS();
        int k = a.length;
        double amax = Double.NEGATIVE_INFINITY;
        for (double v : a) {
            amax = Math.max(amax, v);
        }
        double asum = 0;
        for (double v : a) {
            asum += Math.exp(v - amax);
        }
        double lseA = amax + Math.log(asum);
        double[] l = new double[k];
        double lmax = Double.NEGATIVE_INFINITY;
        for (int m = 0; m < k; m++) {
            double z = (y - mu[m]) / s[m];
            l[m] = a[m] - lseA - Math.log(s[m]) - 0.5 * z * z - LOG_SQRT_2PI;
            lmax = Math.max(lmax, l[m]);
        }
        double lsum = 0;
        for (int m = 0; m < k; m++) {
            lsum += Math.exp(l[m] - lmax);
        }
        double logP = lmax + Math.log(lsum);
        for (int m = 0; m < k; m++) {
            double r = Math.exp(l[m] - logP); // the responsibility g_m
            double pi = Math.exp(a[m] - lseA);
            double z = (y - mu[m]) / s[m];
            ga[m] += scale * (pi - r);
            gm[m] += scale * (-r * z / s[m]);
            gs[m] += scale * (r * (1 - z * z) / s[m]);
        }
        return -logP;
    }

    /**
     * GCE {@code -E_{t ~ N(y, sigma^2)} log p(t) ~= -pi^(-1/2) sum_i w_i log p(y + sqrt(2) sigma x_i)}
     * (Gauss-Hermite); the gradient is the same weighted sum of NLL gradients.
     */
    static double gce(Parameters p, double y, double sigma, GaussHermite rule, double scale, Gradients g) {
        double[] x = rule.nodes();
        double[] w = rule.weights();
        double total = 0;
        for (int i = 0; i < x.length; i++) {
            double c = w[i] * INV_SQRT_PI;
            total += c * nll(p, y + Math.sqrt(2) * sigma * x[i], scale * c, g);
        }
        return total;
    }

    /** {@code E[Y] = sum_m pi_m mu_m}. */
    static double mean(double[] pi, double[] mu) {
        double e = 0;
        for (int m = 0; m < pi.length; m++) {
            e += pi[m] * mu[m];
        }
        return e;
    }

    /**
     * Adds {@code scale * d E[Y]}: {@code d/da_m = pi_m (mu_m - E[Y])}, {@code d/dmu_m = pi_m}.
     */
    static void addMeanGradient(double[] pi, double[] mu, double mean, double scale, double[] ga, double[] gm) {
        for (int m = 0; m < pi.length; m++) {
            ga[m] += scale * pi[m] * (mu[m] - mean);
            gm[m] += scale * pi[m];
        }
    }

    /**
     * {@code E|Y - y| = sum_m pi_m c_m}, {@code c_m = s_m 2 phi(z_m) + (mu_m - y)(2 Phi(z_m) - 1)}, {@code z_m =
     * (mu_m - y) / s_m}; {@code dc/dmu = 2 Phi(z) - 1}, {@code dc/ds = 2 phi(z)}, {@code d/da_m = pi_m (c_m - E)}.
     */
    static double absoluteDeviation(Parameters p, double y, double scale, Gradients g) {
        double[] a = p.a();
        double[] mu = p.mu();
        double[] s = p.s();
        double[] ga = g.da();
        double[] gm = g.dMu();
        double[] gs = g.dS();
        int k = a.length;
        double[] pi = new double[k];
        weights(a, pi);
        double[] c = new double[k];
        double e = 0;
        for (int m = 0; m < k; m++) {
            double z = (mu[m] - y) / s[m];
            double phi = INV_SQRT_2PI * Math.exp(-0.5 * z * z);
            double twoPhiMinus1 = Erf.value(z / Math.sqrt(2)); // 2 Phi(z) - 1
            c[m] = s[m] * 2 * phi + (mu[m] - y) * twoPhiMinus1;
            e += pi[m] * c[m];
            gm[m] += scale * pi[m] * twoPhiMinus1;
            gs[m] += scale * pi[m] * 2 * phi;
        }
        for (int m = 0; m < k; m++) {
            ga[m] += scale * pi[m] * (c[m] - e);
        }
        return e;
    }
}
