package io.regheads.core.dist;

/**
 * A predictive distribution whose outcome may also be NaN, +Infinity or -Infinity (a decoder whose tokenizer has
 * special tokens for them). Its {@link PredictiveDistribution} methods describe the <b>finite part</b>, Y given that
 * Y is finite: the density integrates to 1 and the cdf rises to 1, so the shared contract applies unchanged; these
 * methods report the probabilities of the special outcomes, and {@link #logLikelihood} scores a mixed sample.
 *
 * <p>Worked example: {@code P(NaN) = 0.1}, {@code P(+Inf) = 0.05}, {@code P(-Inf) = 0}, and the finite part uniform
 * on [0, 2]: {@code probabilityFinite() = 0.85}, {@code logDensity(1.0) = log 0.5}, {@code logLikelihood(1.0) =
 * log(0.85 * 0.5)}, {@code logLikelihood(NaN) = log 0.1}, {@code logLikelihood(-Inf) = -Infinity}.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface SpecialValues extends PredictiveDistribution {

    /** P(Y is NaN) per row, {@code [B]}. */
    double[] probabilityNaN();

    /** P(Y = +Infinity) per row, {@code [B]}. */
    double[] probabilityPositiveInfinity();

    /** P(Y = -Infinity) per row, {@code [B]}. */
    double[] probabilityNegativeInfinity();

    /** P(Y finite) = 1 - the three above, per row; the mass the finite part is scaled to. */
    default double[] probabilityFinite() {
        double[] nan = probabilityNaN();
        double[] pos = probabilityPositiveInfinity();
        double[] neg = probabilityNegativeInfinity();
        double[] out = new double[nan.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.max(0, 1 - nan[i] - pos[i] - neg[i]);
        }
        return out;
    }

    /**
     * The log-likelihood of a mixed observation per row: {@code log P(finite) + logDensity(y)} for finite y (a
     * density with respect to Lebesgue measure plus three atoms), {@code log P(NaN)} for NaN and {@code log P(+-Inf)}
     * for an infinity.
     *
     * @param y {@code [B]}, any doubles
     * @return {@code [B]}
     * @throws IllegalArgumentException if y is null or its length is not B
     */
    default double[] logLikelihood(double[] y) {
        int b = batchSize();
        if (y == null || y.length != b) {
            throw new IllegalArgumentException("y must have length B = " + b + ", got "
                    + (y == null ? "null" : String.valueOf(y.length)));
        }
        double[] finiteY = y.clone();
        for (int i = 0; i < b; i++) {
            if (!Double.isFinite(finiteY[i])) {
                finiteY[i] = 0; // scored below instead
            }
        }
        double[] ld = logDensity(finiteY);
        double[] fin = probabilityFinite();
        double[] nan = probabilityNaN();
        double[] pos = probabilityPositiveInfinity();
        double[] neg = probabilityNegativeInfinity();
        double[] out = new double[b];
        for (int i = 0; i < b; i++) {
            out[i] = Double.isNaN(y[i]) ? Math.log(nan[i])
                    : y[i] == Double.POSITIVE_INFINITY ? Math.log(pos[i])
                    : y[i] == Double.NEGATIVE_INFINITY ? Math.log(neg[i])
                    : Math.log(fin[i]) + ld[i];
        }
        return out;
    }
}
