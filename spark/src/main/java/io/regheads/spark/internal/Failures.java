package io.regheads.spark.internal;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Turns a Spark job failure caused by a bad argument on an executor back into the {@link IllegalArgumentException}
 * the same call raises on one machine. Spark wraps a failed task's exception in an {@code
 * org.apache.spark.SparkException} (thrown undeclared from Java's point of view) whose cause is the original when
 * it could be sent back.
 */
public final class Failures {
    private Failures() {}

    /** Runs {@code job}; an {@code IllegalArgumentException} in a failure's cause chain is rethrown as such. */
    public static <T> T unwrap(Supplier<T> job) {
        try {
            return job.get();
        } catch (IllegalArgumentException e) {
            throw e;
        } catch (Exception e) { // SparkException is checked in Java but thrown undeclared by Scala code
            Optional<IllegalArgumentException> iae = illegalArgument(e);
            if (iae.isPresent()) {
                throw iae.get();
            }
            throw Failures.<RuntimeException>rethrow(e);
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
