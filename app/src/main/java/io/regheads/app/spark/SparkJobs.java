package io.regheads.app.spark;

import io.regheads.app.cli.HeadCatalog;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.train.Progress;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.spark.DataParallelTrainer;
import io.regheads.spark.RegressionModelScorer;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The Spark work of the {@link SparkMain} commands: sessions, reading and writing tables, scoring and training. Loaded
 * only once {@link SparkClassPath#require} has found Spark. Stateless.
 */
final class SparkJobs {
    private SparkJobs() {}

    /**
     * A Spark session for one command, closed with it only if the command started it: the session spark-submit (or
     * the caller) already runs, else a new one for {@code master}.
     */
    record Session(SparkSession spark, boolean owned) implements AutoCloseable {
        static Session open(String master, String command) {
            var active = SparkSession.getActiveSession();
            if (active.isEmpty()) {
                active = SparkSession.getDefaultSession();
            }
            if (active.isDefined() && !active.get().sparkContext().isStopped()) {
                return new Session(active.get(), false);
            }
            Checks.require(master != null || System.getProperty("spark.master") != null,
                    "--master is required outside spark-submit (e.g. --master local[2]), got none");
            SparkSession.Builder b = SparkSession.builder().appName("regheads " + command);
            if (master != null) {
                b = b.master(master);
            }
            return new Session(b.getOrCreate(), true);
        }

        @Override
        public void close() {
            if (owned) {
                spark.stop();
            }
        }
    }

    /** A table: CSV with a header row (types inferred) when the path ends in .csv, else Parquet. */
    static Dataset<Row> read(SparkSession spark, String path) {
        return path.toLowerCase(Locale.ROOT).endsWith(".csv")
                ? spark.read().option("header", "true").option("inferSchema", "true").csv(path)
                : spark.read().parquet(path);
    }

    static void score(SparkScoreCommand c, PrintWriter out) {
        RegressionModelScorer scorer = RegressionModelScorer.load(c.model).setBatchSize(c.batchSize);
        if (c.features != null) {
            scorer.setInputCols(c.features.toArray(String[]::new));
        } else {
            Checks.require(!scorer.model().featureNames().isEmpty(), "--features is required: the model %s records "
                    + "no column names (give its %d feature columns in its input order)", c.model, scorer.inputWidth());
        }
        if (c.label != null) {
            scorer.setLabelCol(c.label);
        }
        double[] q = c.quantiles == null ? new double[0] : c.quantiles.stream().mapToDouble(Double::doubleValue).toArray();
        scorer.setQuantiles(q);
        if (c.interval != null) {
            scorer.setIntervalCoverage(c.interval);
        }
        try (Session s = Session.open(c.master, "score")) {
            long t0 = System.nanoTime();
            Dataset<Row> data = read(s.spark(), c.input);
            if (c.partitions != null) {
                data = data.repartition(c.partitions);
            }
            Dataset<Row> scored = scorer.transform(data);
            if (c.output.toLowerCase(Locale.ROOT).endsWith(".csv")) {
                if (q.length > 0) {
                    Column quantiles = functions.col("quantiles");
                    for (int i = 0; i < q.length; i++) {
                        scored = scored.withColumn("quantile_" + q[i], quantiles.getItem(i));
                    }
                    scored = scored.drop("quantiles");
                }
                scored.write().mode(SaveMode.Overwrite).option("header", "true").csv(c.output);
            } else {
                scored.write().mode(SaveMode.Overwrite).parquet(c.output);
            }
            out.printf(Locale.ROOT, "scored %s into %s (%d partitions) in %.1f s%n", c.input, c.output,
                    scored.rdd().getNumPartitions(), (System.nanoTime() - t0) * 1e-9);
            out.flush();
        }
    }

    static void train(SparkTrainCommand c, PrintWriter out) {
        HeadSpec head = HeadCatalog.standard().select(c.head).get(0).spec().get();
        TrainerConfig t = TrainerConfig.defaults();
        t = c.epochs != null ? t.withMaxEpochs(c.epochs) : t;
        t = c.batchSize != null ? t.withBatchSize(c.batchSize) : t;
        t = c.learningRate != null ? t.withLearningRate(c.learningRate) : t;
        t = c.seed != null ? t.withSeed(c.seed) : t;
        t = c.validation != null ? t.withValidationFraction(c.validation) : t;
        t = c.patience != null ? t.withPatience(c.patience) : t;
        DataParallelTrainer trainer = new DataParallelTrainer(ModelConfig.defaults(head).withTrainer(t))
                .withPartitionBatchSize(c.partitionBatchSize);
        if (!c.quiet) {
            trainer = trainer.withProgress(new ProgressListener() {
                @Override
                public void onEpochEnd(Progress p) {
                    out.printf(Locale.ROOT, "epoch %d: train loss %.5f, validation loss %.5f%n", p.epoch(),
                            p.trainLoss(), p.validationLoss());
                    out.flush();
                }
            });
        }
        List<String> features = c.features;
        try (Session s = Session.open(c.master, "train")) {
            Dataset<Row> data = read(s.spark(), c.input);
            if (c.partitions != null) {
                data = data.repartition(c.partitions);
            }
            DataParallelTrainer.Result r = trainer.fit(data, features.toArray(String[]::new), c.label);
            TrainingResult tr = r.training().requireConverged();
            RegressionModel model = r.model();
            model.save(c.modelOut);
            out.printf(Locale.ROOT, "%s; %d partitions x %d rows per step, %d steps in %.1f s; model written to %s%n",
                    tr.message(), r.partitions(), r.partitionBatchSize(), tr.steps(), tr.wallTime().toNanos() * 1e-9,
                    c.modelOut);
            out.flush();
        }
    }

    static void throughput(ThroughputCommand c, PrintWriter out) {
        try (Session s = Session.open(c.master, "throughput")) {
            int partitions = c.partitions != null ? c.partitions : s.spark().sparkContext().defaultParallelism();
            ScoringThroughput.run(s.spark(), c.head, c.rows, c.features, partitions, c.batchSize, c.repeats,
                    c.outputs.equals("all"), out);
        }
    }
}
