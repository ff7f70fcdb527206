package io.regheads.spark.app;

import io.regheads.app.cli.HeadCatalog;
import io.regheads.app.cli.Regheads;
import io.regheads.core.internal.Checks;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.Progress;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.core.head.HeadSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.spark.DataParallelTrainer;
import io.regheads.spark.RegressionModelScorer;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * The Spark entry point of the command line, for {@code spark-submit --class io.regheads.spark.app.SparkMain}:
 *
 * <pre>
 *   score --model FILE --input PATH --output PATH --features a,b,c [--label y] [--quantiles 0.1,0.9]
 *         [--interval 0.9] [--batch-size 4096] [--master URL]
 *   train --input PATH --features a,b,c --label y --model-out FILE [--head mdn] [--epochs 300] [--batch-size 128]
 *         [--lr 1e-3] [--seed 0] [--validation 0.1] [--patience 5] [--partitions K] [--master URL]
 *   uci   [options of regheads uci]        (its fits as Spark tasks: regheads uci --spark)
 *   throughput [--rows 1000000] [--features 8] [--partitions 2] [--batch-size 4096] [--repeats 3] [--head mdn]
 *         [--outputs mean|all] [--master URL]   (scoring rows/s against single-JVM predict; same-numbers check)
 * </pre>
 *
 * <p>Inputs ending in {@code .csv} are read as CSV with a header row (column types inferred), anything else as
 * Parquet. {@code score} writes Parquet, or CSV (with one {@code quantile_<level>} column per level) when the output
 * ends in {@code .csv}. {@code train} trains with {@link DataParallelTrainer} (the heads of {@code regheads compare},
 * default trainer settings of {@link TrainerConfig#defaults()}) and saves the model file. {@code --master} sets the
 * master for runs outside spark-submit (e.g. {@code local[2]}).
 *
 * <p>Exit codes as {@code regheads}: 0 success, 2 bad input (one line on stderr), 1 failure.
 */
public final class SparkMain {
    private SparkMain() {}

    /** Runs the command and exits with its code when it is not 0. */
    public static void main(String[] args) {
        int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (code != 0) {
            System.exit(code);
        }
    }

    /**
     * Runs the command {@code args[0]} with the remaining options.
     *
     * @return 0 on success, 2 for bad input, 1 for a failure
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h")) {
            out.println("usage: SparkMain score|train|uci|throughput [options]  (see docs/spark.md)");
            return args.length == 0 ? Regheads.EXIT_BAD_INPUT : 0;
        }
        String command = args[0];
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (command.equals("uci")) {
            boolean hasSpark = Arrays.stream(rest).anyMatch(a -> a.equals("--spark") || a.startsWith("--spark="));
            String[] uci = hasSpark ? prepend("uci", rest) : prepend("uci", prepend("--spark", rest));
            return Regheads.execute(uci, out, err);
        }
        try {
            Map<String, String> o = options(rest);
            switch (command) {
                case "score" -> score(o, out);
                case "train" -> train(o, out);
                case "throughput" -> throughput(o, out);
                default -> throw new IllegalArgumentException("command must be score, train, uci or throughput, got '" + command + "'");
            }
            return 0;
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("regheads-spark: " + e.getMessage());
            return Regheads.EXIT_BAD_INPUT;
        } catch (RuntimeException e) {
            err.println("regheads-spark: failed: " + e);
            return Regheads.EXIT_FAILURE;
        }
    }

    private static String[] prepend(String first, String[] rest) {
        String[] a = new String[rest.length + 1];
        a[0] = first;
        System.arraycopy(rest, 0, a, 1, rest.length);
        return a;
    }

    private static final Set<String> SCORE = Set.of("model", "input", "output", "features", "label", "quantiles",
            "interval", "batch-size", "master");
    private static final Set<String> TRAIN = Set.of("input", "features", "label", "model-out", "head", "epochs",
            "batch-size", "lr", "seed", "validation", "patience", "partitions", "partition-batch-size", "master");
    private static final Set<String> THROUGHPUT = Set.of("rows", "features", "partitions", "batch-size", "repeats",
            "head", "outputs", "master");

    /** {@code --name value} pairs. */
    static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            Checks.require(args[i].startsWith("--") && i + 1 < args.length,
                    "options must come as --name value pairs, got '%s'", String.join(" ", args));
            o.put(args[i].substring(2), args[i + 1]);
        }
        return o;
    }

    private static String required(Map<String, String> o, String name) {
        String v = o.get(name);
        Checks.require(v != null && !v.isBlank(), "--%s is required", name);
        return v;
    }

    private static void checkKnown(Map<String, String> o, Set<String> known, String command) {
        for (String k : o.keySet()) {
            Checks.require(known.contains(k), "%s has no option --%s; it takes --%s", command, k,
                    String.join(", --", known.stream().sorted().toList()));
        }
    }

    private static SparkSession session(Map<String, String> o, String name) {
        SparkSession.Builder b = SparkSession.builder().appName("regheads " + name);
        String master = o.get("master");
        if (master != null) {
            b = b.master(master);
        } else {
            Checks.require(System.getProperty("spark.master") != null,
                    "--master is required outside spark-submit (e.g. --master local[2])");
        }
        return b.getOrCreate();
    }

    private static Dataset<Row> read(SparkSession spark, String path) {
        return path.toLowerCase(Locale.ROOT).endsWith(".csv")
                ? spark.read().option("header", "true").option("inferSchema", "true").csv(path)
                : spark.read().parquet(path);
    }

    private static String[] list(String csv) {
        return Arrays.stream(csv.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toArray(String[]::new);
    }

    private static void score(Map<String, String> o, PrintWriter out) {
        checkKnown(o, SCORE, "score");
        RegressionModelScorer scorer = RegressionModelScorer.load(Path.of(required(o, "model")))
                .setInputCols(list(required(o, "features")));
        if (o.containsKey("label")) {
            scorer.setLabelCol(o.get("label"));
        }
        double[] q = o.containsKey("quantiles") ? Arrays.stream(list(o.get("quantiles"))).mapToDouble(Double::parseDouble)
                .toArray() : new double[0];
        scorer.setQuantiles(q);
        if (o.containsKey("interval")) {
            scorer.setIntervalCoverage(Double.parseDouble(o.get("interval")));
        }
        if (o.containsKey("batch-size")) {
            scorer.setBatchSize(Integer.parseInt(o.get("batch-size")));
        }
        String output = required(o, "output");
        String input = required(o, "input");
        SparkSession spark = session(o, "score");
        try {
            long t0 = System.nanoTime();
            Dataset<Row> scored = scorer.transform(read(spark, input));
            if (output.toLowerCase(Locale.ROOT).endsWith(".csv")) {
                if (q.length > 0) {
                    Column quantiles = functions.col("quantiles");
                    for (int i = 0; i < q.length; i++) {
                        scored = scored.withColumn("quantile_" + q[i], quantiles.getItem(i));
                    }
                    scored = scored.drop("quantiles");
                }
                scored.write().mode(SaveMode.Overwrite).option("header", "true").csv(output);
            } else {
                scored.write().mode(SaveMode.Overwrite).parquet(output);
            }
            out.printf(Locale.ROOT, "scored %s into %s in %.1f s%n", input, output, (System.nanoTime() - t0) * 1e-9);
        } finally {
            if (o.containsKey("master")) {
                spark.stop();
            }
        }
    }

    private static void throughput(Map<String, String> o, PrintWriter out) {
        checkKnown(o, THROUGHPUT, "throughput");
        SparkSession spark = session(o, "throughput");
        try {
            ScoringThroughput.run(spark, o.getOrDefault("head", "mdn"), Integer.parseInt(o.getOrDefault("rows", "1000000")),
                    Integer.parseInt(o.getOrDefault("features", "8")),
                    Integer.parseInt(o.getOrDefault("partitions", String.valueOf(spark.sparkContext().defaultParallelism()))),
                    Integer.parseInt(o.getOrDefault("batch-size", "4096")), Integer.parseInt(o.getOrDefault("repeats", "3")),
                    outputs(o.getOrDefault("outputs", "mean")), out);
        } finally {
            if (o.containsKey("master")) {
                spark.stop();
            }
        }
    }

    private static boolean outputs(String v) {
        Checks.require(v.equals("mean") || v.equals("all"), "--outputs must be mean or all, got '%s'", v);
        return v.equals("all");
    }

    private static void train(Map<String, String> o, PrintWriter out) {
        checkKnown(o, TRAIN, "train");
        String[] features = list(required(o, "features"));
        String label = required(o, "label");
        Path modelOut = Path.of(required(o, "model-out"));
        HeadSpec head = HeadCatalog.standard().select(o.getOrDefault("head", "mdn")).get(0).spec().get();
        TrainerConfig t = TrainerConfig.defaults();
        t = o.containsKey("epochs") ? t.withMaxEpochs(Integer.parseInt(o.get("epochs"))) : t;
        t = o.containsKey("batch-size") ? t.withBatchSize(Integer.parseInt(o.get("batch-size"))) : t;
        t = o.containsKey("lr") ? t.withLearningRate(Double.parseDouble(o.get("lr"))) : t;
        t = o.containsKey("seed") ? t.withSeed(Long.parseLong(o.get("seed"))) : t;
        t = o.containsKey("validation") ? t.withValidationFraction(Double.parseDouble(o.get("validation"))) : t;
        t = o.containsKey("patience") ? t.withPatience(Integer.parseInt(o.get("patience"))) : t;
        DataParallelTrainer trainer = new DataParallelTrainer(ModelConfig.defaults(head).withTrainer(t))
                .withPartitionBatchSize(Integer.parseInt(o.getOrDefault("partition-batch-size", "0")))
                .withProgress(new ProgressListener() {
                    @Override
                    public void onEpochEnd(Progress p) {
                        out.printf(Locale.ROOT, "epoch %d: train loss %.5f, validation loss %.5f%n", p.epoch(),
                                p.trainLoss(), p.validationLoss());
                    }
                });
        SparkSession spark = session(o, "train");
        try {
            Dataset<Row> data = read(spark, required(o, "input"));
            if (o.containsKey("partitions")) {
                data = data.repartition(Integer.parseInt(o.get("partitions")));
            }
            DataParallelTrainer.Result r = trainer.fit(data, features, label);
            TrainingResult tr = r.training();
            r.model().save(modelOut);
            out.printf(Locale.ROOT, "%s; %d partitions x %d rows per step, %d steps in %.1f s; model written to %s%n",
                    tr.message(), r.partitions(), r.partitionBatchSize(), tr.steps(), tr.wallTime().toNanos() * 1e-9,
                    modelOut);
        } finally {
            if (o.containsKey("master")) {
                spark.stop();
            }
        }
    }
}
