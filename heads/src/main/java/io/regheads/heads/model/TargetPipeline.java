package io.regheads.heads.model;

import io.regheads.core.data.MinMaxScaler;
import io.regheads.core.data.TargetCheck;
import io.regheads.core.data.TargetScaler;
import io.regheads.core.data.TargetTransform;
import io.regheads.core.dist.AffineTransformed;
import io.regheads.core.dist.Expm1Transformed;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.WithTails;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.check.Checks;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The way from y to the head's units and back, fitted on the training targets: first the target transform {@code t}
 * ({@link TargetScaler}: the identity, ROBUST clipping or {@code log1p(y - min)}), then the head's scaling of {@code
 * t(y)} ({@link TargetScaling}: to [0, 1], to {@code y01 - 0.5}, or none). Predictions go back the same way: {@code t
 * = scale * h + shift} (an {@link AffineTransformed} unless it is the identity), then {@code min + expm1(t)} for
 * LOG ({@link Expm1Transformed}), so densities in y's units carry both Jacobians.
 *
 * <p>Also the checks made before fitting: which targets a head may see ({@link #checkTargets}) and whether min-max
 * scaling can carry them ({@link TargetCheck}, with its warnings); and before scoring, that the targets are finite
 * ({@link #checkScored}). Immutable and thread-safe.
 */
final class TargetPipeline {
    /** The mass of the tails a bounded head gets beyond its support. */
    static final double TAIL_MASS = 1e-3;
    /** Their half-normal scale, as a share of the training targets' range. */
    static final double TAIL_SCALE = 0.1;

    private final TargetScaler scaler;
    private final TargetScaling scaling;
    private final boolean nonFinite;

    /**
     * @param scaler    the fitted target scaler
     * @param scaling   the head's scaling of the transformed targets
     * @param nonFinite whether the head gives NaN and infinity outcomes a probability (then it gets no tails)
     */
    TargetPipeline(TargetScaler scaler, TargetScaling scaling, boolean nonFinite) {
        this.scaler = Checks.notNull("scaler", scaler);
        this.scaling = Checks.notNull("scaling", scaling);
        this.nonFinite = nonFinite;
    }

    /**
     * Refuses NaN and +-Infinity targets unless the head represents them (and only under NONE), and targets with no
     * finite value.
     *
     * @throws IllegalArgumentException naming the first refused row
     */
    static void checkTargets(double[] y, HeadSpec head, TargetTransform transform) {
        boolean any = false;
        for (int i = 0; i < y.length; i++) {
            if (Double.isFinite(y[i])) {
                any = true;
            } else if (!head.representsNonFinite()) {
                throw new IllegalArgumentException("train targets must be finite for head " + head.name()
                        + " (only a decoder with special tokens learns NaN and +-Infinity), got " + y[i] + " at row "
                        + i);
            } else if (transform != TargetTransform.NONE) {
                throw new IllegalArgumentException("train targets must be finite under target transform " + transform
                        + " (NaN and +-Infinity reach head " + head.name() + " only with NONE), got " + y[i]
                        + " at row " + i);
            }
        }
        Checks.require(any, "train targets must hold at least one finite value, got none of %d", y.length);
    }

    /**
     * {@code y} itself once checked to be finite: the targets {@code evaluate} scores (NaN and infinite outcomes are
     * scored by {@code logLikelihood}).
     *
     * @throws IllegalArgumentException naming the first non-finite row
     */
    static double[] checkScored(double[] y) {
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("evaluate scores finite targets, got " + y[i] + " at row " + i
                        + " (logLikelihood scores NaN and infinite outcomes)");
            }
        }
        return y;
    }

    /**
     * The pipeline of {@code transform} fitted on the finite values of {@code y}, after {@link TargetCheck} on what
     * a head on min-max scaled values will see: y itself, y clipped to the ROBUST bounds (a warning says how many
     * were clipped, for any head) or {@code log1p(y - min)}. A head on raw y ({@link TargetScaling#RAW}) is made for
     * extreme targets and gets no such check.
     *
     * @param warning receives each warning (one line)
     * @throws IllegalArgumentException for targets that min-max scaling cannot carry ({@link TargetCheck})
     */
    static TargetPipeline fit(double[] y, TargetTransform transform, HeadSpec head, Consumer<String> warning) {
        TargetScaling scaling = head.targetScaling();
        boolean nonFinite = head.representsNonFinite();
        double[] finite = Arrays.stream(y).filter(Double::isFinite).toArray();
        boolean minMax = scaling != TargetScaling.RAW;
        if (transform == TargetTransform.NONE) {
            if (minMax) { // before the scaler, whose own refusals say less
                TargetCheck.check("y", finite).ifPresent(warning);
            }
            return new TargetPipeline(TargetScaler.fit(transform, finite), scaling, nonFinite);
        }
        TargetScaler ts = TargetScaler.fit(transform, finite);
        double[] seen = new double[finite.length];
        int clipped = 0;
        for (int i = 0; i < finite.length; i++) {
            seen[i] = ts.transformed(finite[i]);
            clipped += seen[i] != finite[i] ? 1 : 0;
        }
        if (transform == TargetTransform.ROBUST) {
            if (clipped > 0) {
                warning.accept(String.format(Locale.ROOT, "y: %d of %d targets lie outside the ROBUST bounds [%.6g, "
                        + "%.6g] (%.0f IQR beyond the quartiles) and were clipped to them", clipped, finite.length,
                        ts.unit().min(), ts.unit().max(), TargetScaler.ROBUST_IQRS));
            }
            if (minMax) {
                TargetCheck.check("y clipped to the ROBUST bounds", seen).ifPresent(warning);
            }
        } else if (minMax) {
            TargetCheck.check("log1p(y - min)", seen).ifPresent(warning);
        }
        return new TargetPipeline(ts, scaling, nonFinite);
    }

    TargetScaler scaler() {
        return scaler;
    }

    /**
     * {@code t(y)} for each target ({@link TargetScaler#transformed}); NaN and +-Infinity pass through unchanged
     * under NONE (special targets of a decoder with special tokens).
     *
     * @throws IllegalArgumentException under ROBUST or LOG, on a target that is not finite or (LOG) lies at or below
     *                                  {@code min - 1}, where {@code log1p(y - min)} does not exist
     */
    double[] transformed(double[] y) {
        if (scaler.transform() == TargetTransform.NONE) {
            return y.clone();
        }
        Checks.allFinite("y", y);
        double[] t = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            t[i] = scaler.transformed(y[i]);
            if (Double.isNaN(t[i])) {
                throw new IllegalArgumentException("y[" + i + "] must be > " + (scaler.shift() - 1) + " (the "
                        + "training minimum " + scaler.shift() + " minus 1) for the LOG transform, got " + y[i]);
            }
        }
        return t;
    }

    /** y in the head's units: transformed, then the head's scaling. */
    double[] toHead(double[] y) {
        MinMaxScaler unit = scaler.unit();
        return scaling.toHead(transformed(y), unit.min(), unit.max());
    }

    /** The factor of {@code t = scale * h + shift} from the head's units to t's ({@link TargetScaling#scale}). */
    double scale() {
        return scaling.scale(scaler.unit().min(), scaler.unit().max());
    }

    /** The offset of {@code t = scale * h + shift} ({@link TargetScaling#shift}). */
    double shift() {
        return scaling.shift(scaler.unit().min(), scaler.unit().max());
    }

    /**
     * A distribution in the head's units mapped to y's: given tails where bounded ({@link #withTails}), the head's
     * scaling back, then expm1 for LOG.
     */
    PredictiveDistribution toY(PredictiveDistribution headUnits) {
        PredictiveDistribution t = mapped(withTails(headUnits), scale(), shift());
        return scaler.transform() == TargetTransform.LOG ? new Expm1Transformed(t, scaler.shift()) : t;
    }

    /** As {@link #toY}, mapped to y01's units instead: {@code (t - min) / (max - min)}. */
    PredictiveDistribution toUnit(PredictiveDistribution headUnits) {
        MinMaxScaler unit = scaler.unit();
        double range = unit.range();
        return mapped(withTails(headUnits), scale() / range, (shift() - unit.min()) / range);
    }

    /**
     * The head's distribution with half-normal tails beyond a bounded support ({@link WithTails}: a normalized
     * decoder's [0, 1], a histogram without tails, an unnormalized decoder's largest magnitude), so that every finite
     * y has a finite density: mass {@value #TAIL_MASS} in all, scale {@value #TAIL_SCALE} of the training targets'
     * range. Distributions with unbounded support, and heads with NaN and infinity outcomes, as they are.
     */
    PredictiveDistribution withTails(PredictiveDistribution d) {
        if (nonFinite || !WithTails.bounded(d)) {
            return d;
        }
        return new WithTails(d, TAIL_MASS, TAIL_SCALE * scaler.unit().range() / scale());
    }

    /**
     * Points in the head's units mapped to y's in place, as {@link #toY} maps a quantile: {@code scale * p + shift},
     * then {@code min + expm1} for LOG (exact for quantiles, which commute with both maps).
     */
    double[] pointsToY(double[] p) {
        double scale = scale();
        double shift = shift();
        boolean log = scaler.transform() == TargetTransform.LOG;
        for (int i = 0; i < p.length; i++) {
            p[i] = scale * p[i] + shift; // as AffineTransformed maps a base point
            if (log) {
                p[i] = scaler.shift() + Math.expm1(p[i]); // as Expm1Transformed maps a quantile: exactly
            }
        }
        return p;
    }

    /** {@code base} mapped by {@code y = scale * x + shift}, or base itself for the identity. */
    private static PredictiveDistribution mapped(PredictiveDistribution base, double scale, double shift) {
        return scale == 1.0 && shift == 0.0 ? base : new AffineTransformed(base, scale, shift);
    }
}
