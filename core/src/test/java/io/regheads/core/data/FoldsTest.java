package io.regheads.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FoldsTest {

    @TempDir
    Path dir;

    @Test
    void yachtFoldsHaveTheShippedSizesAndPartitionTheRows() {
        Folds folds = Folds.forDataset(CsvLoaderTest.ROOT, "yacht"); // also cross-checks index_test_k.txt
        assertEquals(308, folds.rows());
        assertEquals(10, folds.count());
        // sizes counted with `sort fold.txt | uniq -c`: 30, 31 x 8, 30
        int[] expected = {30, 31, 31, 31, 31, 31, 31, 31, 31, 30};
        Set<Integer> seen = new HashSet<>();
        for (int k = 0; k < 10; k++) {
            int[] test = folds.testRows(k);
            assertEquals(expected[k], test.length, "fold " + k);
            assertEquals(308 - expected[k], folds.trainRows(k).length);
            for (int r : test) {
                assertTrue(seen.add(r), "row " + r + " in two folds");
                assertEquals(k, folds.foldOf(r));
            }
        }
        assertEquals(308, seen.size());
        // head of fold.txt: 4, 4, 8, 2, 6; head of index_test_0.txt: 12, 16, 26, 33, 62
        assertEquals(4, folds.foldOf(0));
        assertEquals(8, folds.foldOf(2));
        assertArrayEquals(new int[] {12, 16, 26, 33, 62}, java.util.Arrays.copyOf(folds.testRows(0), 5));
    }

    @Test
    void splitGivesTrainAndTestDatasets() {
        Dataset all = CsvLoader.load(CsvLoaderTest.ROOT.resolve("yacht.csv"));
        Folds.Split s = Folds.forDataset(CsvLoaderTest.ROOT, "yacht").split(all, 0);
        assertEquals(278, s.train().rows());
        assertEquals(30, s.test().rows());
        assertArrayEquals(all.row(12), s.test().row(0), 0.0);
        assertEquals(all.y(62), s.test().y(4), 0.0);
        assertArrayEquals(all.row(0), s.train().row(0), 0.0); // row 0 is in fold 4
    }

    @Test
    void rejectsBadFoldFiles() throws IOException {
        Path bad = dir.resolve("fold.txt");
        Files.writeString(bad, "0\n1\nx\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Folds.read(bad));
        assertEquals("fold file line 3 must be an integer fold number, got 'x' in " + bad, e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Folds.of(new int[] {0, 2, 2}));
        assertEquals("every fold in [0, 3) must have a test row, fold 1 has none", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Folds.of(new int[] {0, -1}));
        assertEquals("foldOfRow must be >= 0, got -1 at row 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Folds.read(dir.resolve("none.txt")));
        assertTrue(e.getMessage().startsWith("fold file must be an existing regular file"), e.getMessage());
        Dataset small = Dataset.of(new double[][] {{1}, {2}}, new double[] {1, 2});
        e = assertThrows(IllegalArgumentException.class, () -> Folds.of(new int[] {0, 1, 1}).split(small, 0));
        assertEquals("data must have 3 rows to match the folds, got 2", e.getMessage());
    }

    @Test
    void indexFileThatDisagreesIsReported() throws IOException {
        Path split = Files.createDirectories(dir.resolve("splits").resolve("toy"));
        Files.writeString(split.resolve("fold.txt"), "0\n1\n0\n1\n");
        Files.writeString(split.resolve("index_test_0.txt"), "0\n2\n");
        Files.writeString(split.resolve("index_test_1.txt"), "1\n2\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Folds.forDataset(dir, "toy"));
        assertEquals(split.resolve("index_test_1.txt") + " must list the 2 rows of fold 1 in fold.txt, got 2 rows that differ",
                e.getMessage());
    }
}
