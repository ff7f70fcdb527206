package io.regheads.core.data;

import io.regheads.core.internal.Checks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a numeric CSV file with a header row into a {@link Dataset}.
 *
 * <p>Format: the first non-blank line is the header (comma-separated column names; surrounding spaces and double
 * quotes are stripped); every following non-blank line is one row with exactly as many comma-separated cells as
 * the header, each a finite decimal number ({@code Double.parseDouble} syntax). The target is the last column
 * ({@link #load(Path)}) or a named column ({@link #load(Path, String)}); every other column is a feature, in file
 * order. Target cells may also be {@code nan}, {@code inf}, {@code +inf}, {@code -inf}, {@code Infinity}, {@code
 * -Infinity} (any case): NaN and +-Infinity targets, which only a head with special tokens learns (a model refuses
 * them for other heads); feature cells must be finite.
 *
 * <p>Errors are {@link IllegalArgumentException}s that say where: {@code "csv cell at line 7 (data row 5),
 * column 3 'beam' is not a finite number: 'abc'"} (lines 1-based as in an editor, data rows 0-based as in the
 * fold files). I/O failures other than a missing file surface as {@link UncheckedIOException}.
 *
 * <p>Example: {@code CsvLoader.load(Path.of("datasets/yacht.csv"))} gives 308 rows, 6 features, target
 * {@code y}. Stateless and thread-safe.
 */
public final class CsvLoader {
    private CsvLoader() {}

    /**
     * Loads {@code csv} with the last column as the target.
     *
     * @throws IllegalArgumentException if the file is missing or not a regular file, has no header, fewer than 2
     *                                  columns, no data rows, a ragged row, a non-numeric cell, or a non-finite
     *                                  feature cell
     */
    public static Dataset load(Path csv) {
        return load(csv, null);
    }

    /**
     * Loads {@code csv} with the column named {@code targetColumn} as the target ({@code null}: the last column).
     *
     * @throws IllegalArgumentException as {@link #load(Path)}, or if no column or more than one column has that
     *                                  name
     */
    public static Dataset load(Path csv, String targetColumn) {
        Checks.notNull("csv", csv);
        Checks.require(Files.isRegularFile(csv), "csv must be an existing regular file, got %s", csv);
        List<String> header = null;
        int target = -1;
        List<double[]> rows = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split(",", -1);
                if (header == null) {
                    header = new ArrayList<>(cells.length);
                    for (String c : cells) {
                        header.add(unquote(c.strip()));
                    }
                    Checks.require(header.size() >= 2,
                            "csv header must name at least 2 columns (features and a target), got %d in %s",
                            header.size(), csv);
                    target = targetIndex(header, targetColumn, csv);
                    continue;
                }
                Checks.require(cells.length == header.size(),
                        "csv line %d (data row %d) has %d cells, expected %d as in the header of %s",
                        lineNo, rows.size(), cells.length, header.size(), csv);
                double[] row = new double[cells.length];
                for (int j = 0; j < cells.length; j++) {
                    row[j] = parse(cells[j], lineNo, rows.size(), j, header.get(j), csv, j == target);
                }
                rows.add(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read csv " + csv, e);
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

    private static double parse(String cell, int lineNo, int dataRow, int column, String name, Path csv,
            boolean target) {
        String s = cell.strip();
        if (target) {
            switch (s.toLowerCase(java.util.Locale.ROOT)) {
                case "nan":
                    return Double.NaN;
                case "inf", "+inf", "infinity", "+infinity":
                    return Double.POSITIVE_INFINITY;
                case "-inf", "-infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        Checks.require(Double.isFinite(v) && !s.isEmpty(),
                "csv cell at line %d (data row %d), column %d '%s' is not a finite number: '%s' in %s",
                lineNo, dataRow, column + 1, name, s, csv);
        return v;
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
