package io.regheads.core.data;

import io.regheads.core.check.Checks;
import io.regheads.core.check.Names;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a numeric CSV file with a header row into a {@link Dataset}, through {@link CsvReader} (Apache Commons CSV):
 * the file format, the numbers accepted and the error messages are {@link CsvReader}'s. The header must name at
 * least 2 columns (features and a target) and the file must hold at least one data row. The target is the last
 * column ({@link #load(Path)}) or a named column ({@link #load(Path, String)}); every other column is a feature, in
 * file order; target cells may also be NaN or +-Infinity (outcomes that only a head with special tokens learns; a
 * model refuses them for other heads, naming the row).
 *
 * <p>Example: {@code CsvLoader.load(Path.of("datasets/yacht.csv"))} gives 308 rows, 6 features, target
 * {@code y}. Stateless and thread-safe.
 */
public final class CsvLoader {
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
     *                                  name (the message suggests the closest name)
     */
    public static Dataset load(Path csv, String targetColumn) {
        return load(csv, targetColumn, null);
    }

    /**
     * Loads {@code csv} with the given target column ({@code null}: the last) and delimiter ({@code null}: detected
     * from the header line, see {@link CsvReader}).
     *
     * @param delimiter any character but a double quote, CR or LF; null to detect
     * @throws IllegalArgumentException as {@link #load(Path, String)}, or for a delimiter that cannot be one
     */
    public static Dataset load(Path csv, String targetColumn, Character delimiter) {
        List<String> header;
        int target;
        List<double[]> rows;
        try (CsvReader in = CsvReader.open(csv, delimiter)) {
            header = in.header();
            Checks.require(header.size() >= 2, "csv header must name at least 2 columns (features and a target), got "
                    + "%d in %s%s", header.size(), csv, in.delimiterNote());
            target = targetColumn == null ? header.size() - 1 : columnIndex(header, targetColumn, "targetColumn", csv);
            rows = in.readAll(target);
        }
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
     * The delimiter of a CSV text ({@link CsvReader#detectDelimiter}).
     *
     * @param text the file's text (a leading byte-order mark is ignored)
     */
    public static char detectDelimiter(String text) {
        return CsvReader.detectDelimiter(text);
    }

    /**
     * The index of the one column named {@code name} in {@code header}.
     *
     * @param what the option or argument that named it, for the message (e.g. {@code "--target"})
     * @param csv  the file, for the message
     * @throws IllegalArgumentException if no column or more than one has that name; the message lists the columns
     *                                  and suggests the closest name
     */
    public static int columnIndex(List<String> header, String name, String what, Path csv) {
        Checks.notNull(what, name);
        int found = -1;
        for (int j = 0; j < header.size(); j++) {
            if (header.get(j).equals(name)) {
                Checks.require(found < 0, "%s '%s' must name exactly one column, found it twice in %s", what, name, csv);
                found = j;
            }
        }
        if (found < 0) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%s: no column '%s' in %s%s (columns: %s)",
                    what, name, csv, Names.didYouMean(name, header), String.join(", ", header)));
        }
        return found;
    }
}
