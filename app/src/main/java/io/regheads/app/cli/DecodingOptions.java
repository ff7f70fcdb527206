package io.regheads.app.cli;

import io.regheads.core.dist.PointLoss;
import io.regheads.core.head.Decoding;
import io.regheads.core.check.Checks;
import io.regheads.core.head.PointEstimate;
import picocli.CommandLine.Option;

/**
 * How commands that predict points decode them (a picocli mixin): the point estimate and, for the sample-based
 * ones, temperature, top-k, top-p and the number of samples. Without {@code --point} every head reports its own
 * estimate ({@code HeadSpec.pointEstimate()}: the mean; the unnormalized decoder's certified mean, else its median).
 *
 * <p>Not thread-safe (picocli fills the fields).
 */
final class DecodingOptions {
    @Option(names = "--point", paramLabel = "ESTIMATE", description = "Point prediction (compare: RMSE, tau, the "
            + "plots; predict: the column point): mean "
            + "(decoders: the certified tree expansion), median, mode (decoders: beam search for the density mode), "
            + "greedy, sample-mean, sample-median or auto (the certified mean, else the median); predict also takes "
            + "the point that minimises an expected cost: mse, mae, pinball:<tau>, linlin:<under>,<over>, mape (the "
            + "1/|y|-weighted median; refused for rows with mass or density at 0) or linex:<a>. Default: each "
            + "head's own.")
    String point;

    @Option(names = "--temperature", paramLabel = "T", description = "Sampling temperature of sample-mean and "
            + "sample-median (decoders; default 1).")
    Double temperature;

    @Option(names = "--top-k", paramLabel = "K", description = "Keep the K most probable tokens at each position when "
            + "sampling (decoders; default 0 = all).")
    Integer topK;

    @Option(names = "--top-p", paramLabel = "P", description = "Nucleus sampling: keep the most probable tokens up to "
            + "mass P at each position (decoders; default 1 = all).")
    Double topP;

    @Option(names = "--samples", paramLabel = "N", description = "Samples per row for sample-mean and sample-median "
            + "(default " + Decoding.DEFAULT_SAMPLES + ").")
    Integer samples;

    /**
     * Checks the combination before any training: a known {@code --point}, and sampling options only with a
     * sample-based one.
     *
     * @throws IllegalArgumentException naming the option
     */
    void check(boolean costs) {
        if (pointLoss() != null) {
            Checks.require(costs, "--point %s is a cost-optimal point, which 'regheads predict' writes; here use an "
                    + "estimate (mean, median, mode, greedy, sample-mean, sample-median, auto)", point);
            Checks.require(temperature == null && topK == null && topP == null && samples == null, "--temperature, "
                    + "--top-k, --top-p and --samples act on --point sample-mean or sample-median, got --point %s",
                    point);
            return;
        }
        PointEstimate p = chosen();
        boolean sampling = temperature != null || topK != null || topP != null || samples != null;
        if (sampling && p != PointEstimate.SAMPLE_MEAN && p != PointEstimate.SAMPLE_MEDIAN) {
            throw new IllegalArgumentException("--temperature, --top-k, --top-p and --samples act on --point "
                    + "sample-mean or sample-median, got --point " + (point == null ? "(each head's own)" : point));
        }
        decoding(PointEstimate.MEAN, 0, true); // validates the values (the message names the setting)
    }

    /** The cost-optimal point asked for ({@code --point mse}, {@code mape}, {@code pinball:0.9}, ...), or null. */
    PointLoss pointLoss() {
        if (point == null || !COSTS.matcher(point.strip().toLowerCase(java.util.Locale.ROOT)).matches()) {
            return null;
        }
        try {
            return PointLoss.parse(point.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--point: " + e.getMessage(), e);
        }
    }

    /** The names of the cost-optimal points, with or without their arguments. */
    private static final java.util.regex.Pattern COSTS = java.util.regex.Pattern.compile(
            "(mse|mae|mape|pinball|linlin|linex)(:.*)?");

    /** The estimate asked for, or null for each head's own (or for a cost-optimal point). */
    PointEstimate chosen() {
        if (point == null || pointLoss() != null) {
            return null;
        }
        try {
            return PointEstimate.ofLabel(point);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--point must be an estimate (mean, median, mode, greedy, sample-mean, "
                    + "sample-median, auto) or, in predict, a cost (mse, mae, mape, pinball:<tau>, linlin:<under>,<over>, "
                    + "linex:<a>), got '" + point + "'", e);
        }
    }

    /**
     * The decoding for one head.
     *
     * @param headDefault the head's own estimate (used without {@code --point})
     * @param seed        the run's seed (the samples' generator)
     * @param tokens      whether the head generates tokens; without, the sampling filters are left out (see
     *                    {@link #note})
     */
    Decoding decoding(PointEstimate headDefault, long seed, boolean tokens) {
        PointEstimate p = chosen();
        Decoding d = Decoding.of(p == null ? headDefault : p).withSamples(samples == null ? Decoding.DEFAULT_SAMPLES
                : samples, seed);
        if (!tokens) {
            return d;
        }
        try {
            return d.withSampling(temperature == null ? 1.0 : temperature, topK == null ? 0 : topK,
                    topP == null ? 1.0 : topP);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--temperature/--top-k/--top-p: " + e.getMessage(), e);
        }
    }

    /** Why a head's points ignore the sampling filters, or empty. */
    String note(String head, boolean tokens) {
        boolean filters = temperature != null && temperature != 1.0 || topK != null && topK != 0
                || topP != null && topP != 1.0;
        return filters && !tokens ? "--temperature, --top-k and --top-p filter generated tokens; " + head
                + " generates none and sampled its distribution as is" : "";
    }
}
