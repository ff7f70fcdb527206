package io.regheads.losses;

import io.regheads.core.check.Checks;

/**
 * Gauss-Hermite quadrature: nodes {@code x_i} and weights {@code w_i} with {@code int exp(-x^2) f(x) dx ~= sum_i
 * w_i f(x_i)}, exact for polynomials of degree up to {@code 2n - 1}. Used for {@code E_{t ~ N(y, s^2)} g(t) ~=
 * pi^(-1/2) sum_i w_i g(y + sqrt(2) s x_i)}.
 *
 * <p>The nodes are the roots of the Hermite polynomial {@code H_n}, found by Newton's method on the orthonormal
 * recurrence {@code h_j(x) = x sqrt(2/j) h_{j-1}(x) - sqrt((j-1)/j) h_{j-2}(x)}, {@code h_0 = pi^(-1/4)}, from
 * the classical asymptotic starting guesses (largest root first); the weight is {@code 2 / h_n'(x_i)^2} with
 * {@code h_n' = sqrt(2n) h_{n-1}}. Example, n = 3: nodes {@code 0, +-sqrt(3/2)}, weights {@code 2 sqrt(pi)/3,
 * sqrt(pi)/6}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param nodes   ascending roots of {@code H_n}
 * @param weights matching weights, summing to {@code sqrt(pi)}
 */
record GaussHermite(double[] nodes, double[] weights) {

    /** Largest supported order (beyond it the weights underflow double precision). */
    static final int MAX_ORDER = 150;

    /**
     * The n-point rule.
     *
     * @param n order in [1, {@value #MAX_ORDER}]
     * @throws IllegalArgumentException if n is out of range or Newton's method fails to converge
     */
    static GaussHermite of(int n) {
        Checks.inRange("n", n, 1, MAX_ORDER);
        double[] x = new double[n];
        double[] w = new double[n];
        int half = (n + 1) / 2;
        double z = 0;
        for (int i = 0; i < half; i++) {
            if (i == 0) {
                z = Math.sqrt(2.0 * n + 1) - 1.85575 * Math.pow(2.0 * n + 1, -1.0 / 6);
            } else if (i == 1) {
                z -= 1.14 * Math.pow(n, 0.426) / z;
            } else if (i == 2) {
                z = 1.86 * z - 0.86 * x[0];
            } else if (i == 3) {
                z = 1.91 * z - 0.91 * x[1];
            } else {
                z = 2.0 * z - x[i - 2];
            }
            double derivative = 0;
            boolean converged = false;
            for (int iter = 0; iter < 100 && !converged; iter++) {
                double p1 = Math.pow(Math.PI, -0.25);
                double p2 = 0;
                for (int j = 1; j <= n; j++) {
                    double p3 = p2;
                    p2 = p1;
                    p1 = z * Math.sqrt(2.0 / j) * p2 - Math.sqrt((j - 1.0) / j) * p3;
                }
                derivative = Math.sqrt(2.0 * n) * p2;
                double step = p1 / derivative;
                z -= step;
                converged = Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(z));
            }
            Checks.require(converged, "Gauss-Hermite Newton iteration did not converge for n = %d, root %d", n, i);
            x[i] = z;
            w[i] = 2.0 / (derivative * derivative);
        }
        // x[0..half) descend from the largest root; mirror into ascending order
        double[] nodes = new double[n];
        double[] weights = new double[n];
        for (int i = 0; i < half; i++) {
            nodes[n - 1 - i] = x[i];
            nodes[i] = -x[i];
            weights[n - 1 - i] = w[i];
            weights[i] = w[i];
        }
        if (n % 2 == 1) {
            nodes[n / 2] = 0.0;
        }
        return new GaussHermite(nodes, weights);
    }
}
