package io.regheads.app.spark;

import io.regheads.app.grid.TaskRunner;
import io.regheads.core.check.Checks;
import io.regheads.spark.SparkTasks;
import java.io.Serializable;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Runs the tasks of an experiment grid as Spark tasks ({@link SparkTasks}: one partition per task, the task with its
 * data broadcast once, results in task order): the {@code "spark"} runner of {@code regheads uci --spark}, found by
 * name through {@link SparkRunnerProvider}. {@code --spark local[2]} starts a local session with two task slots;
 * {@code --spark} alone, under {@code spark-submit}, uses the session spark-submit configures.
 *
 * <p>A task runs in an executor JVM with that JVM's ND4J settings; results equal the sequential run's when the
 * thread settings are the same (one ND4J thread per task is the setting for Spark: {@code SD_MAX_THREADS=1
 * OMP_NUM_THREADS=1} in the executors' environment).
 *
 * <p>Used from one thread; {@link #close()} stops the session only if this runner started it.
 */
public final class SparkTaskRunner implements TaskRunner {
    private final SparkSession session;
    private final boolean owned;

    private SparkTaskRunner(SparkSession session, boolean owned) {
        this.session = session;
        this.owned = owned;
    }

    /**
     * A runner on {@code session} (which stays open after {@link #close()}).
     *
     * @throws IllegalArgumentException if session is null
     */
    public static SparkTaskRunner on(SparkSession session) {
        return new SparkTaskRunner(Checks.notNull("session", session), false);
    }

    /**
     * A runner on the active session, or on a new one for {@code master} (empty: the master spark-submit or the
     * {@code spark.master} system property sets).
     *
     * @throws IllegalArgumentException if master is null, or empty while no master is configured
     */
    public static SparkTaskRunner open(String master) {
        Checks.notNull("master", master);
        var active = SparkSession.getActiveSession();
        if (active.isEmpty()) {
            active = SparkSession.getDefaultSession();
        }
        if (active.isDefined() && !active.get().sparkContext().isStopped()
                && (master.isEmpty() || master.equals(active.get().sparkContext().master()))) {
            return new SparkTaskRunner(active.get(), false);
        }
        Checks.require(!master.isEmpty() || System.getProperty("spark.master") != null,
                "--spark needs a master URL such as local[2] unless it runs under spark-submit, got none");
        SparkSession.Builder b = SparkSession.builder().appName("regheads");
        if (!master.isEmpty()) {
            b = b.master(master);
        }
        return new SparkTaskRunner(b.getOrCreate(), true);
    }

    @Override
    public <T extends Serializable, R extends Serializable> List<R> run(List<T> inputs, Task<T, R> task,
            Consumer<R> onResult) {
        Checks.notNull("inputs", inputs);
        Checks.notNull("task", task);
        Checks.notNull("onResult", onResult);
        List<R> out = SparkTasks.run(session, inputs, task::apply);
        out.forEach(onResult);
        return out;
    }

    @Override
    public String describe() {
        SparkContext sc = session.sparkContext();
        return "spark " + sc.master() + ", " + sc.defaultParallelism() + " task slots";
    }

    @Override
    public void close() {
        if (owned) {
            session.stop();
        }
    }
}
