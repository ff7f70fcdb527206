package io.regheads.core.head;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Points;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import java.util.List;
import java.util.Map;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Turns features {@code phi [B, D]} from any encoder into a predictive distribution over y.
 *
 * <p>Training: {@code targets(y)} converts labels into what the head's losses compare with; {@code forward}
 * returns the output and an immutable cache of type {@code C}; a loss fills {@code dOutput}; {@code backward} takes
 * that cache back, adds the parameter gradients into {@link Param#grad()} and returns {@code dPhi [B, D]} for the
 * encoder. The cache type is the head's own (e.g. {@code Linear.Cache} for a one-layer head), so a head never
 * casts what it gets back; code that holds a {@code RegressionHead<?>} runs forward and backward in one generic
 * method:
 * <pre>{@code
 * static <C> INDArray step(RegressionHead<C> head, INDArray phi, Targets t, Loss loss, Arena arena) {
 *     RegressionHead.Forward<C> f = head.forward(phi, t, arena);
 *     HeadOutput dOut = f.output().zerosLike(arena);
 *     loss.accumulate(f.output(), t, 1.0, dOut, new double[t.batchSize()]);
 *     return head.backward(f, dOut, arena);
 * }
 * }</pre>
 *
 * <p>Inference: {@code distribution(phi)} gives B distributions (a decoder samples or walks its digit tree from
 * phi, so the distribution takes phi rather than one output); {@code point(phi, estimate)} gives point predictions
 * by the head's own route to a summary (a decoder decodes greedily, a Gaussian head returns its mean).
 *
 * <p>After training: {@code afterFit(phi, y)} on held-out rows fits what the loss leaves open (a point head's noise
 * level); {@code state()} is what that step set, saved with a model and put back by {@code restoreState}. Both are
 * empty for heads without such a step.
 *
 * <p>Parameters change only in optimizer steps; a head is otherwise safe for concurrent forward passes with
 * separate arenas.
 *
 * @param <C> the head's cache: what {@code forward} keeps for {@code backward} (immutable)
 */
public interface RegressionHead<C> {

    /** Feature width D this head takes. */
    int inputWidth();

    /** The trainable parameters, in a fixed order. */
    List<Param> params();

    /**
     * Converts labels (in the head's y units) into targets for its losses.
     *
     * @param y {@code [B]} finite values
     * @throws IllegalArgumentException if a value is outside what the head can represent
     */
    Targets targets(double[] y);

    /**
     * One forward pass.
     *
     * @param phi     {@code [B, D]}
     * @param targets the targets when training (decoders teacher-force on them); may be null at inference for
     *                heads that do not need them
     * @param arena   where scratch buffers come from
     * @return the output and this head's cache
     */
    Forward<C> forward(INDArray phi, Targets targets, Arena arena);

    /**
     * Backpropagates {@code dOutput} (same form as {@code forward.output()}); adds parameter gradients.
     *
     * @param forward what {@link #forward} returned on this head
     * @param dOutput d(loss)/d(output), the same form and shapes as {@code forward.output()}
     * @param arena   where scratch buffers come from
     * @return {@code dPhi [B, D]}
     * @throws IllegalArgumentException if dOutput is not of the form forward produced
     */
    INDArray backward(Forward<C> forward, HeadOutput dOutput, Arena arena);

    /** The predictive distributions for B rows of features. */
    PredictiveDistribution distribution(INDArray phi);

    /**
     * Point predictions for B rows of features, in the head's y units.
     *
     * <p>Default: {@code distribution(phi)}'s {@code mean()}, {@code median()} or {@code mode()} ({@link
     * PointEstimate#MODE} and {@link PointEstimate#GREEDY}), for AUTO the mean where it is finite and the median
     * elsewhere, and for the sample-based estimates {@link #point(INDArray, Decoding)} with {@link
     * Decoding#of}'s settings; heads with a cheaper or a different route override it (a decoder's GREEDY is its
     * width-1 beam search, its AUTO the certified mean).
     *
     * @param phi      {@code [B, D]}
     * @param estimate which summary
     * @return {@code [B]}
     * @throws IllegalArgumentException if estimate is null (or phi is invalid, as for {@link #distribution})
     */
    default double[] point(INDArray phi, PointEstimate estimate) {
        Checks.notNull("estimate", estimate);
        if (estimate == PointEstimate.SAMPLE_MEAN || estimate == PointEstimate.SAMPLE_MEDIAN) {
            return point(phi, Decoding.of(estimate));
        }
        return Points.summary(distribution(phi), estimate);
    }

    /**
     * Point predictions decoded as {@code decoding} says, in the head's y units.
     *
     * <p>Default: SAMPLE_MEAN and SAMPLE_MEDIAN draw {@code decoding.samples()} values per row from {@code
     * distribution(phi).sample} with a generator seeded by {@code decoding.seed()} (the plain distribution: a head
     * without tokens has no filters to apply and refuses others), then average them or take their Harrell-Davis
     * median; every other estimate is {@link #point(INDArray, PointEstimate)}. Heads that generate tokens override
     * it to apply temperature, top-k and top-p at every position.
     *
     * @param phi      {@code [B, D]}
     * @param decoding the summary and its sampling settings
     * @return {@code [B]}
     * @throws IllegalArgumentException if decoding is null, or asks this head (which generates no tokens) for
     *                                  temperature, top-k or top-p other than the plain ones
     */
    default double[] point(INDArray phi, Decoding decoding) {
        Checks.notNull("decoding", decoding);
        PointEstimate e = decoding.point();
        if (e != PointEstimate.SAMPLE_MEAN && e != PointEstimate.SAMPLE_MEDIAN) {
            return point(phi, e);
        }
        Checks.require(decoding.isPlainSampling(), "temperature, top-k and top-p filter generated tokens; %s generates"
                + " none (use temperature 1, top-k 0, top-p 1), got %s", getClass().getSimpleName(), decoding);
        double[][] s = distribution(phi).sample(
                org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(decoding.seed()),
                decoding.samples());
        if (e == PointEstimate.SAMPLE_MEDIAN) {
            return io.regheads.core.internal.HarrellDavis.columnMedians(s);
        }
        double[] m = new double[s[0].length];
        for (double[] row : s) {
            for (int r = 0; r < m.length; r++) {
                m[r] += row[r] / s.length;
            }
        }
        return m;
    }

    /**
     * Whether this head generates its prediction as tokens, position by position, so that sampling filters
     * (temperature, top-k, top-p of {@link Decoding}) apply. Default false.
     */
    default boolean generatesTokens() {
        return false;
    }

    /**
     * A builder of the predictive distribution of {@code rows} rows whose features arrive in consecutive chunks: how
     * a model predicts many rows with bounded scratch memory (features of one chunk at a time in reusable buffers).
     * The result must equal {@code distribution(phi)} of all rows at once up to the matrix products' rounding.
     *
     * <p>The default collects copies of the chunks and calls {@link #distribution(INDArray)} on their concatenation.
     * Heads with columnar distributions override it to fill the distribution's flat arrays chunk by chunk, with
     * scratch from the caller's arena.
     *
     * @param rows B &gt;= 1
     * @throws IllegalArgumentException if rows &lt; 1
     */
    default DistributionBuilder distributionBuilder(int rows) {
        Checks.atLeast("rows", rows, 1);
        return new DistributionBuilder() {
            private final java.util.List<INDArray> chunks = new java.util.ArrayList<>();
            private int next;

            @Override
            public void add(INDArray phi, int row, Arena arena) {
                next = DistributionBuilder.checkChunk(phi, row, next, rows);
                chunks.add(phi.dup('c'));
            }

            @Override
            public PredictiveDistribution build() {
                Checks.require(next == rows, "every row must be added before build: got %d of %d", next, rows);
                return distribution(chunks.size() == 1 ? chunks.get(0)
                        : org.nd4j.linalg.factory.Nd4j.concat(0, chunks.toArray(new INDArray[0])));
            }
        };
    }

    /**
     * The after-fit step: fits what the training loss leaves open on rows the head was not trained on (held-out
     * rows, or the training rows when none are held out), e.g. the noise level of a point head's Gaussian. Called
     * once by a model after training; the result is in {@link #state()}.
     *
     * <p>Default: nothing.
     *
     * @param phi {@code [B, D]} features of those rows
     * @param y   {@code [B]} their labels in the head's y units
     * @throws IllegalArgumentException on mismatched shapes or non-finite labels (heads that use them)
     */
    default void afterFit(INDArray phi, double[] y) {}

    /**
     * The state set after fitting that is not a parameter, by name (e.g. {@code noiseStd}), in a fixed order: what
     * a saved model must keep besides the weights. Default: empty.
     *
     * @return an unmodifiable map
     */
    default Map<String, Double> state() {
        return Map.of();
    }

    /**
     * Puts back a {@link #state()} read from a saved model.
     *
     * <p>Default: accepts only an empty map.
     *
     * @throws IllegalArgumentException naming a missing, unknown or invalid entry
     */
    default void restoreState(Map<String, Double> state) {
        Checks.notNull("state", state);
        Checks.require(state.isEmpty(), "%s has no saved state, got %s", getClass().getSimpleName(), state.keySet());
    }

    /**
     * The result of a forward pass: the output a loss sees and the head's own cache for backward.
     *
     * @param output what losses see
     * @param cache  the head's intermediate values (immutable), for its backward
     * @param <C>    the head's cache type
     */
    record Forward<C>(HeadOutput output, C cache) {}

    /**
     * Fills the predictive distribution of a fixed number of rows from features given chunk by chunk, in row order
     * (see {@link #distributionBuilder(int)}). One builder per prediction; not thread-safe.
     */
    interface DistributionBuilder {
        /**
         * Adds rows {@code [row, row + phi.size(0))}.
         *
         * @param phi   {@code [b, D]} features of the next chunk; it may live in {@code arena}: the builder keeps no
         *              reference to it, nor to any arena buffer, once the call returns
         * @param row   the first row of the chunk: the number of rows added so far
         * @param arena scratch for this call (its buffers may be reused after the call)
         * @throws IllegalArgumentException if the chunk is not the next one, overruns the row count, or phi has the
         *                                  wrong shape or type
         */
        void add(INDArray phi, int row, Arena arena);

        /**
         * The distribution of all rows; call once, after the last chunk.
         *
         * @throws IllegalArgumentException if rows are missing
         */
        PredictiveDistribution build();

        /**
         * Checks that {@code phi} (rank 2) holds the rows following the {@code added} rows of {@code total}, starting
         * at {@code row}; returns the new count of added rows.
         */
        static int checkChunk(INDArray phi, int row, int added, int total) {
            Checks.rank("phi", phi, 2);
            Checks.require(row == added, "chunks must come in row order: expected row %d, got %d", added, row);
            long b = phi.size(0);
            Checks.require(b >= 1 && added + b <= total, "phi must hold 1 to %d rows (%d of %d added), got %d",
                    total - added, added, total, b);
            return (int) (added + b);
        }
    }
}
