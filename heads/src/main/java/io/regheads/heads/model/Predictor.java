package io.regheads.heads.model;

import io.regheads.core.data.TargetTransform;
import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.SpecialValues;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Points;
import java.util.List;

/**
 * What a fitted model predicts for rows in its column order, or with named columns put in that order ({@link
 * ColumnNames#inOrder}): the head's distribution in its own units at the model's temperature, mapped to y's units
 * (or y01's) by the target pipeline, the log-likelihood of mixed outcomes, and point predictions, taken from that
 * same distribution where it has them and decoded by the head otherwise. The model's head and fitted state as they
 * are when it is made (one per call of {@link RegressionModel}); thread-safe as the head and the row encoder are.
 */
final class Predictor {
    private final RegressionHead<?> head;
    private final FittedState fitted;
    private final RowEncoder rows;

    Predictor(RegressionHead<?> head, FittedState fitted, RowEncoder rows) {
        this.head = head;
        this.fitted = fitted;
        this.rows = rows;
    }

    /** This predictor, after the once-per-process note that rows given as plain arrays are taken by position. */
    Predictor positional() {
        fitted.names().positional();
        return this;
    }

    /** The head's distribution in its own units for rows of x (checked), at temperature 1. */
    PredictiveDistribution untempered(double[][] x) {
        return rows.headUnits(head, fitted.xScaler(), x);
    }

    /** {@link #untempered(double[][])} for rows with named columns, checked here. */
    PredictiveDistribution untempered(double[][] x, List<String> columns) {
        return untempered(rows.check(inOrder(x, columns)));
    }

    /** The head's distribution in its own units for rows of x (checked), at the model's temperature. */
    PredictiveDistribution headUnits(double[][] x) {
        return TemperatureFit.tempered(untempered(x), fitted.temperature());
    }

    /**
     * The predictive distributions of y for rows of x, original units ({@link TargetPipeline#toY}).
     *
     * @throws IllegalArgumentException if x is invalid ({@link RowEncoder#check})
     */
    PredictiveDistribution distribution(double[][] x) {
        return fitted.target().toY(headUnits(rows.check(x)));
    }

    /** {@link #distribution(double[][])} for rows with named columns. */
    PredictiveDistribution distribution(double[][] x, List<String> columns) {
        return distribution(inOrder(x, columns));
    }

    /** As {@link #distribution}, in y01's units ({@link TargetPipeline#toUnit}). */
    PredictiveDistribution unit(double[][] x) {
        return fitted.target().toUnit(headUnits(rows.check(x)));
    }

    /**
     * The log-likelihood of mixed observations per row ({@link SpecialValues#logLikelihood}; a distribution without
     * special values gives NaN and the infinities 0 probability).
     */
    double[] logLikelihood(double[][] x, double[] y) {
        PredictiveDistribution d = distribution(x);
        SpecialValues s = d instanceof SpecialValues sv ? sv : new AffineTransformed(d, 1.0, 0.0);
        return s.logLikelihood(y);
    }

    /**
     * Point predictions of y (original units) decoded as {@code decoding} says: under LOG, MEAN, MODE and AUTO of y's
     * own distribution; otherwise the summary in the head's units, from the distribution {@link #distribution} maps
     * ({@link #fromDistribution}) or from the head's decoding, then mapped as a quantile ({@link
     * TargetPipeline#pointsToY}).
     *
     * @throws IllegalArgumentException if decoding is null, x is invalid, the head refuses the decoding, or it asks
     *                                  for SAMPLE_MEAN under the LOG target transform
     */
    double[] point(double[][] x, Decoding decoding) {
        Checks.notNull("decoding", decoding);
        PointEstimate estimate = decoding.point();
        boolean log = fitted.target().scaler().transform() == TargetTransform.LOG;
        if (log && (estimate == PointEstimate.MEAN || estimate == PointEstimate.MODE
                || estimate == PointEstimate.AUTO)) {
            // none commutes with expm1: the mean and mode of y's own distribution (see Expm1Transformed)
            PredictiveDistribution d = distribution(x);
            return estimate == PointEstimate.MODE ? d.mode() : Points.meanElseMedian(d);
        }
        Checks.require(!log || estimate != PointEstimate.SAMPLE_MEAN, "decoding must not be SAMPLE_MEAN under the LOG "
                + "target transform (samples are averaged in log1p(y - min)); use MEAN or SAMPLE_MEDIAN, got %s",
                decoding);
        double[] p = fromDistribution(estimate)
                ? Points.summary(fitted.target().withTails(headUnits(rows.check(x))), estimate)
                : head.point(rows.encode(fitted.xScaler().transform(rows.check(x))), decoding);
        return fitted.target().pointsToY(p);
    }

    /** {@link #point(double[][], Decoding)} for rows with named columns. */
    double[] point(double[][] x, List<String> columns, Decoding decoding) {
        return point(inOrder(x, columns), decoding);
    }

    /**
     * x's rows in the model's column order.
     *
     * @throws IllegalArgumentException if x is null, or a column is missing, unknown or repeated (named)
     */
    private double[][] inOrder(double[][] x, List<String> columns) {
        return fitted.names().inOrder(x, columns, rows.width());
    }

    /**
     * Whether a point estimate is a summary of the predictive distribution that {@link #distribution} builds (tails
     * included), so that {@code predictPoint} and {@code predict(x).mean()} (median, mode) are one computation and
     * agree bit for bit: MEAN, MEDIAN and MODE for every head, and GREEDY and AUTO for a head that generates no
     * tokens. A head that generates tokens decodes GREEDY (beam search), AUTO (the certified mean, else the median)
     * and the sample summaries itself, as every head decodes the sample summaries.
     */
    private boolean fromDistribution(PointEstimate estimate) {
        return switch (estimate) {
            case MEAN, MEDIAN, MODE -> true;
            case GREEDY, AUTO -> !head.generatesTokens();
            default -> false;
        };
    }
}
