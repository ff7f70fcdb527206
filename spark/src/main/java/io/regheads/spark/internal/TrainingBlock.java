package io.regheads.spark.internal;

import io.regheads.core.data.Dataset;
import io.regheads.core.check.Checks;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.FlatParams;
import io.regheads.core.nn.Param;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.model.RegressionModel;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.spark.sql.Row;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * One partition's training data and its share of every step: the single element of each partition of the cached
 * RDD that {@code DataParallelTrainer} builds.
 *
 * <p><b>Rows.</b> The partition's rows in their original order and units, with the split the single-machine
 * trainer would make of them: {@link Trainer#holdout} with the partition's seed ({@link #seed}), so a one-partition
 * run holds out exactly the rows {@code RegressionModel.fit} holds out. A partition of fewer than 2 rows keeps them
 * all for training.
 *
 * <p><b>Steps.</b> Epoch e shuffles the training rows as the single-machine trainer does (one {@code
 * XO_RO_SHI_RO_128_PP} generator per partition, seeded with the partition's seed, shuffling one order array in place
 * every epoch); step s (0-based) takes rows {@code [s * b, min((s + 1) * b, n))} of that order, none once they run
 * out. The rows are mapped to the head's units by the model itself ({@code toHeadUnitsOf}) and fed through {@code
 * trainStep}, whose mean-loss gradient is scaled back by the row count before it leaves the partition.
 *
 * <p><b>State.</b> The head-unit copies and the current shuffle are transient caches, rebuilt (by replaying the
 * shuffles) when Spark recomputes or deserialises the block. Only one task works on a block at a time; the methods
 * synchronise anyway.
 */
