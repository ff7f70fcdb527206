package io.regheads.heads.model;

import io.regheads.core.data.Dataset;
import io.regheads.core.data.StandardScaler;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.MlpEncoder;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Rows of x on their way into a model's head: checked, standardised, written into the model's precision and run
 * through its encoder, chunk by chunk through pooled workspaces ({@link InferenceArenas}), so a prediction allocates
 * no native memory once warm. Also the check of a training set's shape ({@link #checkTrain}). Thread-safe (the
 * workspaces are per caller; the encoder is only read).
 */
final class RowEncoder {
    private final MlpEncoder encoder;
    private final DataType type;
    private final int width;
    /** Reused prediction buffers, one workspace per concurrent caller. */
    private final InferenceArenas arenas = new InferenceArenas();

    RowEncoder(MlpEncoder encoder, DataType type, int width) {
        this.encoder = encoder;
        this.type = type;
        this.width = width;
    }

    /** {@return the input width D} */
    int width() {
        return width;
    }

    /**
     * {@code x} itself once checked.
     *
     * @throws IllegalArgumentException if x is null or empty, or a row is null, of another width or not finite
     */
    double[][] check(double[][] x) {
        if (x == null) {
            throw new IllegalArgumentException("x must not be null");
        }
        if (x.length == 0) {
            throw new IllegalArgumentException("x must have at least one row, got 0");
        }
        for (int i = 0; i < x.length; i++) { // explicit tests: no varargs boxing or message strings per row
            if (x[i] == null || x[i].length != width) {
                throw new IllegalArgumentException("x row " + i + " must have " + width + " features, got "
                        + (x[i] == null ? "null" : String.valueOf(x[i].length)));
            }
            for (int j = 0; j < width; j++) {
                if (!Double.isFinite(x[i][j])) {
                    throw new IllegalArgumentException("x row " + i + " must be finite everywhere, got " + x[i][j]
                            + " at index " + j);
                }
            }
        }
        return x;
    }

    /**
     * {@code train} itself once checked as {@code fit} needs it.
     *
     * @throws IllegalArgumentException if train is null, has another feature count or fewer than 2 rows
     */
    Dataset checkTrain(Dataset train) {
        Checks.notNull("train", train);
        Checks.require(train.features() == width, "train must have %d features, got %d", width, train.features());
        Checks.require(train.rows() >= 2, "train must have at least 2 rows, got %d", train.rows());
        return train;
    }

    /**
     * The head's distribution in its own units for rows of x (checked), standardised by {@code scaler}: the chunks'
     * features go to the head's {@link RegressionHead#distributionBuilder}.
     */
    PredictiveDistribution headUnits(RegressionHead<?> head, StandardScaler scaler, double[][] x) {
        int n = x.length;
        RegressionHead.DistributionBuilder out = head.distributionBuilder(n);
        double[] mean = scaler.mean();
        double[] scale = scaler.scale();
        InferenceArenas.Workspace w = arenas.acquire();
        try {
            for (int from = 0; from < n; from += InferenceArenas.CHUNK_ROWS) {
                int rows = Math.min(InferenceArenas.CHUNK_ROWS, n - from);
                Arena arena = w.arenaFor(rows);
                out.add(encoder.infer(standardised(x, from, rows, mean, scale, arena), arena), from, arena);
            }
        } finally {
            arenas.release(w);
        }
        return out.build();
    }

    /** Rows {@code [from, from + rows)} of x standardised, {@code (x - mean) / scale}, in an arena array. */
    private INDArray standardised(double[][] x, int from, int rows, double[] mean, double[] scale, Arena arena) {
        int d = width;
        INDArray in = arena.get(type, rows, d); // [rows, D]
        if (type == DataType.FLOAT) {
            float[] flat = arena.floats(rows * d);
            for (int i = 0; i < rows; i++) {
                double[] row = x[from + i];
                for (int j = 0; j < d; j++) {
                    flat[i * d + j] = (float) ((row[j] - mean[j]) / scale[j]);
                }
            }
            Host.write(flat, in);
        } else {
            double[] flat = arena.doubles(rows * d);
            for (int i = 0; i < rows; i++) {
                double[] row = x[from + i];
                for (int j = 0; j < d; j++) {
                    flat[i * d + j] = (row[j] - mean[j]) / scale[j];
                }
            }
            Host.write(flat, in);
        }
        return in;
    }

    /** phi {@code [B, width]} for all rows of {@code z} at once (already standardised), in fresh arrays. */
    INDArray encode(double[][] z) {
        int n = z.length;
        int d = z[0].length;
        INDArray in;
        if (type == DataType.FLOAT) { // one flat copy: Nd4j.createFromArray(double[][]) costs ~25 us per row
            float[] flat = new float[n * d];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < d; j++) {
                    flat[i * d + j] = (float) z[i][j];
                }
            }
            in = Nd4j.create(flat, new long[] {n, d}, 'c');
        } else {
            double[] flat = new double[n * d];
            for (int i = 0; i < n; i++) {
                System.arraycopy(z[i], 0, flat, i * d, d);
            }
            in = Nd4j.create(flat, new long[] {n, d}, 'c');
        }
        return encoder.infer(in);
    }
}
