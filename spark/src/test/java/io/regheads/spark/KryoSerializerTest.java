package io.regheads.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.regheads.core.data.Dataset;
import io.regheads.core.head.HeadSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.RegressionModel;
import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Training, scoring and tasks ({@link SparkTasks}) with {@code spark.serializer = KryoSerializer} (its own surefire execution,
 * with the module options spark-submit passes): everything the module ships through Spark's serializer is a plain
 * array or class, never a record or an ND4J array, which Spark 4.0's Kryo cannot rebuild.
 */
@Tag("kryo")
class KryoSerializerTest {

    record Square(int value) implements Serializable {}

    @Test
    void trainingScoringAndTasksWorkWithKryo() {
        SparkSession spark = LocalSpark.session();
        assertEquals("org.apache.spark.serializer.KryoSerializer", spark.conf().get("spark.serializer"));
        Dataset data = TestData.dataset(120, 2);
        DataParallelTrainer.Result r = new DataParallelTrainer(TestData.config(new MixtureSpec(2), 1))
                .fit(TestData.frame(spark, data, 2), new String[] {"x0", "x1", "x2"}, "y");
        assertEquals(2, r.partitions());
        RegressionModel model = r.model();
        List<Row> rows = RegressionModelScorer.of(model).setInputCols("x0", "x1", "x2").setQuantiles(0.5)
                .transform(TestData.frame(spark, data, 1)).collectAsList();
        double[] mean = new double[rows.size()];
        for (Row row : rows) {
            mean[(int) row.getLong(0)] = row.getDouble(row.fieldIndex("mean"));
        }
        assertArrayEquals(model.predict(data.x()).mean(), mean, 1e-5);
        assertEquals(List.of(new Square(4), new Square(9)), SparkTasks.run(spark, List.of(2, 3), i -> new Square(i * i)));
    }
}
