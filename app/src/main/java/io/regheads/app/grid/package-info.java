/**
 * Experiment grids as lists of independent tasks: {@link io.regheads.app.grid.TaskRunner} runs them one after
 * another in this JVM, or hands them to a runner found by name on the class path (the {@code regheads-spark} module
 * provides {@code "spark"}, which runs each task as a Spark task).
 */
package io.regheads.app.grid;
