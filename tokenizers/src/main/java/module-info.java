/** Number tokenizers (normalized, unnormalized, Hamming, repetition) and number-in-text encodings. */
module io.regheads.tokenizers {
    requires transitive io.regheads.core;

    exports io.regheads.tokenizers;
    exports io.regheads.tokenizers.text;
    exports io.regheads.tokenizers.internal to io.regheads.heads;
}
