/**
 * The contracts and the engine of regheads: heads, outputs, losses, predictive distributions, tokenizers'
 * interface, layers, optimizers, the trainer, data, metrics and model files.
 */
module io.regheads.core {
    requires transitive nd4j.api;
    requires java.management;
    requires org.bytedeco.javacpp;
    requires static org.bytedeco.openblas;
    requires static jdk.incubator.vector;
    requires org.slf4j;
    requires org.apache.commons.csv;
    requires org.apache.commons.numbers.gamma;
    requires org.apache.commons.rng.api;
    requires org.apache.commons.rng.simple;
    requires org.apache.commons.rng.sampling;
    requires org.apache.commons.statistics.distribution;

    exports io.regheads.core.check;
    exports io.regheads.core.data;
    exports io.regheads.core.dist;
    exports io.regheads.core.head;
    exports io.regheads.core.io;
    exports io.regheads.core.loss;
    exports io.regheads.core.metrics;
    exports io.regheads.core.nn;
    exports io.regheads.core.optim;
    exports io.regheads.core.token;
    exports io.regheads.core.train;
    exports io.regheads.core.internal to io.regheads.tokenizers, io.regheads.losses, io.regheads.heads;
}
