package io.regheads.core.data;

import io.regheads.core.internal.Checks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads a numeric CSV file with a header row into a {@link Dataset}, through Apache Commons CSV.
 *
 * <p>Format (RFC 4180 as spreadsheets write it):
 * <ul>
 *   <li>UTF-8 text; a leading byte-order mark (as Excel writes "CSV UTF-8") is dropped;</li>
 *   <li>the delimiter is given, or detected from the header line: whichever of comma, semicolon, tab and vertical
 *       bar occurs most often outside double quotes (comma on a tie or when none occurs);</li>
 *   <li>cells may be double-quoted ({@code "1.5"}, {@code "a, b"}; {@code ""} inside quotes is one quote); spaces
 *       around cells are dropped; blank lines are skipped;</li>
 *   <li>the first record is the header (column names); every following record is one row with exactly as many
 *       cells as the header;</li>
 *   <li>every data cell is a finite number in plain decimal or scientific notation: an optional sign, digits with
 *       an optional decimal point, an optional exponent ({@code 12}, {@code -0.5}, {@code .5}, {@code 1.2e-3},
 *       {@code +3E5}). Everything else is refused: empty cells, {@code NaN}, {@code inf} and {@code Infinity}
 *       in a feature (missing or infinite values), Java-only forms such as {@code 1.5d}, {@code 2f} and {@code
 *       0x1p3}, decimal commas ({@code 1,5}), and numbers too large for a double ({@code 1e999});</li>
 *   <li>a target cell may also be {@code nan}, {@code inf}, {@code +inf}, {@code -inf}, {@code infinity}, {@code
 *       +infinity} or {@code -infinity} (any case): NaN and +-Infinity targets, outcomes that only a head with
 *       special tokens learns (a model refuses them for other heads, naming the row).</li>
 * </ul>
 * The target is the last column ({@link #load(Path)}) or a named column ({@link #load(Path, String)}); every other
 * column is a feature, in file order.
 *
 * <p>Errors are {@link IllegalArgumentException}s that say where: {@code "csv cell at line 7 (data row 5), column 3
 * 'beam' is not a finite number: 'abc' (expected plain decimal or scientific notation such as -12.5 or 1.2e-3) in
 * data.csv"} (lines 1-based as in an editor, counting the lines of quoted cells that span several; data rows
 * 0-based as in the fold files). I/O failures other than a missing file or text that is not UTF-8 surface as
 * {@link UncheckedIOException}.
 *
 * <p>Example: {@code CsvLoader.load(Path.of("datasets/yacht.csv"))} gives 308 rows, 6 features, target
 * {@code y}. Stateless and thread-safe.
 */
public final class CsvLoader {
    /** Plain decimal or scientific notation; nothing that only Java's {@code Double.parseDouble} reads. */
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern DECIMAL_COMMA = Pattern.compile("[+-]?\\d*,\\d+");
    private static final Pattern NOT_A_VALUE = Pattern.compile("(?i)[+-]?(nan|inf|infinity)");
    /** Delimiters that detection considers, in order of preference on a tie. */
    private static final char[] CANDIDATES = {',', ';', '\t', '|'};

    private CsvLoader() {}

    /**
     * Loads {@code csv} with the last column as the target and a detected delimiter.
     *
     * @throws IllegalArgumentException if the file is missing or not a regular file, not UTF-8, malformed (e.g. an
     *                                  unclosed quote), has no header, fewer than 2 columns, an unnamed column, no
     *                                  data rows, a ragged row, or a cell that is not a finite number
     */
    public static Dataset load(Path csv) {
        return load(csv, null, null);
    }

    /**
     * Loads {@code csv} with the column named {@code targetColumn} as the target ({@code null}: the last column) and
     * a detected delimiter.
     *
     * @throws IllegalArgumentException as {@link #load(Path)}, or if no column or more than one column has that
     *                                  name
     */
    public static Dataset load(Path csv, String targetColumn) {
        return load(csv, targetColumn, null);
    }

    /**
     * Loads {@code csv} with the given target column ({@code null}: the last) and delimiter ({@code null}: detected
     * from the header line, see the class description).
     *
     * @param delimiter any character but a double quote, CR or LF; null to detect
     * @throws IllegalArgumentException as {@link #load(Path, String)}, or for a delimiter that cannot be one
     */
    public static Dataset load(Path csv, String targetColumn, Character delimiter) {
        Checks.notNull("csv", csv);
        Checks.require(Files.isRegularFile(csv), "csv must be an existing regular file, got %s", csv);
        if (delimiter != null) {
            char c = delimiter;
            Checks.require(c != '"' && c != '\r' && c != '\n', "delimiter must not be a double quote or a line break, "
                    + "got %s", describe(c));
        }
        String text = read(csv);
        char sep = delimiter != null ? delimiter : detectDelimiter(text);
        int[] lineStarts = lineStarts(text);
        CSVFormat format = CSVFormat.RFC4180.builder().setDelimiter(sep).setIgnoreEmptyLines(true)
                .setIgnoreSurroundingSpaces(true).setTrim(true).build();
        List<String> header = null;
        int target = -1;
        List<double[]> rows = new ArrayList<>();
        try (CSVParser parser = CSVParser.parse(text, format)) {
            for (CSVRecord r : parser) {
                int lineNo = lineOf(lineStarts, firstNonBlank(text, r.getCharacterPosition(), sep));
                if (r.size() == 1 && r.get(0).isEmpty()) {
                    continue; // a line of spaces
                }
                if (header == null) {
                    header = new ArrayList<>(r.toList());
                    Checks.require(header.size() >= 2, "csv header must name at least 2 columns (features and a target), "
                            + "got %d in %s%s", header.size(), csv, delimiter == null ? " (delimiter detected: "
                            + describe(sep) + ")" : "");
                    for (int j = 0; j < header.size(); j++) {
                        Checks.require(!header.get(j).isEmpty(), "csv header must name every column, got an empty "
                                + "name for column %d in %s", j + 1, csv);
                    }
                    target = targetIndex(header, targetColumn, csv);
                    continue;
                }
                Checks.require(r.size() == header.size(),
                        "csv line %d (data row %d) has %d cells, expected %d as in the header of %s",
                        lineNo, rows.size(), r.size(), header.size(), csv);
                double[] row = new double[r.size()];
                for (int j = 0; j < row.length; j++) {
                    row[j] = j == target ? parseTarget(r.get(j), lineNo, rows.size(), j, header.get(j), csv)
                            : parse(r.get(j), lineNo, rows.size(), j, header.get(j), csv);
                }
                rows.add(row);
            }
        } catch (IOException | UncheckedIOException e) {
            // Commons CSV reports malformed input (an unclosed quote, text after a closing quote) this way
            String why = e instanceof UncheckedIOException u && u.getCause() != null ? u.getCause().getMessage()
                    : e.getMessage();
            throw new IllegalArgumentException("csv " + csv + " is malformed: " + why, e);
        }
        Checks.require(header != null, "csv must have a header line, got an empty file %s", csv);
        Checks.require(!rows.isEmpty(), "csv must have at least one data row after the header, got none in %s", csv);
        int n = rows.size();
        int d = header.size() - 1;
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double[] r = rows.get(i);
            for (int j = 0, k = 0; j < r.length; j++) {
                if (j == target) {
                    y[i] = r[j];
                } else {
                    x[i][k++] = r[j];
                }
            }
        }
        List<String> names = new ArrayList<>(header);
        String targetName = names.remove(target);
        return Dataset.of(x, y, names, targetName);
    }

    /**
     * The delimiter of a CSV text: of comma, semicolon, tab and vertical bar, the one that occurs most often outside
     * double quotes on the first non-blank line (the header); comma on a tie or when none occurs.
     *
     * @param text the file's text (a leading byte-order mark is ignored)
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

    /** The file as UTF-8 text without a byte-order mark. */
    private static String read(Path csv) {
        String text;
        try {
            text = Files.readString(csv, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("csv must be UTF-8 text, got other bytes in " + csv
                    + " (save it as CSV UTF-8)", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read csv " + csv, e);
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** Offsets at which each line starts (after LF, CR LF or a lone CR). */
    private static int[] lineStarts(String text) {
        int[] starts = new int[16];
        int n = 1; // line 1 starts at 0
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, 2 * n);
                }
                starts[n++] = i + 1;
            }
        }
        return Arrays.copyOf(starts, n);
    }

    /**
     * The offset of the first character from {@code from} on that is not a space, tab or line break (other than the
     * delimiter): where a record really starts, since the parser's position is before the blank lines it skipped.
     */
    private static long firstNonBlank(String text, long from, char sep) {
        int i = (int) from;
        while (i < text.length() && text.charAt(i) != sep && " \t\r\n".indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        return Math.min(i, Math.max(0, text.length() - 1));
    }

    /** 1-based line of a character offset. */
    private static int lineOf(int[] lineStarts, long offset) {
        int i = Arrays.binarySearch(lineStarts, (int) offset);
        return (i >= 0 ? i : -i - 2) + 1;
    }

    private static String describe(char c) {
        return switch (c) {
            case '\t' -> "tab";
            case '\r' -> "CR";
            case '\n' -> "LF";
            default -> "'" + c + "'";
        };
    }

    private static int targetIndex(List<String> header, String targetColumn, Path csv) {
        if (targetColumn == null) {
            return header.size() - 1;
        }
        int found = -1;
        for (int j = 0; j < header.size(); j++) {
            if (header.get(j).equals(targetColumn)) {
                Checks.require(found < 0, "targetColumn '%s' must name exactly one column, found it twice in %s",
                        targetColumn, csv);
                found = j;
            }
        }
        Checks.require(found >= 0, "targetColumn must be one of %s, got '%s'", header, targetColumn);
        return found;
    }

    /** A target cell: a number as {@link #parse} reads it, or NaN, +-Infinity spelled as the class description says. */
    private static double parseTarget(String cell, int lineNo, int dataRow, int column, String name, Path csv) {
        switch (cell.toLowerCase(Locale.ROOT)) {
            case "nan":
                return Double.NaN;
            case "inf", "+inf", "infinity", "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf", "-infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                return parse(cell, lineNo, dataRow, column, name, csv);
        }
    }

    private static double parse(String cell, int lineNo, int dataRow, int column, String name, Path csv) {
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
                lineNo, dataRow, column + 1, name, cell, why, csv));
    }
}
