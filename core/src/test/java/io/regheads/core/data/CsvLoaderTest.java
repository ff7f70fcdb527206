package io.regheads.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvLoaderTest {

    static final Path ROOT = io.regheads.core.testing.TestDatasets.root();

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void loadsYachtWithTargetLast() {
        Dataset d = CsvLoader.load(ROOT.resolve("yacht.csv"));
        assertEquals(308, d.rows());
        assertEquals(6, d.features());
        assertEquals("y", d.targetName());
        assertEquals(List.of("lcb_position", "prismatic_coefficient", "length_displacement_ratio",
                "beam_draught_ratio", "length_beam_ratio", "froude_number"), d.featureNames());
        // first data line of the file: 0.18182,-0.018136,-0.0086364,0.19318,-0.13682,0.0125,0.15387
        assertArrayEquals(new double[] {0.18182, -0.018136, -0.0086364, 0.19318, -0.13682, 0.0125}, d.row(0), 0.0);
        assertEquals(0.15387, d.y(0), 0.0);
        assertEquals(0.60375, d.y(1), 0.0);
    }

    @Test
    void loadsANamedTargetColumnAndStripsQuotes() throws IOException {
        Path p = write("t.csv", "\"a\", b ,c\n1,2,3\n\n4,5,6\n");
        Dataset d = CsvLoader.load(p, "b");
        assertEquals(List.of("a", "c"), d.featureNames());
        assertEquals("b", d.targetName());
        assertArrayEquals(new double[] {2, 5}, d.y(), 0.0);
        assertArrayEquals(new double[] {4, 6}, d.row(1), 0.0);
    }

    @Test
    void missingFile() {
        Path p = dir.resolve("nope.csv");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p));
        assertEquals("csv must be an existing regular file, got " + p, e.getMessage());
    }

    @Test
    void nonNumericCellNamesLineRowColumnAndText() throws IOException {
        Path p = write("bad.csv", "a,b,y\n1,2,3\n4,abc,6\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p));
        assertEquals("csv cell at line 3 (data row 1), column 2 'b' is not a finite number: 'abc' in " + p,
                e.getMessage());
        Path nan = write("nan.csv", "a,y\nNaN,1\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(nan));
        assertEquals("csv cell at line 2 (data row 0), column 1 'a' is not a finite number: 'NaN' in " + nan,
                e.getMessage());
        Path inf = write("inf.csv", "y,a\n1,inf\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(inf, "y"));
        assertEquals("csv cell at line 2 (data row 0), column 2 'a' is not a finite number: 'inf' in " + inf,
                e.getMessage());
        Path empty = write("emptycell.csv", "a,y\n1,\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(empty));
        assertEquals("csv cell at line 2 (data row 0), column 2 'y' is not a finite number: '' in " + empty,
                e.getMessage());
    }

    /** NaN and infinite targets load (for heads with special tokens); the spellings of the class comment. */
    @Test
    void nonFiniteTargetsLoad() throws IOException {
        Path p = write("special.csv", "a,y\n1,nan\n2,inf\n3,-inf\n4,NaN\n5,+Infinity\n6,-INF\n7,2.5\n");
        Dataset d = CsvLoader.load(p);
        assertArrayEquals(new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 2.5}, d.y(), 0.0);
        Path q = write("special2.csv", "y,a\ninf,1\n2,2\n"); // a named target column too
        assertEquals(Double.POSITIVE_INFINITY, CsvLoader.load(q, "y").y(0));
    }

    @Test
    void raggedRow() throws IOException {
        Path p = write("ragged.csv", "a,b,y\n1,2,3\n4,5\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p));
        assertEquals("csv line 3 (data row 1) has 2 cells, expected 3 as in the header of " + p, e.getMessage());
    }

    @Test
    void emptyFileHeaderOnlyAndTooFewColumns() throws IOException {
        Path empty = write("empty.csv", "\n\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(empty));
        assertEquals("csv must have a header line, got an empty file " + empty, e.getMessage());
        Path headerOnly = write("header.csv", "a,y\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(headerOnly));
        assertEquals("csv must have at least one data row after the header, got none in " + headerOnly, e.getMessage());
        Path one = write("one.csv", "y\n1\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(one));
        assertEquals("csv header must name at least 2 columns (features and a target), got 1 in " + one, e.getMessage());
    }

    @Test
    void unknownOrDuplicateTargetColumn() throws IOException {
        Path p = write("t.csv", "a,b,a\n1,2,3\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p, "z"));
        assertEquals("targetColumn must be one of [a, b, a], got 'z'", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p, "a"));
        assertEquals("targetColumn 'a' must name exactly one column, found it twice in " + p, e.getMessage());
    }
}
