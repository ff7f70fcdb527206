package io.regheads.core.data;

import io.regheads.core.check.Checks;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Streams a numeric CSV file with a header row, block by block into caller-owned arrays, through Apache Commons CSV:
 * the one reader behind {@link CsvLoader} and the command line, so every command reads a file the same way, and files
 * far larger than the heap are read with bounded memory.
 *
 * <p>Format (RFC 4180 as spreadsheets write it):
 * <ul>
 *   <li>UTF-8 text; a leading byte-order mark (as Excel writes "CSV UTF-8") is dropped;</li>
 *   <li>the delimiter is given, or detected from the header line: whichever of comma, semicolon, tab and vertical
 *       bar occurs most often outside double quotes (comma on a tie or when none occurs; {@link
 *       #detectDelimiter});</li>
 *   <li>cells may be double-quoted ({@code "1.5"}, {@code "a, b"}; {@code ""} inside quotes is one quote); spaces
 *       around cells are dropped; blank lines are skipped;</li>
 *   <li>the first record is the header (column names, at least one, none empty); every following record is one
 *       row with exactly as many cells as the header;</li>
 *   <li>every data cell is a finite number in plain decimal or scientific notation: an optional sign, digits with
 *       an optional decimal point, an optional exponent ({@code 12}, {@code -0.5}, {@code .5}, {@code 1.2e-3},
 *       {@code +3E5}). Everything else is refused: empty cells, {@code NaN}, {@code inf} and {@code Infinity}
 *       (missing or infinite values), Java-only forms such as {@code 1.5d}, {@code 2f} and {@code 0x1p3}, decimal
 *       commas ({@code 1,5}), and numbers too large for a double ({@code 1e999});</li>
 *   <li>a cell of the target column (the one passed to {@link #read}) may also be {@code nan}, {@code inf}, {@code
 *       +inf}, {@code -inf}, {@code infinity}, {@code +infinity} or {@code -infinity} (any case): NaN and +-Infinity
 *       targets, outcomes that only a head with special tokens learns.</li>
 * </ul>
 *
 * <p>Errors are {@link IllegalArgumentException}s that say where: {@code "csv cell at line 7 (data row 5), column 3
 * 'beam' is not a finite number: 'abc' (expected plain decimal or scientific notation such as -12.5 or 1.2e-3) in
 * data.csv"} (lines 1-based as in an editor, counting the lines of quoted cells that span several, and the blank
 * lines skipped; data rows 0-based as in the fold files). I/O failures other than a missing file or text that is not
 * UTF-8 surface as {@link UncheckedIOException}.
 *
 * <p>Example: {@code try (CsvReader r = CsvReader.open(Path.of("datasets/yacht.csv"), null)) { double[][] block =
 * new double[1024][r.header().size()]; for (int n; (n = r.read(block, -1)) > 0; ) { ... } }}.
 *
 * <p>Not thread-safe; close it to release the file.
 */
public final class CsvReader implements Closeable {
    /** Plain decimal or scientific notation; nothing that only Java's {@code Double.parseDouble} reads. */
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern DECIMAL_COMMA = Pattern.compile("[+-]?\\d*,\\d+");
    private static final Pattern NOT_A_VALUE = Pattern.compile("(?i)[+-]?(nan|inf|infinity)");
    /** Delimiters that detection considers, in order of preference on a tie. */
    private static final char[] CANDIDATES = {',', ';', '\t', '|'};
    /** How far ahead the header line is looked at to detect the delimiter. */
    private static final int DETECT_CHARS = 1 << 20;

    private final Path file;
    private final char delimiter;
    private final boolean detected;
    private final LineBreaks lines;
    private final CSVParser parser;
    private final Iterator<CSVRecord> records;
    private final List<String> header;
    private long rowsRead;
    private long line;

    private CsvReader(Path file, Character delimiter) throws IOException {
        this.file = file;
        BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        try {
            in.mark(1);
            int first = in.read();
            if (first != '\uFEFF') {
                in.reset();
            }
            if (delimiter != null) {
                this.delimiter = delimiter;
                this.detected = false;
            } else {
                in.mark(DETECT_CHARS);
                char[] head = new char[DETECT_CHARS];
                int n = 0;
                for (int k; n < head.length && (k = in.read(head, n, head.length - n)) > 0; ) {
                    n += k;
                    if (hasCompleteLine(head, n)) {
                        break;
                    }
                }
                in.reset();
                this.delimiter = detectDelimiter(new String(head, 0, n));
                this.detected = true;
            }
            this.lines = new LineBreaks(in);
            CSVFormat format = CSVFormat.RFC4180.builder().setDelimiter(this.delimiter).setIgnoreEmptyLines(true)
                    .setIgnoreSurroundingSpaces(true).setTrim(true).build();
            this.parser = CSVParser.parse(lines, format);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        this.records = parser.iterator();
        CSVRecord h = next();
        while (h != null && h.size() == 1 && h.get(0).isEmpty()) { // lines of spaces
            h = next();
        }
        if (h == null) {
            close();
            throw new IllegalArgumentException("csv must have a header line, got an empty file " + file);
        }
        this.header = List.copyOf(h.toList());
        for (int j = 0; j < header.size(); j++) {
            if (header.get(j).isEmpty()) {
                close();
                throw new IllegalArgumentException(String.format(Locale.ROOT, "csv header must name every column, got "
                        + "an empty name for column %d in %s%s", j + 1, file, delimiterNote()));
            }
        }
    }

    /**
     * Opens {@code file} and reads its header.
     *
     * @param file      an existing UTF-8 CSV file
     * @param delimiter any character but a double quote, CR or LF; null to detect it from the header line
     * @return the reader, positioned at the first data row
     * @throws IllegalArgumentException if the file is missing or not a regular file, not UTF-8, malformed, has no
     *                                  header or an unnamed column, or the delimiter cannot be one
     * @throws UncheckedIOException     if the file cannot be read
     */
    public static CsvReader open(Path file, Character delimiter) {
        Checks.notNull("file", file);
        Checks.require(Files.isRegularFile(file), "csv must be an existing regular file, got %s", file);
        if (delimiter != null) {
            char c = delimiter;
            Checks.require(c != '"' && c != '\r' && c != '\n', "delimiter must not be a double quote or a line break, "
                    + "got %s", describe(c));
        }
        try {
            return new CsvReader(file, delimiter);
        } catch (CharacterCodingException e) {
            throw notUtf8(file, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read csv " + file, e);
        }
    }

    /** {@return the column names of the header, in file order} */
    public List<String> header() {
        return header;
    }

    /** {@return the delimiter, given or detected} */
    public char delimiter() {
        return delimiter;
    }

    /** {@return the file read} */
    public Path file() {
        return file;
    }

    /** {@return the data rows read so far} */
    public long rowsRead() {
        return rowsRead;
    }

    /**
     * Reads up to {@code rows.length} data rows into {@code rows}, each parsed as the class description says.
     *
     * @param rows         {@code [n][header().size()]} arrays to fill; rows past the returned count are unchanged
     * @param targetColumn the column whose cells may also be NaN or +-Infinity, or -1 for none
     * @return the number of rows read, 0 at the end of the file
     * @throws IllegalArgumentException on a row with the wrong number of cells, a cell that is not a number (the
     *                                  message names line, data row, column and file), malformed CSV, text that is
     *                                  not UTF-8, or a rows array of the wrong width
     */
    public int read(double[][] rows, int targetColumn) {
        Checks.notNull("rows", rows);
        Checks.require(targetColumn >= -1 && targetColumn < header.size(), "targetColumn must be -1 or a column "
                + "index below %d, got %d", header.size(), targetColumn);
        int n = 0;
        while (n < rows.length) {
            CSVRecord r = next();
            if (r == null) {
                break;
            }
            if (r.size() == 1 && r.get(0).isEmpty()) {
                continue; // a line of spaces
            }
            long dataRow = rowsRead;
            if (r.size() != header.size()) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "csv line %d (data row %d) has %d cells, "
                        + "expected %d as in the header of %s%s", line, dataRow, r.size(), header.size(), file,
                        delimiterNote()));
            }
            double[] row = rows[n];
            Checks.require(row != null && row.length == header.size(), "rows[%d] must have %d values (the header's "
                    + "columns), got %s", n, header.size(), row == null ? "null" : Integer.toString(row.length));
            for (int j = 0; j < row.length; j++) {
                String cell = r.get(j);
                row[j] = j == targetColumn ? parseTarget(cell, dataRow, j) : parse(cell, dataRow, j);
            }
            rowsRead++;
            n++;
        }
        return n;
    }

    /** The next record with {@link #line} set to its first line, or null at the end. */
    private CSVRecord next() {
        try {
            if (!records.hasNext()) {
                return null;
            }
            CSVRecord r = records.next();
            line = lines.lineOf(r.getCharacterPosition());
            return r;
        } catch (UncheckedIOException e) {
            // Commons CSV reports malformed input (an unclosed quote, text after a closing quote) this way
            if (e.getCause() instanceof CharacterCodingException c) {
                throw notUtf8(file, c);
            }
            String why = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            throw new IllegalArgumentException("csv " + file + " is malformed: " + why, e);
        } catch (IllegalStateException e) { // how Commons CSV 1.10 reports some malformed records
            throw new IllegalArgumentException("csv " + file + " is malformed: " + e.getMessage(), e);
        }
    }

    private static IllegalArgumentException notUtf8(Path file, CharacterCodingException e) {
        return new IllegalArgumentException("csv must be UTF-8 text, got other bytes in " + file
                + " (save it as CSV UTF-8)", e);
    }

    /** {@code " (delimiter detected: ',')"} when it was detected, else empty: a hint for width errors. */
    String delimiterNote() {
        return detected ? " (delimiter detected: " + describe(delimiter) + ")" : "";
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close csv " + file, e);
        }
    }

    /** Whether {@code c[0, n)} holds a line break after a non-blank character, outside double quotes. */
    private static boolean hasCompleteLine(char[] c, int n) {
        boolean quoted = false;
        boolean seen = false;
        for (int i = 0; i < n; i++) {
            if (c[i] == '"') {
                quoted = !quoted;
            } else if (!quoted && (c[i] == '\n' || c[i] == '\r') && seen) {
                return true;
            }
            seen |= !Character.isWhitespace(c[i]) || c[i] == '\t';
        }
        return false;
    }

    /**
     * The delimiter of a CSV text: of comma, semicolon, tab and vertical bar, the one that occurs most often outside
     * double quotes on the first non-blank line (the header); comma on a tie or when none occurs.
     *
     * @param text the file's text, or its beginning (a leading byte-order mark is ignored)
     */
    public static char detectDelimiter(String text) {
        Checks.notNull("text", text);
        int[] count = new int[CANDIDATES.length];
        boolean quoted = false;
        boolean seen = false; // a non-blank character of the first non-blank line
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!quoted && (c == '\n' || c == '\r')) {
                if (seen) {
                    break;
                }
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted) {
                for (int k = 0; k < CANDIDATES.length; k++) {
                    count[k] += c == CANDIDATES[k] ? 1 : 0;
                }
            }
            seen |= !Character.isWhitespace(c) && c != '\uFEFF' || c == '\t';
        }
        int best = 0;
        for (int k = 1; k < CANDIDATES.length; k++) {
            if (count[k] > count[best]) {
                best = k;
            }
        }
        return CANDIDATES[best];
    }

    static String describe(char c) {
        return switch (c) {
            case '\t' -> "tab";
            case '\r' -> "CR";
            case '\n' -> "LF";
            default -> "'" + c + "'";
        };
    }

    /** A target cell: a number as {@link #parse} reads it, or NaN, +-Infinity spelled as the class description says. */
    private double parseTarget(String cell, long dataRow, int column) {
        switch (cell.toLowerCase(Locale.ROOT)) {
            case "nan":
                return Double.NaN;
            case "inf", "+inf", "infinity", "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf", "-infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                return parse(cell, dataRow, column);
        }
    }

    private double parse(String cell, long dataRow, int column) {
        double v = NUMBER.matcher(cell).matches() ? Double.parseDouble(cell) : Double.NaN;
        if (Double.isFinite(v)) {
            return v;
        }
        String why;
        if (cell.isEmpty()) {
            why = "the cell is empty; missing values are not accepted";
        } else if (NOT_A_VALUE.matcher(cell).matches()) {
            why = "missing and infinite values are not accepted";
        } else if (DECIMAL_COMMA.matcher(cell).matches()) {
            why = "decimal commas are not read; write " + cell.replace(',', '.');
        } else if (NUMBER.matcher(cell).matches()) {
            why = "too large for a double";
        } else {
            why = "expected plain decimal or scientific notation such as -12.5 or 1.2e-3";
        }
        throw new IllegalArgumentException(String.format(Locale.ROOT,
                "csv cell at line %d (data row %d), column %d '%s' is not a finite number: '%s' (%s) in %s",
                line, dataRow, column + 1, header.get(column), cell, why, file));
    }

    /**
     * The reader under the parser, noting where each line break lies so that a record's character position (where
     * the parser started it, before any empty lines it skipped) gives the line of its first cell. Line breaks are
     * LF, CR LF or a lone CR. Entries before the last record asked about are dropped, so memory stays bounded by the
     * lines of one record.
     */
    private static final class LineBreaks extends FilterReader {
        private long offset; // characters read so far
        private long[] start = new long[64]; // offset of each line break not yet passed
        private int[] length = new int[64]; // 1, or 2 for CR LF
        private int first; // index of the first entry not yet passed
        private int count; // entries held
        private long passed; // line breaks before the last record's first line
        private boolean lastWasCr;

        LineBreaks(Reader in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            char[] one = new char[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0];
        }

        @Override
        public int read(char[] cbuf, int off, int len) throws IOException {
            int n = super.read(cbuf, off, len);
            for (int i = 0; i < n; i++) {
                char c = cbuf[off + i];
                if (c == '\n' && lastWasCr) {
                    length[first + count - 1] = 2; // the CR just before, now CR LF
                } else if (c == '\n' || c == '\r') {
                    add(offset + i);
                }
                lastWasCr = c == '\r';
            }
            offset += Math.max(n, 0);
            return n;
        }

        private void add(long at) {
            if (first + count == start.length) {
                if (first > 0) { // compact
                    System.arraycopy(start, first, start, 0, count);
                    System.arraycopy(length, first, length, 0, count);
                    first = 0;
                } else {
                    start = Arrays.copyOf(start, 2 * start.length);
                    length = Arrays.copyOf(length, 2 * length.length);
                }
            }
            start[first + count] = at;
            length[first + count] = 1;
            count++;
        }

        /**
         * The 1-based line of the first non-empty line from {@code position} on (positions only increase from call to
         * call).
         */
        long lineOf(long position) {
            while (count > 0 && start[first] < position) {
                pass();
            }
            long at = position;
            while (count > 0 && start[first] == at) { // an empty line the parser skipped
                at += length[first];
                pass();
            }
            return passed + 1;
        }

        private void pass() {
            first++;
            count--;
            passed++;
        }
    }

    /** Reads every remaining data row (for files that fit in memory). */
    List<double[]> readAll(int targetColumn) {
        List<double[]> all = new ArrayList<>();
        double[][] block = new double[1024][header.size()];
        for (int n; (n = read(block, targetColumn)) > 0; ) {
            for (int i = 0; i < n; i++) {
                all.add(block[i].clone());
            }
        }
        return all;
    }
}
