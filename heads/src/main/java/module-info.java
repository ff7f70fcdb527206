/**
 * The heads (pointwise, histogram, mixture density, digit decoders, xVal, quantile), their predictive
 * distributions, and the model API ({@code io.regheads.heads.model}).
 */
module io.regheads.heads {
    requires transitive io.regheads.core;
    requires transitive io.regheads.tokenizers;
    requires transitive io.regheads.losses;
    requires org.slf4j;
    requires org.apache.commons.rng.api;
    requires org.apache.commons.rng.simple;
    requires org.apache.commons.rng.sampling;

    exports io.regheads.heads.decoder;
    exports io.regheads.heads.histogram;
    exports io.regheads.heads.mixture;
    exports io.regheads.heads.model;
    exports io.regheads.heads.pointwise;
    exports io.regheads.heads.quantile;
    exports io.regheads.heads.text;
    exports io.regheads.heads.xval;
}
