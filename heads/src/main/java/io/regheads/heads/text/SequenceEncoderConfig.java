package io.regheads.heads.text;

import io.regheads.core.check.Checks;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.heads.text.SequenceEncoderConfig.NumberEmbedding;

/**
 * Sizes of a {@link SequenceEncoder}.
 *
 * <p>Example: {@code SequenceEncoderConfig.small(CharVocabulary.SIZE, 32, 32, NumberEmbedding.XVAL, 0, 7)} is a 2-layer,
 * width-32, 2-head encoder over the xVal character vocabulary for sequences of up to 32 tokens.
 *
 * @param vocabulary  V, token ids in [0, V), >= 1
 * @param maxLength   largest sequence length L (rows of the position table), >= 1
 * @param block       width d, heads and MLP width of every block (the xVal paper: MLP width 4 d)
 * @param layers      number of blocks, >= 1
 * @param numbers     how {@code [NUM]} tokens carry their values
 * @param numToken    the id of {@code [NUM]} (CharVocabulary.NUM = 2), in [0, V)
 * @param scales      k of the multi-scale embedding (2k + 1 table rows), in [0, 8]; must be 0 unless
 *                    {@code numbers} is {@link NumberEmbedding#XVAL_MULTISCALE}
 * @param seed        initialisation seed
 *
 * <p>Immutable and thread-safe.
 */
public record SequenceEncoderConfig(int vocabulary, int maxLength, TransformerBlock.Config block, int layers,
        NumberEmbedding numbers, int numToken, int scales, long seed) {

    /** How numbers enter the embedding. */
    public enum NumberEmbedding {
        /** Numbers are ordinary tokens (text encodings P10, P1000, B1999, FP15): {@code h = E[token] + P[t]}. */
        NONE,
        /** xVal: {@code h = x * E[NUM] + P[t]} at a {@code [NUM]} token with value x. */
        XVAL,
        /** Multi-scale xVal: {@code h = sum_{i=-k..k} tanh(x 10^i) M[i + k] + P[t]}, M {@code [2k + 1, d]}. */
        XVAL_MULTISCALE
    }

    /** @throws IllegalArgumentException on a size out of range or a null field */
    public SequenceEncoderConfig {
        Checks.atLeast("vocabulary", vocabulary, 1);
        Checks.atLeast("maxLength", maxLength, 1);
        Checks.notNull("block", block);
        Checks.atLeast("layers", layers, 1);
        Checks.notNull("numbers", numbers);
        Checks.inRange("numToken", numToken, 0, vocabulary - 1);
        Checks.inRange("scales", scales, 0, 8);
        Checks.require(scales == 0 || numbers == NumberEmbedding.XVAL_MULTISCALE,
                "scales must be 0 unless numbers is XVAL_MULTISCALE, got %d with %s", scales, numbers);
    }

    /** 2 blocks of width d, 2 heads, MLP 4 d; [NUM] = 2. */
    public static SequenceEncoderConfig small(int vocabulary, int maxLength, int d, NumberEmbedding numbers,
            int scales, long seed) {
        return new SequenceEncoderConfig(vocabulary, maxLength, new TransformerBlock.Config(d, 2, 4 * d), 2, numbers,
                2, scales, seed);
    }

    /** Width d of the embeddings and of phi. */
    public int width() {
        return block.d();
    }
}
