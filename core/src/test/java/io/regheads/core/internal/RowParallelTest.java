package io.regheads.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class RowParallelTest {

    /** Every row of [from, to) is run exactly once, for row counts around the split points and every minimum. */
    @Test
    void everyRowRunsOnce() {
        for (int from : new int[] {0, 5}) {
            for (int rows = 0; rows <= 40; rows++) {
                for (int min = 1; min <= 9; min += 4) {
                    int to = from + rows;
                    AtomicIntegerArray seen = new AtomicIntegerArray(to);
                    RowParallel.run(from, to, min, (a, b) -> {
                        assertTrue(from <= a && a <= b && b <= to, a + ".." + b);
                        for (int r = a; r < b; r++) {
                            seen.incrementAndGet(r);
                        }
                    });
                    for (int r = 0; r < from + rows; r++) {
                        assertEquals(r < from ? 0 : 1, seen.get(r), "row " + r + " of " + from + ".." + (from + rows));
                    }
                }
            }
        }
    }

    /**
     * Eight callers at once, each splitting 10 000 rows: all finish with every row once (parts no pool thread has
     * started are run by their caller), and the thread count is within [1, cores].
     */
    @Test
    void concurrentCallersAllFinish() throws Exception {
        int t = RowParallel.threads();
        assertTrue(t >= 1 && t <= Runtime.getRuntime().availableProcessors(), "threads " + t);
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<AtomicIntegerArray>> got = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                got.add(callers.submit(() -> {
                    AtomicIntegerArray seen = new AtomicIntegerArray(10_000);
                    for (int k = 0; k < 50; k++) {
                        RowParallel.run(0, 10_000, 10, (a, b) -> {
                            for (int r = a; r < b; r++) {
                                seen.incrementAndGet(r);
                            }
                        });
                    }
                    return seen;
                }));
            }
            for (Future<AtomicIntegerArray> f : got) {
                AtomicIntegerArray seen = f.get();
                for (int r = 0; r < 10_000; r++) {
                    assertEquals(50, seen.get(r), "row " + r);
                }
            }
        } finally {
            callers.shutdown();
        }
    }

    /** An exception of any part reaches the caller as it was thrown; bad arguments are named. */
    @Test
    void exceptionsReachTheCaller() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RowParallel.run(0, 1000, 1, (a, b) -> {
            if (b == 1000) {
                throw new IllegalStateException("last part " + a);
            }
        }));
        assertTrue(e.getMessage().startsWith("last part "), e.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> RowParallel.run(0, 10, 0, (a, b) -> { }));
        assertTrue(bad.getMessage().contains("minRows"), bad.getMessage());
        bad = assertThrows(IllegalArgumentException.class, () -> RowParallel.run(5, 4, 1, (a, b) -> { }));
        assertTrue(bad.getMessage().contains("to must be >= from"), bad.getMessage());
    }
}
