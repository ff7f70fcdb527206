package io.regheads.spark.internal;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Turns a Spark job failure caused by a bad argument on an executor back into the {@link IllegalArgumentException}
 * the same call raises on one machine. Spark wraps a failed task's exception in an {@code
 * org.apache.spark.SparkException} (thrown undeclared from Java's point of view) whose cause is the original when
 * it could be sent back.
 *
 * <p>{@link #unchecked} lets a failed job cross code that handles only unchecked exceptions (the epoch loop tells
 * divergence from errors by them); {@link #unwrap} takes the wrapper off again.
 */
public final class Failures {
    private Failures() {}

    /** A failed Spark job (a checked exception) carried as an unchecked one; {@link #unwrap} rethrows its cause. */
    public static final class JobFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        JobFailed(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Runs {@code job}; a checked exception (a failed Spark job) leaves it wrapped in {@link JobFailed}. */
    public static <T> T unchecked(Supplier<T> job) {
        try {
            return job.get();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) { // SparkException is checked in Java but thrown undeclared by Scala code
            throw new JobFailed(e);
        }
    }

    /**
     * Runs {@code job}; an {@code IllegalArgumentException} in a failure's cause chain is rethrown as such, a {@link
     * JobFailed} as the failure it carries.
     */
    public static <T> T unwrap(Supplier<T> job) {
        try {
            return job.get();
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) { // SparkException is checked in Java but thrown undeclared by Scala code
            Exception failure = e instanceof JobFailed jf ? (Exception) jf.getCause() : e;
            Optional<IllegalArgumentException> iae = illegalArgument(failure);
            if (iae.isPresent()) {
                throw iae.get();
            }
            throw Failures.<RuntimeException>rethrow(failure);
        }
    }

    /** Rethrows {@code e} unchanged (checked or not) without declaring it. */
    @SuppressWarnings("unchecked")
    private static <E extends Exception> E rethrow(Exception e) throws E {
        throw (E) e;
    }

    private static Optional<IllegalArgumentException> illegalArgument(Throwable e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException iae) {
                return Optional.of(new IllegalArgumentException(iae.getMessage(), e));
            }
        }
        return Optional.empty();
    }
}
