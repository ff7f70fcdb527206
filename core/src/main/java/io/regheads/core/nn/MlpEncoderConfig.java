package io.regheads.core.nn;

import io.regheads.core.check.Checks;

/**
 * Sizes and seed of the default encoder {@code phi(x)} ({@link MlpEncoder}).
 *
 * @param inputWidth D_in >= 1, the number of input features
 * @param layers     hidden layers, 2..5 (the decoding paper sweeps 2, 3, 4, 5)
 * @param width      units per hidden layer, 1..2048 (the paper sweeps 256, 512, 2048); also phi's width
 * @param seed       initialisation seed
 */
public record MlpEncoderConfig(int inputWidth, int layers, int width, long seed) {

    /** Largest hidden width. */
    public static final int MAX_WIDTH = 2048;

    /** @throws IllegalArgumentException when a size is out of range */
    public MlpEncoderConfig {
        Checks.atLeast("inputWidth", inputWidth, 1);
        Checks.inRange("layers", layers, 2, 5);
        Checks.inRange("width", width, 1, MAX_WIDTH);
    }

    /**
     * The smallest point of the paper's sweep: 2 layers of 256 (also the encoder of the PyTorch reference
     * implementation that {@code docs/results.md} compares with).
     *
     * @param inputWidth the number of input features
     * @param seed       initialisation seed
     * @return the configuration
     */
    public static MlpEncoderConfig small(int inputWidth, long seed) {
        return new MlpEncoderConfig(inputWidth, 2, 256, seed);
    }

    /** A middle point of the paper's sweep: 3 layers of 512. */
    public static MlpEncoderConfig medium(int inputWidth, long seed) {
        return new MlpEncoderConfig(inputWidth, 3, 512, seed);
    }

    /** The largest point of the paper's sweep: 5 layers of 2048. */
    public static MlpEncoderConfig large(int inputWidth, long seed) {
        return new MlpEncoderConfig(inputWidth, 5, 2048, seed);
    }

    /** A copy with another seed. */
    public MlpEncoderConfig withSeed(long newSeed) {
        return new MlpEncoderConfig(inputWidth, layers, width, newSeed);
    }
}
