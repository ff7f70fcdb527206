/**
 * Experiment grids as lists of independent tasks: {@link io.regheads.app.grid.TaskRunner} runs them one after
 * another in this JVM, or hands them to a runner found by name on the class path ({@code io.regheads.app.spark}
 * provides {@code "spark"}, which runs each task as a Spark task when Spark is on the class path).
 */
package io.regheads.app.grid;
