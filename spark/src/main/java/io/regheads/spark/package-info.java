/**
 * regheads on Apache Spark: scoring tables with a saved model ({@link io.regheads.spark.RegressionModelScorer}, a
 * Spark ML {@code Transformer}), synchronous data-parallel training ({@link io.regheads.spark.DataParallelTrainer},
 * and as a Spark ML {@code Estimator} whose fit returns the scorer, {@link io.regheads.spark.DataParallelEstimator})
 * and independent tasks as Spark tasks ({@link io.regheads.spark.SparkTasks}). Spark 4.0 on Scala 2.13, a provided
 * dependency: the cluster (or, for a local run, the class path) supplies it. The command line on Spark is the
 * application's, not this library's.
 *
 * <p>Models travel as the bytes {@code RegressionModel.save} writes, broadcast once and loaded once per executor
 * JVM; parameters and gradients travel as flat {@code double[]} (plain arrays survive every Spark serializer, ND4J
 * arrays do not survive Kryo). Shapes: D features, B rows, K partitions, b rows per partition and step, P
 * parameters.
 *
 * <p>Reference: synchronous data-parallel SGD as in MLlib's {@code GradientDescent} (one {@code treeAggregate} of
 * gradient sums per step, the update on the driver); the equivalence with one machine at batch {@code K b} is the
 * large-batch view of Goyal et al., Accurate, Large Minibatch SGD (2017).
 */
package io.regheads.spark;
