/**
 * The command line on Apache Spark: {@link io.regheads.app.spark.SparkMain} (the {@code spark-submit} entry point:
 * score, train, uci, throughput), the {@code "spark"} task runner behind {@code regheads uci --spark} ({@link
 * io.regheads.app.spark.SparkTaskRunner}) and the scoring-throughput measurement. They use the {@code regheads-spark}
 * library; Spark itself is not on the command line's class path and comes from spark-submit or {@code
 * scripts/spark-local}: without it a Spark command fails with one line.
 */
package io.regheads.app.spark;
