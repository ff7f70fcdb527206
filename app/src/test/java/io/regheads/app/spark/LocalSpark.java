package io.regheads.app.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The Spark tests' session: one local-mode session with two worker threads for the test JVM (starting one costs
 * seconds), no web UI, loopback only. The commands under test join it, as they join spark-submit's.
 */
final class LocalSpark {
    private static SparkSession session;

    private LocalSpark() {}

    /** The shared {@code local[2]} session (created on first use, stopped when the JVM exits). */
    static synchronized SparkSession session() {
        if (session == null || session.sparkContext().isStopped()) {
            session = SparkSession.builder()
                    .master("local[2]")
                    .appName("regheads-app-spark-tests")
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
