package io.regheads.app.grid;

import io.regheads.core.check.Checks;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * Runs a list of independent tasks (one fit of an experiment grid each) and returns their results in task order.
 *
 * <p>{@link #sequential()} runs them one after another on the calling thread. Other runners are found by name with
 * {@link #open(String, String)} among the {@link Provider}s on the class path ({@link ServiceLoader}); they may run
 * tasks concurrently and in other JVMs, which is why inputs, results and the task itself (with everything it
 * captures) must be {@link Serializable}. A task must depend only on its input and captured state, not on the
 * order or place it runs in, so that every runner gives the same results.
 *
 * <p>Example: {@code try (TaskRunner r = TaskRunner.sequential()) { List<Integer> sq = r.run(List.of(1, 2, 3), i ->
 * i * i, x -> {}); }} gives {@code [1, 4, 9]}.
 *
 * <p>A runner is used from one thread; {@link #close()} releases what it opened (a Spark session it started).
 */
public interface TaskRunner extends AutoCloseable {

    /**
     * One task of a grid.
     *
     * @param <T> input type
     * @param <R> result type
     */
    @FunctionalInterface
    interface Task<T, R> extends Serializable {
        /** Computes the result for {@code input}. */
        R apply(T input);
    }

    /**
     * Runs {@code task} on every input.
     *
     * @param inputs   the inputs, in order
     * @param task     the computation (shipped to wherever it runs)
     * @param onResult called on the calling thread with each result, in input order, as soon as it and every
     *                 earlier one are available (progress output)
     * @return the results, in input order
     * @throws IllegalArgumentException if an argument is null, or a task throws one
     */
    <T extends Serializable, R extends Serializable> List<R> run(List<T> inputs, Task<T, R> task, Consumer<R> onResult);

    /** A short description for output headers, e.g. {@code "sequential"} or {@code "spark local[2], 2 cores"}. */
    String describe();

    /** Releases what the runner opened; it cannot run tasks afterwards. */
    @Override
    void close();

    /** Makes runners of one kind; registered under {@code META-INF/services/io.regheads.app.grid.TaskRunner$Provider}. */
    interface Provider {
        /** The name {@link TaskRunner#open} looks for, e.g. {@code "spark"}. */
        String name();

        /**
         * A runner for {@code target} (its meaning is the provider's: for Spark a master URL such as {@code local[2]},
         * or empty for the one {@code spark-submit} sets).
         */
        TaskRunner open(String target);
    }

    /** A runner that runs every task on the calling thread, one after another. */
    static TaskRunner sequential() {
        return new TaskRunner() {
            @Override
            public <T extends Serializable, R extends Serializable> List<R> run(List<T> inputs, Task<T, R> task,
                    Consumer<R> onResult) {
                Checks.notNull("inputs", inputs);
                Checks.notNull("task", task);
                Checks.notNull("onResult", onResult);
                List<R> out = new ArrayList<>(inputs.size());
                for (T in : inputs) {
                    R r = task.apply(in);
                    onResult.accept(r);
                    out.add(r);
                }
                return out;
            }

            @Override
            public String describe() {
                return "sequential";
            }

            @Override
            public void close() {}
        };
    }

    /**
     * The runner {@code name} from the providers on the class path, opened for {@code target}.
     *
     * @throws IllegalArgumentException if no provider has that name (the message says what to add to the class path)
     */
    static TaskRunner open(String name, String target) {
        Checks.notNull("name", name);
        List<String> known = new ArrayList<>();
        for (Provider p : ServiceLoader.load(Provider.class)) {
            if (p.name().equals(name)) {
                return p.open(target);
            }
            known.add(p.name());
        }
        throw new IllegalArgumentException("no task runner named '" + name + "' on the class path (found "
                + (known.isEmpty() ? "none" : String.join(", ", known)) + ")");
    }
}
