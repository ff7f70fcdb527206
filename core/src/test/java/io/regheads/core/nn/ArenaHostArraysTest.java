package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;

/** The host-array scratch added to {@link Arena} (floats, doubles): recycled by position like {@code get}. */
class ArenaHostArraysTest {

    @Test
    void recyclesByPositionAndLength() {
        Arena arena = Arena.create();
        float[] f1 = arena.floats(10);
        double[] d1 = arena.doubles(4);
        float[] f2 = arena.floats(3);
        arena.get(DataType.FLOAT, 2, 2);
        assertEquals(4, arena.size());
        arena.reset();
        assertSame(f1, arena.floats(10));
        assertSame(d1, arena.doubles(4));
        float[] f3 = arena.floats(5); // another length in slot 2: replaced, not added
        assertNotSame(f2, f3);
        assertEquals(5, f3.length);
        assertEquals(4, arena.size());
        Arena none = Arena.none();
        assertNotSame(none.floats(3), none.floats(3));
        assertEquals(0, none.size());
    }
}
