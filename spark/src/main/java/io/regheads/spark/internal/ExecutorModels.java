package io.regheads.spark.internal;

import io.regheads.core.check.Checks;
import io.regheads.core.nn.Arena;
import io.regheads.heads.model.RegressionModel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Models loaded in this JVM (an executor, or the driver in local mode), keyed by {@link ModelPayload#token()}: each
 * payload is read once per JVM, not once per task or partition.
 *
 * <p>Two kinds of use: {@link #shared} gives one instance for read-only prediction (a fitted {@code
 * RegressionModel} may predict from several threads at once); {@link #borrow} lends an instance that the caller may
 * change (parameters, gradients) until it gives it back, so concurrent tasks of one executor never share mutable
 * state. At most {@link #CAPACITY} payloads are kept; the least recently used is dropped first.
 *
 * <p>Thread-safe.
 */
public final class ExecutorModels {
    /** Payloads kept per JVM. */
    public static final int CAPACITY = 8;

    private static final Map<String, Entry> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > CAPACITY;
        }
    };

    private ExecutorModels() {}

    /** One payload's models: the shared one (loaded on first use) and a pool of lendable ones. */
    private static final class Entry {
        private final byte[] bytes;
        private volatile RegressionModel shared;
        private final ConcurrentLinkedQueue<Lease> pool = new ConcurrentLinkedQueue<>();

        Entry(byte[] bytes) {
            this.bytes = bytes;
        }

        synchronized RegressionModel shared() {
            if (shared == null) {
                shared = ModelBytes.load(bytes);
            }
            return shared;
        }
    }

    private static Entry entry(Supplier<ModelPayload> payload) {
        ModelPayload p = Checks.notNull("payload", payload.get());
        synchronized (CACHE) {
            return CACHE.computeIfAbsent(p.token(), t -> new Entry(p.bytes()));
        }
    }

    /**
     * The JVM's read-only instance of the payload's model (loaded on first use). Callers must not change it.
     *
     * @param payload gives the payload (e.g. {@code broadcast::value}); called on every lookup, so it should be cheap
     */
    public static RegressionModel shared(Supplier<ModelPayload> payload) {
        return entry(payload).shared();
    }

    /**
     * An instance of the payload's model, with its own scratch arena, that only the caller uses until {@link
     * Lease#close()}.
     */
    public static Lease borrow(Supplier<ModelPayload> payload) {
        Entry e = entry(payload);
        Lease l = e.pool.poll();
        if (l == null) {
            return new Lease(e, ModelBytes.load(e.bytes));
        }
        l.closed = false;
        return l;
    }

    /** Drops every cached model of this JVM (tests). */
    public static void clear() {
        synchronized (CACHE) {
            CACHE.clear();
        }
    }

    /**
     * A borrowed model and its scratch arena; {@link #close()} gives both back to the pool. Not thread-safe: one task
     * holds it.
     */
    public static final class Lease implements AutoCloseable {
        private final Entry entry;
        private final RegressionModel model;
        private final Arena arena = Arena.create();
        private boolean closed;

        private Lease(Entry entry, RegressionModel model) {
            this.entry = entry;
            this.model = model;
        }

        /** The borrowed model (its parameters and gradients are whatever the previous borrower left). */
        public RegressionModel model() {
            Checks.require(!closed, "lease must be open, got a closed one");
            return model;
        }

        /** Scratch buffers for this model's forward and backward passes (reset before each pass). */
        public Arena arena() {
            Checks.require(!closed, "lease must be open, got a closed one");
            return arena;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                entry.pool.offer(this);
            }
        }
    }
}
