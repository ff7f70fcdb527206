package io.regheads.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals("csv cell at line 3 (data row 1), column 2 'b' is not a finite number: 'abc' (expected plain decimal "
                + "or scientific notation such as -12.5 or 1.2e-3) in " + p, e.getMessage());
        Path nan = write("nan.csv", "a,y\nNaN,1\n"); // NaN is a target value only, never a feature
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(nan));
        assertEquals("csv cell at line 2 (data row 0), column 1 'a' is not a finite number: 'NaN' (missing and infinite "
                + "values are not accepted) in " + nan, e.getMessage());
        Path inf = write("inf.csv", "y,a\n1,inf\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(inf, "y"));
        assertEquals("csv cell at line 2 (data row 0), column 2 'a' is not a finite number: 'inf' (missing and infinite "
                + "values are not accepted) in " + inf, e.getMessage());
        Path empty = write("emptycell.csv", "a,y\n1,\n");
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(empty));
        assertEquals("csv cell at line 2 (data row 0), column 2 'y' is not a finite number: '' (the cell is empty; "
                + "missing values are not accepted) in " + empty, e.getMessage());
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
        assertEquals("csv line 3 (data row 1) has 2 cells, expected 3 as in the header of " + p
                + " (delimiter detected: ',')", e.getMessage());
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
        assertEquals("csv header must name at least 2 columns (features and a target), got 1 in " + one
                + " (delimiter detected: ',')", e.getMessage());
    }

    @Test
    void unknownOrDuplicateTargetColumn() throws IOException {
        Path p = write("t.csv", "a,b,a\n1,2,3\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p, "z"));
        assertEquals("targetColumn: no column 'z' in " + p + " (columns: a, b, a)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p, "B"));
        assertEquals("targetColumn: no column 'B' in " + p + "; did you mean 'b'? (columns: a, b, a)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p, "a"));
        assertEquals("targetColumn 'a' must name exactly one column, found it twice in " + p, e.getMessage());
    }

    private String messageOf(Path p) {
        return assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(p)).getMessage();
    }

    @Test
    void quotedNumericCellsAndQuotedCommasInTheHeader() throws IOException {
        Path p = write("q.csv", "\"size, m\",\"x2\",y\n\"1.5\", \"2\" ,3\n\"-4e1\",5,\"6\"\n");
        Dataset d = CsvLoader.load(p);
        assertEquals(List.of("size, m", "x2"), d.featureNames());
        assertArrayEquals(new double[] {1.5, 2}, d.row(0), 0.0);
        assertArrayEquals(new double[] {-40, 5}, d.row(1), 0.0);
        assertArrayEquals(new double[] {3, 6}, d.y(), 0.0);
    }

    @Test
    void anExcelByteOrderMarkIsDropped() throws IOException {
        Path p = dir.resolve("bom.csv");
        byte[] body = "x1,x2,y\r\n1,2,3\r\n4,5,6\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] all = new byte[body.length + 3];
        all[0] = (byte) 0xEF;
        all[1] = (byte) 0xBB;
        all[2] = (byte) 0xBF;
        System.arraycopy(body, 0, all, 3, body.length);
        Files.write(p, all);
        Dataset d = CsvLoader.load(p, "x1");
        assertEquals("x1", d.targetName());
        assertEquals(List.of("x2", "y"), d.featureNames());
        assertArrayEquals(new double[] {1, 4}, d.y(), 0.0);
    }

    @Test
    void semicolonTabAndBarFilesAreDetectedOrNamed() throws IOException {
        Dataset semi = CsvLoader.load(write("s.csv", "a;b;y\n1;2;3\n4;5;6\n"));
        assertEquals(List.of("a", "b"), semi.featureNames());
        assertArrayEquals(new double[] {3, 6}, semi.y(), 0.0);
        Dataset tab = CsvLoader.load(write("t.tsv", "a\tb\ty\n1\t2\t3\n"));
        assertArrayEquals(new double[] {1, 2}, tab.row(0), 0.0);
        // a header with commas inside quotes: the semicolons outside them decide
        assertEquals(';', CsvLoader.detectDelimiter("\"a,b\";\"c,d\";y\n1;2;3"));
        assertEquals(',', CsvLoader.detectDelimiter("\n\nab\n1"));
        Path bar = write("b.txt", "a|y\n1|2\n");
        assertArrayEquals(new double[] {2}, CsvLoader.load(bar).y(), 0.0);
        // a named delimiter overrides detection: here the file has one column per line
        assertEquals("csv header must name at least 2 columns (features and a target), got 1 in " + bar,
                assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(bar, null, ',')).getMessage());
        assertEquals("delimiter must not be a double quote or a line break, got LF",
                assertThrows(IllegalArgumentException.class, () -> CsvLoader.load(bar, null, '\n')).getMessage());
    }

    @Test
    void aDecimalCommaIsNamed() throws IOException {
        Path p = write("de.csv", "a;y\n1,5;2\n");
        assertEquals("csv cell at line 2 (data row 0), column 1 'a' is not a finite number: '1,5' (decimal commas are "
                + "not read; write 1.5) in " + p, messageOf(p));
    }

    @Test
    void onlyPlainDecimalAndScientificNumbersAreRead() throws IOException {
        Dataset ok = CsvLoader.load(write("ok.csv", "a,b,c,d,y\n.5,+3E5,-0.25,1.,12\n"));
        assertArrayEquals(new double[] {0.5, 3e5, -0.25, 1.0}, ok.row(0), 0.0);
        String plain = "expected plain decimal or scientific notation such as -12.5 or 1.2e-3";
        String[][] refused = {{"1.5d", plain}, {"2f", plain}, {"0x1p3", plain}, {"1_000", plain}, {"1e", plain},
            {"inf", "missing and infinite values are not accepted"},
            {"-Infinity", "missing and infinite values are not accepted"},
            {"nan", "missing and infinite values are not accepted"}, {"1e999", "too large for a double"}};
        for (String[] r : refused) {
            Path p = write("r.csv", "a,y\n1,2\n" + r[0] + ",3\n");
            assertEquals("csv cell at line 3 (data row 1), column 1 'a' is not a finite number: '" + r[0] + "' (" + r[1]
                    + ") in " + p, messageOf(p));
        }
    }

    @Test
    void lineNumbersCountCrLfAndQuotedLineBreaks() throws IOException {
        Path p = write("ml.csv", "\"first\nfeature\",y\r\n1,2\r\n\r\n3,x\r\n");
        assertEquals("csv cell at line 5 (data row 1), column 2 'y' is not a finite number: 'x' (expected plain decimal "
                + "or scientific notation such as -12.5 or 1.2e-3) in " + p, messageOf(p));
    }

    @Test
    void malformedTextIsRefusedAsSuch() throws IOException {
        Path quote = write("quote.csv", "a,y\n\"1,2\n");
        assertTrue(messageOf(quote).startsWith("csv " + quote + " is malformed: "), messageOf(quote));
        Path latin1 = dir.resolve("latin1.csv");
        Files.write(latin1, new byte[] {'c', (byte) 0xE9, ',', 'y', '\n', '1', ',', '2', '\n'});
        assertEquals("csv must be UTF-8 text, got other bytes in " + latin1 + " (save it as CSV UTF-8)", messageOf(latin1));
        Path unnamed = write("unnamed.csv", "a,,y\n1,2,3\n");
        assertEquals("csv header must name every column, got an empty name for column 2 in " + unnamed
                + " (delimiter detected: ',')", messageOf(unnamed));
    }
}
