package io.regheads.spark.internal;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.heads.model.RegressionModel;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * Scores one partition: reads up to {@code batchSize} rows, predicts them with one {@link RegressionModel#predict}
 * call on the executor's cached model (the columns named, in the model's order), and emits each input row followed by the plan's output columns. Rows are
 * pulled lazily, so a partition never holds more than one batch.
 *
 * <p>Serializable (shipped with the job); the model itself arrives once per executor through the broadcast.
 */
public final class ScorePartition implements MapPartitionsFunction<Row, Row> {
    private static final long serialVersionUID = 1L;

    private final Broadcast<ModelPayload> model;
    private final ScoringPlan plan;

    /** Scores with the model in {@code model} as {@code plan} says. */
    public ScorePartition(Broadcast<ModelPayload> model, ScoringPlan plan) {
        this.model = model;
        this.plan = plan;
    }

    @Override
    public Iterator<Row> call(Iterator<Row> rows) {
        RegressionModel m = ExecutorModels.shared(model::value);
        return new Batches(m, plan, rows);
    }

    /** The lazy output iterator. */
    private static final class Batches implements Iterator<Row> {
        private final RegressionModel model;
        private final ScoringPlan plan;
        private final Iterator<Row> in;
        private final Row[] batch;
        private final Row[] out;
        /** The feature columns in the model's order: predict matches them by name (the identity order). */
        private final List<String> columns;
        private int pos;
        private int len;
        private long rowsSeen;

        Batches(RegressionModel model, ScoringPlan plan, Iterator<Row> in) {
            this.model = model;
            this.plan = plan;
            this.in = in;
            this.batch = new Row[plan.batchSize()];
            this.out = new Row[plan.batchSize()];
            this.columns = List.of(plan.featureNames());
        }

        @Override
        public boolean hasNext() {
            if (pos < len) {
                return true;
            }
            len = 0;
            pos = 0;
            while (len < batch.length && in.hasNext()) {
                batch[len++] = in.next();
            }
            if (len > 0) {
                score();
            }
            return len > 0;
        }

        @Override
        public Row next() {
            if (!hasNext()) {
                throw new NoSuchElementException("no more rows in this partition");
            }
            Row r = out[pos];
            out[pos] = null;
            batch[pos] = null;
            pos++;
            return r;
        }

        /** Predicts batch[0 .. len) into out[0 .. len). */
        private void score() {
            boolean[] valid = new boolean[len];
            double[][] x = new double[len][];
            double[] y = new double[len];
            int n = 0;
            for (int i = 0; i < len; i++) {
                double[] row = features(batch[i], rowsSeen + i);
                valid[i] = row != null;
                if (row != null) {
                    x[n] = row;
                    y[n] = label(batch[i]);
                    n++;
                }
            }
            double[][] cols = n == 0 ? null : predict(n == len ? x : Arrays.copyOf(x, n), Arrays.copyOf(y, n));
            int k = 0;
            for (int i = 0; i < len; i++) {
                Row r = batch[i];
                int w = r.length();
                Object[] values = new Object[w + plan.outputColumns()];
                for (int j = 0; j < w; j++) {
                    values[j] = r.get(j);
                }
                if (valid[i]) {
                    fill(values, w, cols, k++);
                }
                out[i] = RowFactory.create(values);
            }
            rowsSeen += len;
        }

        /**
         * The output columns for rows x {@code [n][D]} with labels y {@code [n]} (NaN: none): slot 0 mean, 1 median,
         * 2 and 3 the interval bounds, 4 the log density (NaN where there is no label), 5.. the quantiles; unused
         * slots stay null.
         */
        private double[][] predict(double[][] x, double[] y) {
            PredictiveDistribution dist = model.predict(x, columns);
            double[] q = plan.quantiles();
            double[][] cols = new double[5 + q.length][];
            if (plan.mean()) {
                cols[0] = dist.mean();
            }
            if (plan.median()) {
                cols[1] = dist.median();
            }
            if (plan.interval() != null) {
                cols[2] = dist.inverseCumulativeProbability(plan.interval()[0]);
                cols[3] = dist.inverseCumulativeProbability(plan.interval()[1]);
            }
            if (plan.labelIndex() >= 0) {
                double[] yFinite = new double[y.length];
                for (int i = 0; i < y.length; i++) {
                    yFinite[i] = Double.isNaN(y[i]) ? 0.0 : y[i];
                }
                double[] ld = dist.logDensity(yFinite);
                for (int i = 0; i < y.length; i++) {
                    if (Double.isNaN(y[i])) {
                        ld[i] = Double.NaN;
                    }
                }
                cols[4] = ld;
            }
            for (int j = 0; j < q.length; j++) {
                cols[5 + j] = dist.inverseCumulativeProbability(q[j]);
            }
            return cols;
        }

        private void fill(Object[] values, int at, double[][] cols, int k) {
            int c = at;
            if (plan.mean()) {
                values[c++] = cols[0][k];
            }
            if (plan.median()) {
                values[c++] = cols[1][k];
            }
            int q = plan.quantiles().length;
            if (q > 0) {
                double[] qs = new double[q];
                for (int j = 0; j < q; j++) {
                    qs[j] = cols[5 + j][k];
                }
                values[c++] = qs;
            }
            if (plan.interval() != null) {
                values[c++] = cols[2][k];
                values[c++] = cols[3][k];
            }
            if (plan.labelIndex() >= 0) {
                double ld = cols[4][k];
                values[c] = Double.isNaN(ld) ? null : ld;
            }
        }

        /** The label of {@code r}, or NaN when there is no label column or its value is missing or not finite. */
        private double label(Row r) {
            if (plan.labelIndex() < 0) {
                return Double.NaN;
            }
            Object v = r.get(plan.labelIndex());
            double y = v == null ? Double.NaN : ((Number) v).doubleValue();
            return Double.isFinite(y) ? y : Double.NaN;
        }

        /**
         * The model inputs of row {@code r}, or null when one is missing or not finite and the plan keeps such rows.
         *
         * @param index row number within the partition, for the error message
         * @throws IllegalArgumentException for a missing or non-finite feature when the plan does not keep such rows
         */
        private double[] features(Row r, long index) {
            int[] idx = plan.featureIndex();
            double[] row = new double[idx.length];
            for (int j = 0; j < idx.length; j++) {
                Object v = r.get(idx[j]);
                double d = v == null ? Double.NaN : ((Number) v).doubleValue();
                if (!Double.isFinite(d)) {
                    if (plan.keepInvalid()) {
                        return null;
                    }
                    throw new IllegalArgumentException("feature column '" + plan.featureNames()[j]
                            + "' must be finite in every row, got " + (v == null ? "null" : String.valueOf(d))
                            + " in row " + index + " of the partition (set handleInvalid to \"keep\" for null outputs)");
                }
                row[j] = d;
            }
            return row;
        }
    }
}
