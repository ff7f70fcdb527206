package io.regheads.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The test suite's Spark: one local-mode session with two worker threads for the whole test JVM (starting a
 * session costs seconds), no web UI, loopback only. The system property {@code regheads.spark.serializer} sets
 * {@code spark.serializer} (the kryo test execution).
 */
public final class LocalSpark {
    private static SparkSession session;

    private LocalSpark() {}

    /** The shared {@code local[2]} session (created on first use, stopped when the JVM exits). */
    public static synchronized SparkSession session() {
        if (session == null || session.sparkContext().isStopped()) {
            SparkSession.Builder b = SparkSession.builder();
            String serializer = System.getProperty("regheads.spark.serializer");
            if (serializer != null) {
                b = b.config("spark.serializer", serializer);
            }
            session = b
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
