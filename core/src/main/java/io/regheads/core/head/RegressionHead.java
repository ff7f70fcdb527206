package io.regheads.core.head;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.internal.Checks;
import io.regheads.core.loss.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Turns features {@code phi [B, D]} from any encoder into a predictive distribution over y.
 *
 * <p>Training: {@code targets(y)} converts labels into what the head's losses compare with; {@code forward}
 * returns the output and an immutable cache; a loss fills {@code dOutput}; {@code backward} adds the parameter
 * gradients into {@link Param#grad()} and returns {@code dPhi [B, D]} for the encoder.
 *
 * <p>Inference: {@code distribution(phi)} gives B distributions (a decoder samples or walks its digit tree from
 * phi, so the distribution takes phi rather than one output).
 *
 * <p>Parameters change only in optimizer steps; a head is otherwise safe for concurrent forward passes with
 * separate arenas.
 */
public interface RegressionHead {

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
     */
    Forward forward(INDArray phi, Targets targets, Arena arena);

    /**
     * Backpropagates {@code dOutput} (same form as {@code forward.output()}); adds parameter gradients.
     *
     * @return {@code dPhi [B, D]}
     */
    INDArray backward(Forward forward, HeadOutput dOutput, Arena arena);

    /** The predictive distributions for B rows of features. */
    PredictiveDistribution distribution(INDArray phi);

    /**
     * A builder of the predictive distribution of {@code rows} rows whose features arrive in consecutive chunks: how
     * a model predicts many rows with bounded scratch memory (features of one chunk at a time in reusable buffers).
     * The result must equal {@code distribution(phi)} of all rows at once up to the matrix products' rounding.
     *
     * <p>The default collects copies of the chunks and calls {@link #distribution(INDArray)} on their concatenation.
     * Heads with columnar distributions override it to fill the distribution's flat arrays chunk by chunk, with
     * scratch from the caller's arena.
     *
     * @param rows B >= 1
     * @throws IllegalArgumentException if rows < 1
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
     * The result of a forward pass: the output a loss sees and the head's own cache for backward.
     *
     * @param output what losses see
     * @param cache  head-private intermediate values (immutable)
     */
    record Forward(HeadOutput output, Object cache) {}

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
