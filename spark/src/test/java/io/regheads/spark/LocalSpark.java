package io.regheads.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The test suite's Spark: one local-mode session with two worker threads for the whole test JVM (starting a
 * session costs seconds), no web UI, loopback only.
 */
public final class LocalSpark {
    private static SparkSession session;

    private LocalSpark() {}

    /** The shared {@code local[2]} session (created on first use, stopped when the JVM exits). */
    public static synchronized SparkSession session() {
        if (session == null || session.sparkContext().isStopped()) {
            session = SparkSession.builder()
                    .master("local[2]")
                    .appName("regheads-spark-tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "2")
                    .getOrCreate();
            session.sparkContext().setLogLevel("WARN");
            SparkSession s = session;
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop));
        }
        return session;
    }
}
