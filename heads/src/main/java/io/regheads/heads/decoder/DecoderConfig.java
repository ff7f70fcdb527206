package io.regheads.heads.decoder;

import io.regheads.core.internal.Checks;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.tokenizers.NormalizedTokenizer;

/**
 * Sizes of a {@link DecoderHead}.
 *
 * <p>Example: {@code DecoderConfig.small(NormalizedTokenizer.of(10, 4), 64, 7)} has the sizes of the PyTorch
 * reference implementation's decoder: 1 layer, d = 32, 1 head, ff = 128, over 4 decimal digits, for 64 features.
 *
 * @param tokenizer  how y is spelled (T = {@code tokenizer.sequenceLength()}, V = {@code vocabularySize()})
 * @param inputWidth D, the width of phi, >= 1
 * @param block      width, heads and MLP width of every block
 * @param layers     number of blocks, >= 1
 * @param seed       initialisation seed
 */
public record DecoderConfig(NumberTokenizer tokenizer, int inputWidth, TransformerBlock.Config block, int layers,
        long seed) {

    /** @throws IllegalArgumentException on a null tokenizer or block, or a size &lt; 1 */
    public DecoderConfig {
        Checks.notNull("tokenizer", tokenizer);
        Checks.notNull("block", block);
        Checks.atLeast("inputWidth", inputWidth, 1);
        Checks.atLeast("layers", layers, 1);
        Checks.atLeast("tokenizer.sequenceLength()", tokenizer.sequenceLength(), 1);
    }

    /** The paper's small decoder (1 layer, 32 units, 1 head, ff 128). */
    public static DecoderConfig small(NumberTokenizer tokenizer, int inputWidth, long seed) {
        return new DecoderConfig(tokenizer, inputWidth, TransformerBlock.Config.small(), 1, seed);
    }

    /** The paper's larger decoder (3 layers, 128 units, 4 heads, ff 512). */
    public static DecoderConfig large(NumberTokenizer tokenizer, int inputWidth, long seed) {
        return new DecoderConfig(tokenizer, inputWidth, TransformerBlock.Config.large(), 3, seed);
    }
}
