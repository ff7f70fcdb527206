package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Folds;
import org.junit.jupiter.api.Test;

class InputDataTest {

    @Test
    void embeddedAirfoilHasItsShippedTenFolds() {
        InputData d = InputData.embedded();
        assertEquals("airfoil", d.label());
        assertEquals(1503, d.data().rows()); // datasets/manifest.json: rows 1503, features 5
        assertEquals(5, d.data().features());
        assertEquals(10, d.folds().count());
        int total = 0;
        for (int k = 0; k < 10; k++) {
            total += d.folds().testRows(k).length;
        }
        assertEquals(1503, total);
        // first data row of airfoil.csv: -1286.4,-3.4823,-0.034948,20.439,-0.0091117,8.8281
        assertEquals(8.8281, d.data().y(0), 0.0);
        assertEquals(-1286.4, d.data().x(0, 0), 0.0);
    }

    @Test
    void parsesFoldLists() {
        assertArrayEquals(new int[] {0}, InputData.parseFolds("0", 10));
        assertArrayEquals(new int[] {0, 1, 2, 7}, InputData.parseFolds("7, 0-2", 10));
        assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, InputData.parseFolds("0-9", 10));
        assertArrayEquals(new int[] {3}, InputData.parseFolds("3,3", 10));
        assertThrows(IllegalArgumentException.class, () -> InputData.parseFolds("10", 10));
        assertThrows(IllegalArgumentException.class, () -> InputData.parseFolds("5-2", 10));
        assertThrows(IllegalArgumentException.class, () -> InputData.parseFolds("a", 10));
        assertThrows(IllegalArgumentException.class, () -> InputData.parseFolds("-1", 10));
        assertThrows(IllegalArgumentException.class, () -> InputData.parseFolds(" ", 10));
    }

    @Test
    void randomFoldsAreBalancedAndSeeded() {
        Folds a = InputData.randomFolds(53, 5);
        assertEquals(10, a.count());
        for (int k = 0; k < 10; k++) {
            int n = a.testRows(k).length;
            assertEquals(k < 3 ? 6 : 5, n, "53 = 3 * 6 + 7 * 5: folds 0..2 get the extra rows");
        }
        Folds b = InputData.randomFolds(53, 5);
        Folds c = InputData.randomFolds(53, 6);
        boolean differs = false;
        for (int i = 0; i < 53; i++) {
            assertEquals(a.foldOf(i), b.foldOf(i));
            differs |= a.foldOf(i) != c.foldOf(i);
        }
        assertTrue(differs, "another seed gives another split");
    }
}
