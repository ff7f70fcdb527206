package io.regheads.core.data;

import io.regheads.core.check.Checks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * K-fold test assignments, as in the repository's {@code datasets/splits/<name>/fold.txt}: line i holds the fold
 * {@code 0..K-1} in which row i of the CSV is a <b>test</b> row; split k trains on all other rows.
 *
 * <p>{@link #forDataset(Path, String)} reads {@code <root>/splits/<name>/fold.txt} and, for every k whose {@code
 * index_test_<k>.txt} exists next to it, checks that it lists exactly the rows of fold k (0-based, ascending).
 *
 * <p>Example (yacht): 308 rows, K = 10, fold 0 has 30 test rows, so split 0 trains on 278 rows. Immutable and
 * thread-safe.
 */
public final class Folds {
    private final int[] fold; // [N], fold of each row
    private final int count;

    /** One split: the training rows and the test rows of fold {@code k}. */
    public record Split(int fold, Dataset train, Dataset test) {}

    private Folds(int[] fold, int count) {
        this.fold = fold;
        this.count = count;
    }

    /**
     * Folds from an array of fold numbers (copied).
     *
     * @param foldOfRow {@code [N]}, N >= 1, values in [0, K) where K = max + 1 >= 2, every fold non-empty
     * @throws IllegalArgumentException otherwise
     */
    public static Folds of(int[] foldOfRow) {
        Checks.notNull("foldOfRow", foldOfRow);
        Checks.require(foldOfRow.length > 0, "foldOfRow must not be empty, got length 0");
        int max = -1;
        for (int i = 0; i < foldOfRow.length; i++) {
            Checks.require(foldOfRow[i] >= 0, "foldOfRow must be >= 0, got %d at row %d", foldOfRow[i], i);
            max = Math.max(max, foldOfRow[i]);
        }
        int k = max + 1;
        Checks.require(k >= 2, "foldOfRow must name at least 2 folds, got %d", k);
        int[] sizes = new int[k];
        for (int f : foldOfRow) {
            sizes[f]++;
        }
        for (int f = 0; f < k; f++) {
            Checks.require(sizes[f] > 0, "every fold in [0, %d) must have a test row, fold %d has none", k, f);
        }
        return new Folds(foldOfRow.clone(), k);
    }

    /**
     * Reads a fold file: one integer per non-blank line.
     *
     * @throws IllegalArgumentException if the file is missing, a line is not an integer, or as {@link #of}
     */
    public static Folds read(Path foldFile) {
        List<String> lines = lines(foldFile);
        int[] f = new int[lines.size()];
        int n = 0;
        for (int i = 0; i < lines.size(); i++) {
            String s = lines.get(i).strip();
            if (s.isEmpty()) {
                continue;
            }
            try {
                f[n++] = Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "fold file line " + (i + 1) + " must be an integer fold number, got '" + s + "' in " + foldFile, e);
            }
        }
        return of(Arrays.copyOf(f, n));
    }

    /**
     * Reads {@code <datasetsRoot>/splits/<name>/fold.txt} and cross-checks every {@code index_test_<k>.txt}
     * present in the same folder.
     *
     * @throws IllegalArgumentException if a file is missing or malformed, or an index file disagrees with fold.txt
     */
    public static Folds forDataset(Path datasetsRoot, String name) {
        Checks.notNull("datasetsRoot", datasetsRoot);
        Checks.notNull("name", name);
        Path dir = datasetsRoot.resolve("splits").resolve(name);
        Folds folds = read(dir.resolve("fold.txt"));
        for (int k = 0; k < folds.count; k++) {
            Path index = dir.resolve("index_test_" + k + ".txt");
            if (!Files.isRegularFile(index)) {
                continue;
            }
            int[] listed = lines(index).stream().map(String::strip).filter(s -> !s.isEmpty())
                    .mapToInt(Integer::parseInt).toArray();
            Checks.require(Arrays.equals(listed, folds.testRows(k)),
                    "%s must list the %d rows of fold %d in fold.txt, got %d rows that differ",
                    index, folds.testRows(k).length, k, listed.length);
        }
        return folds;
    }

    private static List<String> lines(Path file) {
        Checks.notNull("file", file);
        Checks.require(Files.isRegularFile(file), "fold file must be an existing regular file, got %s", file);
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Number of rows N. */
    public int rows() {
        return fold.length;
    }

    /** Number of folds K. */
    public int count() {
        return count;
    }

    /** The fold in which {@code row} is a test row. */
    public int foldOf(int row) {
        Checks.inRange("row", row, 0, fold.length - 1);
        return fold[row];
    }

    /** Test rows of fold k, ascending. */
    public int[] testRows(int k) {
        return rows(k, true);
    }

    /** Training rows of split k (all rows not in fold k), ascending. */
    public int[] trainRows(int k) {
        return rows(k, false);
    }

    private int[] rows(int k, boolean inFold) {
        Checks.inRange("k", k, 0, count - 1);
        int[] out = new int[fold.length];
        int n = 0;
        for (int i = 0; i < fold.length; i++) {
            if ((fold[i] == k) == inFold) {
                out[n++] = i;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * Split k of {@code data}: training rows and test rows as data sets.
     *
     * @throws IllegalArgumentException if {@code data.rows() != rows()} or k is out of range
     */
    public Split split(Dataset data, int k) {
        Checks.notNull("data", data);
        Checks.require(data.rows() == fold.length, "data must have %d rows to match the folds, got %d",
                fold.length, data.rows());
        return new Split(k, data.subset(trainRows(k)), data.subset(testRows(k)));
    }

    @Override
    public String toString() {
        return "Folds[" + fold.length + " rows, " + count + " folds]";
    }
}
