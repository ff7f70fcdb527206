package io.regheads.app.spark;

import io.regheads.app.grid.TaskRunner;

/**
 * Registers {@link SparkTaskRunner} as the task runner {@code "spark"} ({@code META-INF/services}), for {@code
 * regheads uci --spark}. Refers to no Spark type: without Spark on the class path, {@link #open} fails with one line
 * instead of a missing class.
 */
public final class SparkRunnerProvider implements TaskRunner.Provider {
    @Override
    public String name() {
        return "spark";
    }

    /**
     * A Spark runner for {@code target}, a master URL (empty: spark-submit's).
     *
     * @throws IllegalArgumentException if Spark is not on the class path, or as {@link SparkTaskRunner#open}
     */
    @Override
    public TaskRunner open(String target) {
        SparkClassPath.require("uci --spark");
        return SparkTaskRunner.open(target);
    }
}
