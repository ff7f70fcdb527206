package io.regheads.heads.decoder;

import java.util.function.Supplier;

/**
 * A value computed on first use and kept: the lazy parts of the decoder's immutable inference objects (the vote
 * table, the enumerated leaves, the special-value masses), which cost decoder passes that many callers never need.
 * Thread-safe: concurrent first calls may each compute the value, and every computation gives the same value, so the
 * one kept does not matter. A computation that throws is repeated by the next call.
 *
 * @param <T> the value's type
 */
final class Once<T> {
    private final Supplier<T> compute;
    private volatile T value;

    Once(Supplier<T> compute) {
        this.compute = compute;
    }

    T get() {
        T v = value;
        if (v == null) {
            v = compute.get();
            value = v;
        }
        return v;
    }
}