public final class TrainingBlock implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Spreads partition seeds (the 64-bit golden ratio). */
    private static final long SEED_STRIDE = 0x9E3779B97F4A7C15L;

    private final int partition;
    private final int features;
    private final double[] x; // [n * d] original units, original order
    private final double[] y; // [n]
    private final int[] train; // rows to train on, in Trainer.holdout's order
    private final int[] validation; // rows to validate on, in Trainer.holdout's order
    private final long seed;

    private transient String unitsOf; // payload token the head-unit copies were made with
    private transient Dataset trainUnits;
    private transient Dataset validationUnits;
    private transient int[] order;
    private transient int orderEpoch;
    private transient UniformRandomProvider rng;

    private TrainingBlock(int partition, int features, double[] x, double[] y, int[] train, int[] validation, long seed) {
        this.partition = partition;
        this.features = features;
        this.x = x;
        this.y = y;
        this.train = train;
        this.validation = validation;
        this.seed = seed;
    }

    /** The seed of partition k: {@code seed + k * 0x9E3779B97F4A7C15} (partition 0 uses the config's seed). */
    public static long seed(long seed, int partition) {
        return seed + partition * SEED_STRIDE;
    }

    /**
     * Reads a partition's rows: columns 0..d-1 the features, column d the label, all doubles (the caller casts).
     *
     * @param names              the feature column names then the label's, for error messages
     * @param seed               the trainer's seed (the partition's is derived from it)
     * @param validationFraction the trainer's validation fraction
     * @throws IllegalArgumentException on a null or non-finite value
     */
    public static TrainingBlock of(int partition, Iterator<Row> rows, String[] names, long seed,
            double validationFraction) {
        int d = names.length - 1;
        List<double[]> read = new ArrayList<>();
        long index = 0;
        while (rows.hasNext()) {
            Row r = rows.next();
            double[] v = new double[d + 1];
            for (int j = 0; j <= d; j++) {
                if (r.isNullAt(j) || !Double.isFinite(r.getDouble(j))) {
                    throw new IllegalArgumentException((j < d ? "feature" : "label") + " column '" + names[j]
                            + "' must be finite in every training row, got " + (r.isNullAt(j) ? "null" : r.getDouble(j))
                            + " in row " + index + " of partition " + partition);
                }
                v[j] = r.getDouble(j);
            }
            read.add(v);
            index++;
        }
        int n = read.size();
        double[] x = new double[n * d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(read.get(i), 0, x, i * d, d);
            y[i] = read.get(i)[d];
        }
        long s = seed(seed, partition);
        int[] train = natural(n);
        int[] validation = new int[0];
        if (validationFraction > 0 && n >= 2) {
            // the trainer's own split, read back through row numbers carried as targets
            double[][] ids = new double[n][1];
            double[] rowNumber = new double[n];
            for (int i = 0; i < n; i++) {
                ids[i][0] = i;
                rowNumber[i] = i;
            }
            TrainerConfig split = TrainerConfig.defaults().withSeed(s).withValidationFraction(validationFraction);
            Trainer.Holdout h = new Trainer(split).holdout(Dataset.of(ids, rowNumber));
            train = toRows(h.train().y());
            validation = toRows(h.validation().y());
        }
        return new TrainingBlock(partition, d, x, y, train, validation, s);
    }

    private static int[] natural(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    private static int[] toRows(double[] ids) {
        int[] r = new int[ids.length];
        for (int i = 0; i < ids.length; i++) {
            r[i] = (int) ids[i];
        }
        return r;
    }

    public int partition() {
        return partition;
    }

    /** Rows trained on. */
    public int trainRows() {
        return train.length;
    }

    /** Rows validated on. */
    public int validationRows() {
        return validation.length;
    }

    /** Statistics of all rows (training and validation, original order): see {@link ColumnMoments}. */
    public ColumnMoments moments(double[] mean) {
        return ColumnMoments.of(x, y, features, mean);
    }

    /**
     * This partition's part of one synchronous step.
     *
     * @param lease  a model (config and scaling as trained) to load the step's parameters into
     * @param token  the payload token of the lease's model (keys the head-unit cache)
     * @param params the step's parameters, flat
     * @param epoch  1-based epoch
     * @param step   0-based step within the epoch
     * @param batch  rows per partition and step, {@code b >= 1}
     * @return the partition's sums; empty once its rows for the epoch have run out
     */
    public synchronized StepSums trainStep(ExecutorModels.Lease lease, String token, double[] params, int epoch, int step,
            int batch) {
        int from = (int) Math.min((long) step * batch, train.length);
        int count = Math.min(batch, train.length - from);
        if (count <= 0) {
            return StepSums.empty();
        }
        RegressionModel m = lease.model();
        units(m, token);
        int[] rows = order(epoch);
        TrainableModel t = m.asTrainable();
        FlatParams.setValues(params, t.params());
        t.params().forEach(Param::zeroGrad);
        INDArray xb = Nd4j.create(t.dataType(), count, features);
        double[] yb = new double[count];
        trainUnits.copyRows(rows, from, count, xb);
        trainUnits.copyTargets(rows, from, count, yb);
        Arena arena = lease.arena();
        arena.reset();
        double loss = t.trainStep(xb, yb, arena);
        double[] g = new double[FlatParams.size(t.params())];
        FlatParams.addGradients(t.params(), count, g);
        return StepSums.of(g, loss * count, count);
    }

    /**
     * The validation loss sum of this partition at {@code params}: {@code evaluate} over chunks of {@code chunk}
     * rows in holdout order, each weighted by its row count (as the single-machine trainer does).
     */
    public synchronized StepSums validate(ExecutorModels.Lease lease, String token, double[] params, int chunk) {
        if (validation.length == 0) {
            return StepSums.empty();
        }
        RegressionModel m = lease.model();
        units(m, token);
        TrainableModel t = m.asTrainable();
        FlatParams.setValues(params, t.params());
        int n = validation.length;
        int[] rows = natural(n);
        double sum = 0;
        Arena arena = lease.arena();
        for (int from = 0; from < n; from += chunk) {
            int count = Math.min(chunk, n - from);
            INDArray xb = Nd4j.create(t.dataType(), count, features);
            double[] yb = new double[count];
            validationUnits.copyRows(rows, from, count, xb);
            validationUnits.copyTargets(rows, from, count, yb);
            arena.reset();
            sum += t.evaluate(xb, yb, arena) * count;
        }
        return StepSums.of(null, sum, n);
    }

    /**
     * The rows this partition holds out, in original units and holdout order: its validation rows, or with {@code
     * useTraining} its training rows. What the model's after-fit step and its diagnosis see, as {@code
     * RegressionModel.fit} gives them its held-out rows.
     *
     * @return {@code {x [n * D] row-major, y [n]}} (plain arrays: they travel through any Spark serializer)
     */
    public double[][] heldOut(boolean useTraining) {
        int[] rows = useTraining ? train : validation;
        double[] hx = new double[rows.length * features];
        double[] hy = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(x, rows[i] * features, hx, i * features, features);
            hy[i] = y[rows[i]];
        }
        return new double[][] {hx, hy};
    }

    /** Builds the head-unit copies with the model's own scaling (once per model payload). */
    private void units(RegressionModel m, String token) {
        if (token.equals(unitsOf)) {
            return;
        }
        int n = y.length;
        trainUnits = null;
        validationUnits = null;
        if (n > 0) {
            double[][] rows = new double[n][];
            for (int i = 0; i < n; i++) {
                rows[i] = java.util.Arrays.copyOfRange(x, i * features, (i + 1) * features);
            }
            Dataset all = m.toHeadUnitsOf(Dataset.of(rows, y));
            trainUnits = train.length > 0 ? all.subset(train) : null;
            validationUnits = validation.length > 0 ? all.subset(validation) : null;
        }
        unitsOf = token;
    }

    /** The shuffled order of the training rows in epoch {@code epoch} (1-based). */
    private int[] order(int epoch) {
        Checks.atLeast("epoch", epoch, 1);
        if (order == null || orderEpoch > epoch) {
            rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
            order = natural(train.length);
            orderEpoch = 0;
        }
        while (orderEpoch < epoch) {
            PermutationSampler.shuffle(rng, order);
            orderEpoch++;
        }
        return order;
    }

    @Override
    public String toString() {
        return "TrainingBlock[partition " + partition + ", " + train.length + " training rows, " + validation.length
                + " validation rows]";
    }
}
