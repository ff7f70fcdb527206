package io.regheads.app.spark;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.head.HeadSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.spark.RegressionModelScorer;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Scoring throughput: {@link RegressionModelScorer} on a cached {@code N}-row DataFrame of K partitions against
 * single-JVM {@code predict} over the same batches (each partition's rows in chunks of the batch size), both
 * computing the mean and the log density of the label (with {@code all}: also the median and the 5% and 95%
 * quantiles, which cost a root search per row for mixtures). Also checks that the two give the same numbers. Prints the figures with their provenance (rows, model, JVM, cores, load average).
 *
 * <p>Data: {@code x_ij = sin(0.37 (i + 1)(j + 1))}, {@code y_i = sum_j x_ij^2 / D + 0.1 sin(i)}, computed by the
 * driver for the single-JVM run and by Spark (same formulas, same operation order) for the DataFrame. Model: the default
 * encoder (2 x 256) and the given head, trained for one epoch on the first 20,000 rows.
 */
final class ScoringThroughput {
    private ScoringThroughput() {}

    static void run(SparkSession spark, String head, int rows, int features, int partitions, int batch, int repeats,
            boolean all, PrintWriter out) {
        Checks.atLeast("rows", rows, 1000);
        Checks.atLeast("features", features, 1);
        Checks.atLeast("partitions", partitions, 1);
        Checks.atLeast("batch-size", batch, 1);
        Checks.atLeast("repeats", repeats, 1);
        double[][] x = new double[rows][features];
        double[] y = new double[rows];
        for (int i = 0; i < rows; i++) {
            double s = 0;
            for (int j = 0; j < features; j++) {
                x[i][j] = Math.sin(0.37 * (i + 1) * (j + 1));
                s += x[i][j] * x[i][j];
            }
            y[i] = s / features + 0.1 * Math.sin(i);
        }
        HeadSpec spec = io.regheads.app.cli.HeadCatalog.standard().select(head).get(0).spec().get();
        ModelConfig config = ModelConfig.defaults(spec).withTrainer(TrainerConfig.defaults().withMaxEpochs(1));
        RegressionModel model = RegressionModel.create(config, features);
        int trainRows = Math.min(rows, 20_000);
        model.fit(Dataset.of(Arrays.copyOf(x, trainRows), Arrays.copyOf(y, trainRows)));
        out.printf(Locale.ROOT, "model: %s head, encoder 2 x 256, %d features; %d rows, %d partitions, batch %d; "
                + "outputs: %s%n", head, features, rows, partitions, batch,
                all ? "mean, median, 5% and 95% quantiles, log density" : "mean, log density");
        out.printf(Locale.ROOT, "load average before: %s%n", loadAverage());

        // single JVM, batches aligned with the partitions' slices
        double[] mean = new double[rows];
        double[] logDensity = new double[rows];
        double[] singleSeconds = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            long t0 = System.nanoTime();
            for (int k = 0; k < partitions; k++) {
                int from = (int) ((long) k * rows / partitions);
                int to = (int) ((long) (k + 1) * rows / partitions);
                for (int s = from; s < to; s += batch) {
                    int e = Math.min(to, s + batch);
                    PredictiveDistribution d = model.predict(Arrays.copyOfRange(x, s, e));
                    System.arraycopy(d.mean(), 0, mean, s, e - s);
                    if (all) {
                        d.median();
                        d.inverseCumulativeProbability(0.05);
                        d.inverseCumulativeProbability(0.95);
                    }
                    System.arraycopy(d.logDensity(Arrays.copyOfRange(y, s, e)), 0, logDensity, s, e - s);
                }
            }
            singleSeconds[r] = (System.nanoTime() - t0) * 1e-9;
        }

        // Spark: the same rows, computed by Spark with the same formulas, cached; range(0, N, 1, K) slices contiguously
        Column id = functions.col("id");
        Column[] select = new Column[features + 2];
        select[0] = id;
        Column sumSq = null;
        for (int j = 0; j < features; j++) {
            Column xj = functions.sin(functions.lit(0.37).multiply(id.plus(1)).multiply(j + 1));
            select[j + 1] = xj.as("x" + j);
            sumSq = sumSq == null ? xj.multiply(xj) : sumSq.plus(xj.multiply(xj));
        }
        select[features + 1] = sumSq.divide(features).plus(functions.lit(0.1).multiply(functions.sin(id))).as("y");
        org.apache.spark.sql.Dataset<Row> df = spark.range(0, rows, 1, partitions).select(select).cache();
        df.count();
        String[] cols = new String[features];
        Arrays.setAll(cols, j -> "x" + j);
        RegressionModelScorer scorer = RegressionModelScorer.of(model).setInputCols(cols).setLabelCol("y")
                .setBatchSize(batch);
        if (!all) {
            scorer.setMedianCol("");
        } else {
            scorer.setIntervalCoverage(0.9);
        }
        double[] sparkSeconds = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            long t0 = System.nanoTime();
            scorer.transform(df).write().format("noop").mode("overwrite").save();
            sparkSeconds[r] = (System.nanoTime() - t0) * 1e-9;
        }

        // the same numbers?
        List<Row> scored = scorer.transform(df).select("id", "mean", "log_density").collectAsList();
        int identical = 0;
        double maxDiff = 0;
        for (Row row : scored) {
            int i = (int) row.getLong(0);
            double m = row.getDouble(1);
            double ld = row.getDouble(2);
            identical += m == mean[i] && ld == logDensity[i] ? 1 : 0;
            maxDiff = Math.max(maxDiff, Math.max(Math.abs(m - mean[i]), Math.abs(ld - logDensity[i])));
        }
        df.unpersist();
        out.printf(Locale.ROOT, "single JVM predict: %s s -> best %.0f rows/s%n", seconds(singleSeconds),
                rows / min(singleSeconds));
        out.printf(Locale.ROOT, "Spark %s scorer:  %s s -> best %.0f rows/s (first run includes broadcast and model load)%n",
                spark.sparkContext().master(), seconds(sparkSeconds), rows / min(sparkSeconds));
        out.printf(Locale.ROOT, "same numbers: %d of %d rows bit-identical (mean and log density), max |diff| %.3g%n",
                identical, scored.size(), maxDiff);
        out.printf(Locale.ROOT, "load average after: %s; java %s, %d processors, SD_MAX_THREADS=%s OMP_NUM_THREADS=%s%n",
                loadAverage(), System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                System.getenv("SD_MAX_THREADS"), System.getenv("OMP_NUM_THREADS"));
        out.flush();
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElseThrow();
    }

    private static String seconds(double[] v) {
        StringBuilder sb = new StringBuilder();
        for (double s : v) {
            sb.append(sb.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", s));
        }
        return sb.toString();
    }

    /** The 1, 5 and 15 minute load averages (Linux), or the JVM's 1-minute figure. */
    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(Locale.ROOT, "%.2f", java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage());
        }
    }
}
