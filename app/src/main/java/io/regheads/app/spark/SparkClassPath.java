package io.regheads.app.spark;

/**
 * Whether Apache Spark is on the class path: the Spark commands need it, and the plain command line runs without it
 * (Spark is a provided dependency: spark-submit or {@code scripts/spark-local} supplies it). This class refers to no
 * Spark type, so it loads without Spark.
 */
final class SparkClassPath {
    /** A Spark class every command uses. */
    static final String PROBE = "org.apache.spark.sql.SparkSession";

    private SparkClassPath() {}

    /** Whether {@link #PROBE} can be loaded by this class's loader. */
    static boolean present() {
        try {
            Class.forName(PROBE, false, SparkClassPath.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Checks that Spark is there before anything touches it.
     *
     * @param command what needs it, for the message (e.g. {@code "score"})
     * @throws IllegalArgumentException, in one line, when it is not
     */
    static void require(String command) {
        if (!present()) {
            throw new IllegalArgumentException(command + " needs Apache Spark on the class path, and it is not there: "
                    + "run it with spark-submit, or locally with scripts/spark-local (see docs/spark.md)");
        }
    }
}
