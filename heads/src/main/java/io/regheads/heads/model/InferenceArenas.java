package io.regheads.heads.model;

import io.regheads.core.nn.Arena;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scratch memory of a model's predictions: a small pool of workspaces, one per concurrent caller, each holding
 * two reusable {@link Arena}s (one for full chunks of {@link #CHUNK_ROWS} rows, one for a last, shorter chunk, so
 * that alternating sizes do not reallocate). A prediction takes a workspace, runs its chunks through it and gives it
 * back; concurrent predictions take different workspaces, so no buffer is ever shared between threads.
 *
 * <p>Memory: a workspace holds about {@code CHUNK_ROWS * (input width + 3 * encoder width + head output width)}
 * floats of native memory and as much host scratch (12 MB for the peer-sized histogram model), whatever the batch
 * size. At most {@code 2 * availableProcessors} idle workspaces are kept; more concurrent callers get fresh ones,
 * dropped (left to the collector) when given back. Package-private; thread-safe.
 */
final class InferenceArenas {
    /** Rows per chunk: large enough for efficient matrix products, small enough to stay in the caches' reach. */
    static final int CHUNK_ROWS = 4096;

    private final ConcurrentLinkedDeque<Workspace> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger idleCount = new AtomicInteger();
    private final int maxIdle = 2 * Runtime.getRuntime().availableProcessors();

    /** A workspace for the calling thread's exclusive use until {@link #release}. */
    Workspace acquire() {
        Workspace w = idle.pollFirst();
        if (w == null) {
            return new Workspace();
        }
        idleCount.decrementAndGet();
        return w;
    }

    /** Gives a workspace back (kept for the next caller, or dropped when enough are idle). */
    void release(Workspace w) {
        if (idleCount.incrementAndGet() <= maxIdle) {
            idle.offerFirst(w);
        } else {
            idleCount.decrementAndGet();
        }
    }

    /** Two arenas; not thread-safe (one caller at a time, as the pool guarantees). */
    static final class Workspace {
        private final Arena full = Arena.create();
        private final Arena rest = Arena.create();

        /** The arena for a chunk of {@code rows} rows, reset for a new pass. */
        Arena arenaFor(int rows) {
            Arena a = rows == CHUNK_ROWS ? full : rest;
            a.reset();
            return a;
        }
    }
}
