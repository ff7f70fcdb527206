package io.regheads.spark;

import io.regheads.core.check.Checks;
import io.regheads.spark.internal.Failures;
import io.regheads.spark.internal.JavaBytes;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;

/**
 * Runs a list of independent tasks (say, the fits of an experiment grid) as Spark tasks: one partition per input, so
 * the cluster's task slots pull them as they free up; the results come back in input order.
 *
 * <pre>{@code
 * List<Integer> squares = SparkTasks.run(spark, List.of(1, 2, 3), i -> i * i);   // [1, 4, 9]
 * }</pre>
 *
 * <p>The task, with everything it captures (the data of a grid, say), is broadcast once; inputs and results travel
 * as Java-serialized bytes, so they may be records or any other {@link Serializable} whatever {@code
 * spark.serializer} is (Kryo cannot rebuild records). A task runs in an executor JVM with that JVM's ND4J settings:
 * results equal a sequential run's when the thread settings are the same (one ND4J thread per task: {@code
 * SD_MAX_THREADS=1 OMP_NUM_THREADS=1} in the executors' environment).
 *
 * <p>Stateless and thread-safe; {@link #run} blocks until every task has finished.
 */
public final class SparkTasks {
    private SparkTasks() {}

    /**
     * One task: computes a result from its input only (not from the order or place it runs in).
     *
     * @param <T> input type
     * @param <R> result type
     */
    @FunctionalInterface
    public interface Task<T, R> extends Serializable {
        /** The result for {@code input}. */
        R apply(T input);
    }

    /**
     * Runs {@code task} on every input, each as one Spark task of one job.
     *
     * @param session the Spark session to run on
     * @param inputs  the inputs, in order
     * @param task    the computation, shipped to the executors
     * @return the results, in input order (empty for no inputs, without a Spark job)
     * @throws IllegalArgumentException if an argument is null, or a task throws one (its message kept)
     */
    public static <T extends Serializable, R extends Serializable> List<R> run(SparkSession session, List<T> inputs,
            Task<T, R> task) {
        Checks.notNull("session", session);
        Checks.notNull("inputs", inputs);
        Checks.notNull("task", task);
        if (inputs.isEmpty()) {
            return List.of();
        }
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(session.sparkContext());
        Broadcast<byte[]> shipped = jsc.broadcast(JavaBytes.of(task));
        List<byte[]> in = new ArrayList<>(inputs.size());
        for (T t : inputs) {
            in.add(JavaBytes.of(Checks.notNull("inputs element", t)));
        }
        try {
            List<byte[]> bytes = Failures.unwrap(() -> jsc.parallelize(in, in.size()).map(b -> {
                Task<T, R> f = JavaBytes.read(shipped.value());
                T input = JavaBytes.read(b);
                return JavaBytes.of(f.apply(input));
            }).collect());
            List<R> out = new ArrayList<>(bytes.size());
            for (byte[] b : bytes) {
                R r = JavaBytes.read(b);
                out.add(r);
            }
            return out;
        } finally {
            shipped.destroy();
        }
    }
}
