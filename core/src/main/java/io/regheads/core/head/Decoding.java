package io.regheads.core.head;

import io.regheads.core.check.Checks;

/**
 * How a point prediction is decoded from a head ({@link RegressionHead#point(org.nd4j.linalg.api.ndarray.INDArray,
 * Decoding)}): the summary, the sampling filters of the sample-based summaries, the number of samples and their seed.
 *
 * <p>Sampling filters act on heads that generate tokens ({@link RegressionHead#generatesTokens()}), at every
 * position after the validity mask: logits divided by the temperature, then top-k (the k most probable tokens kept),
 * then the nucleus (top-p: the smallest set of the most probable kept tokens whose mass reaches topP of the kept
 * mass); the kept probabilities are renormalised. Heads without tokens refuse filters other than the plain ones
 * (temperature 1, top-k 0, top-p 1), since there is nothing to filter.
 *
 * <p>Example: {@code Decoding.of(PointEstimate.SAMPLE_MEAN).withSampling(0.7, 0, 0.9).withSamples(512, 3)}: the mean
 * of 512 sequences per row sampled at temperature 0.7 from the 0.9 nucleus, seed 3.
 *
 * @param point       the summary
 * @param temperature divides the logits, {@code > 0} and finite
 * @param topK        0 for no top-k filter, else {@code >= 1}
 * @param topP        in (0, 1]; 1 for no nucleus filter
 * @param samples     samples per row for SAMPLE_MEAN and SAMPLE_MEDIAN, {@code >= 1}
 * @param seed        seed of their generator
 */
public record Decoding(PointEstimate point, double temperature, int topK, double topP, int samples, long seed) {

    /** Samples per row of {@link #of}: 256. */
    public static final int DEFAULT_SAMPLES = 256;

    /** @throws IllegalArgumentException when a field is out of range (the message names it) */
    public Decoding {
        Checks.notNull("point", point);
        Checks.require(temperature > 0 && temperature < Double.POSITIVE_INFINITY,
                "temperature must be > 0 and finite, got %s", temperature);
        Checks.atLeast("topK", topK, 0);
        Checks.require(topP > 0 && topP <= 1, "topP must be in (0, 1], got %s", topP);
        Checks.atLeast("samples", samples, 1);
    }

    /**
     * The estimate with plain sampling (temperature 1, no top-k, no nucleus), {@link #DEFAULT_SAMPLES} samples, seed
     * 0.
     *
     * @throws IllegalArgumentException if point is null
     */
    public static Decoding of(PointEstimate point) {
        return new Decoding(point, 1.0, 0, 1.0, DEFAULT_SAMPLES, 0);
    }

    /** The same decoding with other sampling filters (validated as in the constructor). */
    public Decoding withSampling(double newTemperature, int newTopK, double newTopP) {
        return new Decoding(point, newTemperature, newTopK, newTopP, samples, seed);
    }

    /** The same decoding with another number of samples and seed. */
    public Decoding withSamples(int newSamples, long newSeed) {
        return new Decoding(point, temperature, topK, topP, newSamples, newSeed);
    }

    /** The same decoding with another summary. */
    public Decoding withPoint(PointEstimate newPoint) {
        return new Decoding(newPoint, temperature, topK, topP, samples, seed);
    }

    /** Whether sampling is plain: temperature 1, no top-k, no nucleus (the model's own distribution). */
    public boolean isPlainSampling() {
        return temperature == 1.0 && topK == 0 && topP == 1.0;
    }
}
