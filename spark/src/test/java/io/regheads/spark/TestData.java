package io.regheads.spark;

import io.regheads.core.data.Dataset;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.head.HeadSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/** Small synthetic regression data and models for the Spark tests. */
final class TestData {
    private TestData() {}

    /** Column names of {@link #rows}: id, x0, x1, x2, y. */
    static final StructType SCHEMA = new StructType()
            .add("id", DataTypes.LongType, false)
            .add("x0", DataTypes.DoubleType, false)
            .add("x1", DataTypes.DoubleType, false)
            .add("x2", DataTypes.DoubleType, false)
            .add("y", DataTypes.DoubleType, false);

    /** {@code n} rows of y = sin(3 x0) + x1 x2 + noise with heteroscedastic noise, x uniform on [-1, 1]^3. */
    static Dataset dataset(int n, long seed) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        double[][] x = new double[n][3];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 3; j++) {
                x[i][j] = 2 * rng.nextDouble() - 1;
            }
            double noise = (0.05 + 0.2 * Math.abs(x[i][0])) * (rng.nextDouble() + rng.nextDouble() - 1);
            y[i] = 10 + Math.sin(3 * x[i][0]) + x[i][1] * x[i][2] + noise;
        }
        return Dataset.of(x, y);
    }

    /** The rows of {@code data} as Spark rows (id = row number). */
    static List<Row> rows(Dataset data) {
        List<Row> out = new ArrayList<>(data.rows());
        for (int i = 0; i < data.rows(); i++) {
            out.add(RowFactory.create((long) i, data.x(i, 0), data.x(i, 1), data.x(i, 2), data.y(i)));
        }
        return out;
    }

    /**
     * {@code data} as a DataFrame of {@code partitions} partitions; partition k holds the contiguous rows {@code
     * [k n / K, (k + 1) n / K)} (how {@code parallelize} slices a list).
     */
    static org.apache.spark.sql.Dataset<Row> frame(SparkSession spark, Dataset data, int partitions) {
        JavaRDD<Row> rdd = JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(rows(data), partitions);
        return spark.createDataFrame(rdd, SCHEMA);
    }

    /** Start of partition k of n rows sliced into K (as {@code parallelize} does). */
    static int sliceStart(int n, int partitions, int k) {
        return (int) ((long) k * n / partitions);
    }

    /** A small model config: encoder 2 x 16, the given head, a few epochs. */
    static ModelConfig config(HeadSpec head, int epochs) {
        TrainerConfig t = TrainerConfig.defaults().withMaxEpochs(epochs).withBatchSize(32).withSeed(3);
        return new ModelConfig(2, 16, head, null, t);
    }

    /** A fitted small model with a 3-component mixture head. */
    static RegressionModel fittedMixture(Dataset train) {
        RegressionModel m = RegressionModel.create(config(new MixtureSpec(3), 3), 3);
        m.fit(train);
        return m;
    }
}
