package io.regheads.core.dist;

import io.regheads.core.check.Checks;
import java.util.Locale;

/**
 * A user's cost of predicting {@code yHat} when {@code y} happens, and the point that minimises its expectation under
 * a predictive distribution ({@link PredictiveDistribution#point(PointLoss)}), after the Bayes-optimal decision rule:
 *
 * <table>
 *   <caption>Costs and their optimal points</caption>
 *   <tr><th>loss</th><th>{@code cost(yHat, y)}</th><th>optimal point</th></tr>
 *   <tr><td>{@link #squared()} ({@code mse})</td><td>{@code (yHat - y)^2}</td><td>the mean</td></tr>
 *   <tr><td>{@link #absolute()} ({@code mae})</td><td>{@code |yHat - y|}</td><td>the median</td></tr>
 *   <tr><td>{@link #pinball(double)} ({@code pinball:tau})</td><td>{@code (1{y < yHat} - tau)(yHat - y)}</td>
 *       <td>the tau quantile</td></tr>
 *   <tr><td>{@link #asymmetricLinear(double, double)} ({@code linlin:under,over})</td>
 *       <td>{@code under (y - yHat)} if {@code y > yHat}, else {@code over (yHat - y)}</td>
 *       <td>the {@code under / (under + over)} quantile</td></tr>
 *   <tr><td>{@link #absolutePercentage()} ({@code mape})</td><td>{@code |yHat - y| / |y|}</td>
 *       <td>the median of the distribution reweighted by {@code 1 / |y|}</td></tr>
 *   <tr><td>{@link #linex(double)} ({@code linex:a})</td><td>{@code exp(a (yHat - y)) - a (yHat - y) - 1}</td>
 *       <td>{@code -log E[exp(-a Y)] / a}</td></tr>
 * </table>
 *
 * <p>The first four use the distribution's own {@code mean()} and quantiles. The last two integrate over the quantile
 * function, {@code E[g(Y)] = int g(Q(Phi(z))) phi(z) dz}, by the trapezoid rule in z on 1025 nodes of step 1/64 over
 * [-8, 8] (levels from 6e-16 to 1 - 6e-16; smooth in z for Gaussian and exponential tails alike, so for N(10, 1) the
 * LINEX point is exact to 1e-13 and the MAPE point to 3e-8), and refuse, with a one-line {@link
 * IllegalArgumentException} naming the row, where the answer does not exist:
 * <ul>
 *   <li>{@code mape} needs {@code E[1/|Y|] < infinity}, which fails with any mass at 0 and with any positive density
 *       at 0 (the integral of {@code p(y)/|y|} diverges like {@code 2 p(0) log(1/r)} as the resolution r around 0
 *       shrinks). A row is refused where a quantile node is exactly 0 (mass at 0) or where {@code p(0) > 1e-6
 *       E[1/|Y|]}; below that, resolving 0 down to the smallest double would add at most 0.3% to the weighted mass
 *       ({@code 2 p(0) log(1e308 / 1e-308)}), and the density at 0 is treated as zero.</li>
 *   <li>{@code linex} needs {@code E[exp(-a Y)] < infinity} (an exponential tail of scale b gives infinity where
 *       {@code a b >= 1}); a row is refused where an outermost node carries more than 1e-6 of that expectation (the
 *       part beyond the quadrature is then not negligible).</li>
 * </ul>
 *
 * <p>Example: for N(10, 1), squared and absolute give 10, pinball(0.9) and asymmetricLinear(9, 1) 11.2816, mape
 * 9.8983 (the median of the density reweighted by 1/y, by SciPy quadrature; about {@code 10 - 1/10} to first
 * order), linex(0.5) {@code 10 - 0.5 * 1 / 2 = 9.75}. For N(5, 1) mape is refused: its density at 0, 1.5e-6, is
 * above 1e-6 E[1/Y] = 2.1e-7.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface PointLoss permits PointLoss.Squared, PointLoss.Absolute, PointLoss.Pinball,
        PointLoss.AsymmetricLinear, PointLoss.AbsolutePercentage, PointLoss.Linex {

    /** The cost of predicting yHat when y happens (see the class table). */
    double cost(double yHat, double y);

    /**
     * The point of each row that minimises {@code E[cost(yHat, Y)]} under {@code d}.
     *
     * @return {@code [B]}
     * @throws IllegalArgumentException naming the row where the optimum does not exist (see the class description)
     */
    double[] optimum(PredictiveDistribution d);

    /** The label {@link #parse} reads back: {@code mse}, {@code mae}, {@code pinball:0.9}, ... */
    String label();

    /** {@code (yHat - y)^2}: the mean. */
    static PointLoss squared() {
        return new Squared();
    }

    /** {@code |yHat - y|}: the median. */
    static PointLoss absolute() {
        return new Absolute();
    }

    /**
     * The pinball loss at tau: the tau quantile.
     *
     * @param tau in (0, 1)
     * @throws IllegalArgumentException unless tau is in (0, 1)
     */
    static PointLoss pinball(double tau) {
        return new Pinball(tau);
    }

    /**
     * Cost {@code under} per unit of under-prediction and {@code over} per unit of over-prediction: the {@code under
     * / (under + over)} quantile.
     *
     * @throws IllegalArgumentException unless both are > 0 and finite
     */
    static PointLoss asymmetricLinear(double under, double over) {
        return new AsymmetricLinear(under, over);
    }

    /** {@code |yHat - y| / |y|}: the 1/|y|-weighted median (see the class description for when it exists). */
    static PointLoss absolutePercentage() {
        return new AbsolutePercentage();
    }

    /**
     * The LINEX cost {@code exp(a d) - a d - 1}, {@code d = yHat - y}: over-prediction costs exponentially for a &gt; 0,
     * under-prediction for a &lt; 0.
     *
     * @param a non-zero and finite, in 1 / (units of y)
     * @throws IllegalArgumentException unless a is non-zero and finite
     */
    static PointLoss linex(double a) {
        return new Linex(a);
    }

    /**
     * Reads a label: {@code mse}, {@code mae}, {@code mape}, {@code pinball:<tau>}, {@code linlin:<under>,<over>},
     * {@code linex:<a>} (case and spaces ignored).
     *
     * @throws IllegalArgumentException naming the label and the known forms
     */
    static PointLoss parse(String label) {
        Checks.require(label != null && !label.isBlank(), "point loss must be one of mse, mae, mape, pinball:<tau>, "
                + "linlin:<under>,<over>, linex:<a>, got '%s'", label);
        String l = label.strip().toLowerCase(Locale.ROOT).replace(" ", "");
        int colon = l.indexOf(':');
        String name = colon < 0 ? l : l.substring(0, colon);
        String[] args = colon < 0 ? new String[0] : l.substring(colon + 1).split(",", -1);
        int arity = switch (name) {
            case "mse", "mae", "mape" -> 0;
            case "pinball", "linex" -> 1;
            case "linlin" -> 2;
            default -> throw new IllegalArgumentException("point loss must be one of mse, mae, mape, pinball:<tau>, "
                    + "linlin:<under>,<over>, linex:<a>, got '" + label + "'");
        };
        Checks.require(args.length == arity, "point loss %s takes %d number(s), got '%s'", name, arity, label);
        double[] v = new double[arity];
        for (int i = 0; i < arity; i++) {
            try {
                v[i] = Double.parseDouble(args[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("point loss '" + label + "' has '" + args[i]
                        + "' where a number belongs");
            }
        }
        return switch (name) {
            case "mse" -> squared();
            case "mae" -> absolute();
            case "mape" -> absolutePercentage();
            case "pinball" -> pinball(v[0]);
            case "linex" -> linex(v[0]);
            default -> asymmetricLinear(v[0], v[1]);
        };
    }

    /** Squared error; optimum: the mean. */
    record Squared() implements PointLoss {
        @Override
        public double cost(double yHat, double y) {
            return (yHat - y) * (yHat - y);
        }

        @Override
        public double[] optimum(PredictiveDistribution d) {
            return d.mean();
        }

        @Override
        public String label() {
            return "mse";
        }
    }

    /** Absolute error; optimum: the median. */
    record Absolute() implements PointLoss {
        @Override
        public double cost(double yHat, double y) {
            return Math.abs(yHat - y);
        }

        @Override
        public double[] optimum(PredictiveDistribution d) {
            return d.median();
        }

        @Override
        public String label() {
            return "mae";
        }
    }

    /**
     * Pinball loss at tau; optimum: the tau quantile.
     *
     * @param tau in (0, 1)
     */
    record Pinball(double tau) implements PointLoss {
        /** @throws IllegalArgumentException unless tau is in (0, 1) */
        public Pinball {
            Checks.require(tau > 0 && tau < 1, "pinball tau must be in (0, 1), got %s", tau);
        }

        @Override
        public double cost(double yHat, double y) {
            return ((y < yHat ? 1 : 0) - tau) * (yHat - y);
        }

        @Override
        public double[] optimum(PredictiveDistribution d) {
            return d.inverseCumulativeProbability(tau);
        }

        @Override
        public String label() {
            return "pinball:" + tau;
        }
    }

    /**
     * Asymmetric linear cost; optimum: the {@code under / (under + over)} quantile.
     *
     * @param under cost per unit of under-prediction ({@code y > yHat}), > 0 and finite
     * @param over  cost per unit of over-prediction, > 0 and finite
     */
    record AsymmetricLinear(double under, double over) implements PointLoss {
        /** @throws IllegalArgumentException unless both costs are > 0 and finite */
        public AsymmetricLinear {
            Checks.positive("under", under);
            Checks.positive("over", over);
        }

        @Override
        public double cost(double yHat, double y) {
            return y > yHat ? under * (y - yHat) : over * (yHat - y);
        }

        @Override
        public double[] optimum(PredictiveDistribution d) {
            return d.inverseCumulativeProbability(under / (under + over));
        }

        @Override
        public String label() {
            return "linlin:" + under + "," + over;
        }
    }

    /** Absolute percentage error; optimum: the 1/|y|-weighted median, refused where it does not exist. */
    record AbsolutePercentage() implements PointLoss {
        /** The largest density at 0, relative to {@code E[1/|Y|]}, treated as zero (see the class description). */
        public static final double ZERO_DENSITY = 1e-6;

        @Override
        public double cost(double yHat, double y) {
            return y == 0 ? (yHat == 0 ? 0 : Double.POSITIVE_INFINITY) : Math.abs(yHat - y) / Math.abs(y);
        }

        @Override
        public double[] optimum(PredictiveDistribution d) {
            QuantileQuadrature g = QuantileQuadrature.standard();
            double[][] q = d.quantiles(g.nodes()); // [cells][B]
            double[] zero = new double[d.batchSize()];
            double[] density0 = d.logDensity(zero);
            double[] out = new double[zero.length];
            double[] w = new double[g.size()];
            for (int b = 0; b < out.length; b++) {
                double total = 0;
                double zeroAt = Double.NaN; // the level of a node whose quantile is exactly 0
                for (int c = 0; c < w.length; c++) {
                    double y = q[c][b];
                    w[c] = y == 0 ? 0 : g.width(c) / Math.abs(y);
                    zeroAt = y == 0 ? g.node(c) : zeroAt;
                    total += w[c];
                }
                double p0 = Math.exp(density0[b]);
                Checks.require(p0 <= ZERO_DENSITY * total && total < Double.POSITIVE_INFINITY, "mape: row %d has density "
                        + "%.3g at 0, which makes E[1/|Y|] infinite (above %.0e E[1/|Y|] = %.3g on the grid): no point "
                        + "minimises the expected absolute percentage error", b, p0, ZERO_DENSITY, ZERO_DENSITY * total);
                if (!Double.isNaN(zeroAt)) { // explicit test: the message is built only when it is thrown
                    throw new IllegalArgumentException("mape: row " + b + " has probability mass at 0 (its " + zeroAt
                            + " quantile is 0), so E[|yHat - Y| / |Y|] is infinite for every yHat != 0");
                }
                out[b] = g.weightedMedian(q, b, w, total);
            }
            return out;
        }

        @Override
        public String label() {
            return "mape";
        }
    }

    /**
     * LINEX cost with rate a; optimum {@code -log E[exp(-a Y)] / a}, refused where that expectation is infinite or
     * held by the far tail.
     *
     * @param a non-zero and finite
     */
    record Linex(double a) implements PointLoss {
        /** The largest share of {@code E[exp(-a Y)]} the outermost tail cell may hold. */
        public static final double TAIL_SHARE = 1e-6;

        /** @throws IllegalArgumentException unless a is non-zero and finite */
        public Linex {
            Checks.require(a != 0 && Double.isFinite(a), "linex a must be non-zero and finite, got %s", a);
        }

        @Override
        public double cost(double yHat, double y) {
            double d = a * (yHat - y);
            return Math.expm1(d) - d;
        }

        @Override
        public double[] optimum(PredictiveDistribution d) {
            QuantileQuadrature g = QuantileQuadrature.standard();
            double[][] q = d.quantiles(g.nodes()); // [cells][B]
            double[] out = new double[d.batchSize()];
            for (int b = 0; b < out.length; b++) {
                double max = Double.NEGATIVE_INFINITY;
                for (int c = 0; c < g.size(); c++) {
                    max = Math.max(max, -a * q[c][b]);
                }
                double sum = 0;
                for (int c = 0; c < g.size(); c++) {
                    sum += g.width(c) * Math.exp(-a * q[c][b] - max);
                }
                double far = Math.max(g.width(0) * Math.exp(-a * q[0][b] - max),
                        g.width(g.size() - 1) * Math.exp(-a * q[g.size() - 1][b] - max));
                Checks.require(Double.isFinite(max) && far <= TAIL_SHARE * sum, "linex: row %d: E[exp(-a Y)] with a = %s"
                        + " is held by the far tail (beyond the %.1e quantile) or infinite: no point minimises the "
                        + "expected LINEX cost", b, a, g.node(0));
                out[b] = -(max + Math.log(sum)) / a;
            }
            return out;
        }

        @Override
        public String label() {
            return "linex:" + a;
        }
    }
}
