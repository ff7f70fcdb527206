package io.regheads.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.heads.model.RegressionModel;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.SparkException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RegressionModelScorerTest {
    static final int N = 500;
    static Dataset data;
    static RegressionModel model;
    static SparkSession spark;

    @BeforeAll
    static void setUp() {
        data = TestData.dataset(N, 11);
        model = TestData.fittedMixture(data);
        spark = LocalSpark.session();
    }

    /** Single-JVM predictions over the batches the scorer forms: per partition slice, chunks of {@code batch}. */
    static PredictiveDistribution[] referenceBatches(int partitions, int batch, int[] starts) {
        java.util.List<PredictiveDistribution> out = new java.util.ArrayList<>();
        int pos = 0;
        for (int k = 0; k < partitions; k++) {
            int from = TestData.sliceStart(N, partitions, k);
            int to = TestData.sliceStart(N, partitions, k + 1);
            for (int s = from; s < to; s += batch) {
                int e = Math.min(to, s + batch);
                double[][] x = new double[e - s][];
                for (int i = s; i < e; i++) {
                    x[i - s] = data.row(i);
                }
                starts[pos++] = s;
                out.add(model.predict(x));
            }
        }
        return out.toArray(PredictiveDistribution[]::new);
    }

    @Test
    void everyColumnEqualsSingleJvmPredictionOverTheSameBatches() {
        int partitions = 3;
        int batch = 64;
        RegressionModelScorer scorer = RegressionModelScorer.of(model).setInputCols("x0", "x1", "x2")
                .setQuantiles(0.1, 0.5, 0.9).setIntervalCoverage(0.8).setLabelCol("y").setBatchSize(batch);
        List<Row> rows = scorer.transform(TestData.frame(spark, data, partitions)).collectAsList();
        assertEquals(N, rows.size());

        int[] starts = new int[N];
        PredictiveDistribution[] ref = referenceBatches(partitions, batch, starts);
        double[] mean = new double[N];
        double[] median = new double[N];
        double[][] q = new double[3][N];
        double[] lower = new double[N];
        double[] upper = new double[N];
        double[] ld = new double[N];
        for (int b = 0; b < ref.length; b++) {
            PredictiveDistribution d = ref[b];
            int s = starts[b];
            double[] y = new double[d.batchSize()];
            for (int i = 0; i < y.length; i++) {
                y[i] = data.y(s + i);
            }
            System.arraycopy(d.mean(), 0, mean, s, y.length);
            System.arraycopy(d.median(), 0, median, s, y.length);
            System.arraycopy(d.inverseCumulativeProbability(0.1), 0, q[0], s, y.length);
            System.arraycopy(d.inverseCumulativeProbability(0.5), 0, q[1], s, y.length);
            System.arraycopy(d.inverseCumulativeProbability(0.9), 0, q[2], s, y.length);
            System.arraycopy(d.inverseCumulativeProbability(0.1), 0, lower, s, y.length); // coverage 0.8: levels 0.1, 0.9
            System.arraycopy(d.inverseCumulativeProbability(0.9), 0, upper, s, y.length);
            System.arraycopy(d.logDensity(y), 0, ld, s, y.length);
        }
        for (Row r : rows) {
            int i = (int) r.getLong(r.fieldIndex("id"));
            assertEquals(data.y(i), r.getDouble(r.fieldIndex("y")));
            assertEquals(mean[i], r.getDouble(r.fieldIndex("mean")), "mean of row " + i);
            assertEquals(median[i], r.getDouble(r.fieldIndex("median")), "median of row " + i);
            List<Double> qs = r.getList(r.fieldIndex("quantiles"));
            assertEquals(List.of(q[0][i], q[1][i], q[2][i]), qs, "quantiles of row " + i);
            assertEquals(lower[i], r.getDouble(r.fieldIndex("lower")), "lower of row " + i);
            assertEquals(upper[i], r.getDouble(r.fieldIndex("upper")), "upper of row " + i);
            assertEquals(ld[i], r.getDouble(r.fieldIndex("log_density")), "log density of row " + i);
        }
    }

    @Test
    void wholeArrayPredictionAgreesToFloatRounding() {
        List<Row> rows = RegressionModelScorer.of(model).setInputCols("x0", "x1", "x2").setMedianCol("")
                .transform(TestData.frame(spark, data, 2)).collectAsList();
        double[] mean = model.predict(data.x()).mean();
        for (Row r : rows) {
            int i = (int) r.getLong(0);
            assertEquals(mean[i], r.getDouble(r.fieldIndex("mean")), 1e-5 * Math.max(1, Math.abs(mean[i])));
        }
        assertEquals(6, rows.get(0).length(), "id, x0, x1, x2, y, mean");
    }

    /**
     * The model records its training columns (x0, x1, x2): the scorer takes them by default and matches set columns by
     * name in any order, so the three give the same numbers (the same batches, the same computation); a column the
     * model was not trained on is refused on the driver.
     */
    @Test
    void aModelWithColumnNamesFindsItsColumnsByName() {
        org.apache.spark.sql.Dataset<Row> df = TestData.frame(spark, data, 2);
        RegressionModelScorer byDefault = RegressionModelScorer.of(model).setMedianCol("").setLabelCol("y");
        assertArrayEquals(new String[] {"x0", "x1", "x2"}, byDefault.getOrDefault(byDefault.inputCols()));
        List<Row> expected = byDefault.transform(df).collectAsList();
        List<Row> shuffled = RegressionModelScorer.of(model).setInputCols("x2", "x0", "x1").setMedianCol("")
                .setLabelCol("y").transform(df).collectAsList();
        assertEquals(expected, shuffled);
        PredictiveDistribution d = model.predict(data.x());
        for (Row r : expected) {
            int i = (int) r.getLong(0);
            assertEquals(d.mean()[i], r.getDouble(5), 1e-5 * Math.max(1, Math.abs(d.mean()[i])), "mean of row " + i);
        }
        RegressionModelScorer wrong = RegressionModelScorer.of(model).setInputCols("x0", "x1", "id");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> wrong.transformSchema(
                TestData.SCHEMA));
        assertEquals("inputCols must name the model's features, got 'id', which it was not trained on (features: x0, "
                + "x1, x2)", e.getMessage());
        assertArrayEquals(model.predict(data.x()).mean(), byDefault.model().predict(data.x()).mean());
    }

    @Test
    void schemaListsTheOutputsInOrder() {
        RegressionModelScorer scorer = RegressionModelScorer.of(model).setInputCols("x0", "x1", "x2")
                .setQuantiles(0.25).setIntervalCoverage(0.5).setLabelCol("y").setMeanCol("m");
        StructType out = scorer.transformSchema(TestData.SCHEMA);
        assertArrayEquals(new String[] {"id", "x0", "x1", "x2", "y", "m", "median", "quantiles", "lower", "upper",
            "log_density"}, out.fieldNames());
        assertEquals(DataTypes.createArrayType(DataTypes.DoubleType, false), out.apply("quantiles").dataType());
    }

    @Test
    void badParametersAndSchemasAreRefusedOnTheDriver() {
        RegressionModelScorer s = RegressionModelScorer.of(model);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.setInputCols("x0", "x1"));
        assertEquals("inputCols must name the model's 3 input columns, got 2: [x0, x1]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.setQuantiles(0.5, 1.0));
        assertEquals("quantiles must lie in (0, 1), got 1.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.setIntervalCoverage(Double.NaN));
        assertEquals("intervalCoverage must be 0 (none) or in (0, 1), got NaN", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.setHandleInvalid("skip"));
        assertEquals("handleInvalid must be \"error\" or \"keep\", got \"skip\"", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> s.setBatchSize(0));
        assertTrue(e.getMessage().startsWith("batchSize must be"), e.getMessage());
        s.setInputCols("x0", "x1", "nope");
        e = assertThrows(IllegalArgumentException.class, () -> s.transformSchema(TestData.SCHEMA));
        assertEquals("inputCols must name columns of the input, got 'nope'; the input has [id, x0, x1, x2, y]",
                e.getMessage());
        s.setInputCols("x0", "x1", "x2").setMeanCol("y");
        e = assertThrows(IllegalArgumentException.class, () -> s.transformSchema(TestData.SCHEMA));
        assertEquals("output column 'y' must be new, but the input or another output already has it", e.getMessage());
        StructType strings = new StructType().add("x0", DataTypes.StringType).add("x1", DataTypes.DoubleType)
                .add("x2", DataTypes.DoubleType);
        s.setMeanCol("mean");
        e = assertThrows(IllegalArgumentException.class, () -> s.transformSchema(strings));
        assertEquals("inputCols column 'x0' must be numeric, got string", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RegressionModelScorer.fromBytes(new byte[] {1, 2, 3}));
        assertTrue(e.getMessage().contains("truncated") || e.getMessage().contains("not a regheads model"), e.getMessage());
    }

    @Test
    void invalidRowsFailTheJobOrGetNullOutputs() {
        StructType schema = new StructType().add("x0", DataTypes.DoubleType, true).add("x1", DataTypes.FloatType, true)
                .add("x2", DataTypes.IntegerType, true).add("y", DataTypes.DoubleType, true);
        List<Row> rows = Arrays.asList(RowFactory.create(0.1, 0.2f, 1, 10.0), RowFactory.create(null, 0.2f, 1, 10.0),
                RowFactory.create(Double.NaN, 0.2f, 1, 10.0), RowFactory.create(0.3, -0.1f, 0, null));
        org.apache.spark.sql.Dataset<Row> df = spark.createDataFrame(rows, schema).coalesce(1);
        RegressionModelScorer s = RegressionModelScorer.of(model).setInputCols("x0", "x1", "x2").setLabelCol("y");
        SparkException e = assertThrows(SparkException.class, () -> s.transform(df).collectAsList());
        assertTrue(String.valueOf(e.getMessage()).contains(
                "feature column 'x0' must be finite in every row, got null in row 1 of the partition"), e.getMessage());

        List<Row> kept = s.setHandleInvalid("keep").transform(df).collectAsList();
        assertEquals(4, kept.size());
        double[][] x = {{0.1, 0.2f, 1}, {0.3, -0.1f, 0}};
        PredictiveDistribution d = model.predict(x);
        assertEquals(d.mean()[0], kept.get(0).getDouble(4));
        assertEquals(d.logDensity(new double[] {10.0, 0.0})[0], kept.get(0).getDouble(6));
        for (int i = 1; i <= 2; i++) {
            for (int c = 4; c <= 6; c++) {
                assertNull(kept.get(i).get(c), "row " + i + ", column " + c);
            }
        }
        assertEquals(d.mean()[1], kept.get(3).getDouble(4));
        assertNull(kept.get(3).get(6), "no label, no log density");
    }
}
