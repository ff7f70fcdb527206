/**
 * The command-line side of the Spark integration, which needs the {@code regheads-app} module on the class path
 * (the assembly jar has it): {@link io.regheads.spark.app.SparkMain} ({@code spark-submit} entry point: score,
 * train, uci, throughput) and {@link io.regheads.spark.app.SparkTaskRunner} (the {@code "spark"} task runner behind
 * {@code regheads uci --spark}).
 */
package io.regheads.spark.app;
