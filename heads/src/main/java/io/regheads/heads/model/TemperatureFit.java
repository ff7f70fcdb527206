package io.regheads.heads.model;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.Temperable;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import java.util.function.DoubleUnaryOperator;

/**
 * The temperature of a model's predictive distributions: a distribution at a temperature ({@link Temperable}) and
 * the fit of one on held-out rows ({@link RegressionModel#calibrateTemperature}): the minimiser of a scoring rule's
 * mean in y's units, by golden-section search on {@code log T} in [log 0.05, log 20] (tolerance 1e-4 in log T).
 * Stateless.
 */
final class TemperatureFit {
    private static final double LOWEST = 0.05;
    private static final double HIGHEST = 20;
    private static final double LOG_TOLERANCE = 1e-4;

    private TemperatureFit() {}

    /**
     * {@code d} at temperature t ({@link Temperable}); d itself at 1.
     *
     * @throws IllegalArgumentException if t is not 1 and d takes no temperature
     */
    static PredictiveDistribution tempered(PredictiveDistribution d, double t) {
        if (t == 1) {
            return d;
        }
        Checks.require(d instanceof Temperable, "a temperature needs a head whose distribution takes one (histogram, "
                + "mixture, pointwise, xVal), got %s", d.getClass().getSimpleName());
        return ((Temperable) d).tempered(t);
    }

    /**
     * The temperature that minimises the rule's mean score of {@code target.toY(tempered(base, T))} on {@code y}, or
     * {@code current} when the search finds none that scores lower than it.
     *
     * @param base    the head's distributions of the held-out rows in its own units, at temperature 1
     * @param head    the head that gave them (named when it takes no temperature)
     * @param target  the model's map from the head's units to y's
     * @param y       {@code [B]} the held-out targets, finite
     * @param rule    NLL or CRPS
     * @param current the temperature the model has now (its score is {@code before})
     * @return the temperature, with the rule's score at {@code current} and at it
     * @throws IllegalArgumentException if the head's distribution takes no temperature
     */
    static TemperatureCalibration fit(PredictiveDistribution base, RegressionHead<?> head, TargetPipeline target,
            double[] y, ScoringRule rule, double current) {
        Checks.require(base instanceof Temperable, "calibrateTemperature needs a head whose distribution takes a "
                + "temperature (histogram, mixture, pointwise, xVal), got %s", head.getClass().getSimpleName());
        DoubleUnaryOperator score = logT -> {
            PredictiveDistribution d = target.toY(tempered(base, Math.exp(logT)));
            double[] s = rule == ScoringRule.NLL ? d.logDensity(y) : d.crps(y);
            double mean = 0;
            for (double v : s) {
                mean += rule == ScoringRule.NLL ? -v : v;
            }
            return mean / s.length;
        };
        double before = score.applyAsDouble(Math.log(current));
        double logT = goldenSection(score, Math.log(LOWEST), Math.log(HIGHEST), LOG_TOLERANCE);
        double after = score.applyAsDouble(logT);
        double t = Math.exp(logT);
        if (!(after < before)) { // no better than the current temperature: keep it
            t = current;
            after = before;
        }
        return new TemperatureCalibration(t, rule, y.length, before, after);
    }

    /** The minimiser of a unimodal {@code f} on [a, b] within {@code tol}, by golden-section search. */
    static double goldenSection(DoubleUnaryOperator f, double a, double b, double tol) {
        double g = (Math.sqrt(5) - 1) / 2;
        double c = b - g * (b - a);
        double d = a + g * (b - a);
        double fc = f.applyAsDouble(c);
        double fd = f.applyAsDouble(d);
        while (b - a > tol) {
            if (fc <= fd) {
                b = d;
                d = c;
                fd = fc;
                c = b - g * (b - a);
                fc = f.applyAsDouble(c);
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + g * (b - a);
                fd = f.applyAsDouble(d);
            }
        }
        return (a + b) / 2;
    }
}
