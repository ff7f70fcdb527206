package io.regheads.app.cli;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.check.Checks;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.TreeSet;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * A data set with its folds, as the commands consume it: loaded, checked (at least {@link #MIN_ROWS} rows, a
 * non-constant target) and split.
 *
 * <p>Sources: the embedded default (UCI airfoil self-noise, 1503 rows, 5 features, CC BY 4.0, with its fold file
 * from the repository's datasets/ folder; citation in NOTICE), a CSV with a fold file (one fold number per row, as
 * {@code splits/<name>/fold.txt}), or a plain CSV split at random into {@link #RANDOM_FOLDS} folds: the rows are
 * shuffled with the seed (commons-rng XO_RO_SHI_RO_128_PP) and row at shuffled position p goes to fold {@code p mod
 * 10}, so the folds differ in size by at most one row.
 *
 * @param label       a short name for tables and plot titles (file name without {@code .csv})
 * @param data        the rows
 * @param folds       fold of every row
 * @param splitSource where the folds came from, for the output header
 */
public record InputData(String label, Dataset data, Folds folds, String splitSource) {

    /** Fewest rows a data set may have. */
    public static final int MIN_ROWS = 10;
    /** Folds of a random split. */
    public static final int RANDOM_FOLDS = 10;
    private static final String RESOURCE_DIR = "/io/regheads/app/cli/";

    /** Checks rows and target (see {@link #check}). */
    public InputData {
        Checks.notNull("label", label);
        check(data, label);
        Checks.notNull("folds", folds);
        Checks.require(folds.rows() == data.rows(), "the split of %s must have one fold per row (%d rows), got %d",
                label, data.rows(), folds.rows());
    }

    /** The embedded airfoil data set with its shipped 10-fold split. */
    public static InputData embedded() {
        Path csv = resourceToTemp("airfoil.csv");
        Path fold = resourceToTemp("airfoil-fold.txt");
        try {
            return new InputData("airfoil", CsvLoader.load(csv), Folds.read(fold), "shipped split (treforevans/uci_datasets)");
        } finally {
            deleteQuietly(csv);
            deleteQuietly(fold);
        }
    }

    /** As {@link #csv(Path, String, Path, long, Character)} with the delimiter detected. */
    public static InputData csv(Path file, String target, Path foldFile, long seed) {
        return csv(file, target, foldFile, seed, null);
    }

    /**
     * A CSV file (header row, numeric cells; read by {@link CsvLoader}: quoted cells, an Excel byte-order mark and
     * semicolon or tab delimiters are fine) with the target {@code target} ({@code null}: last column), split by
     * {@code foldFile} when given, else at random with {@code seed}.
     *
     * @param delimiter the cell delimiter, or null to detect it from the header line
     * @throws IllegalArgumentException if the file is missing, malformed, too small, has a constant target, or the
     *                                  fold file does not match
     */
    public static InputData csv(Path file, String target, Path foldFile, long seed, Character delimiter) {
        Checks.notNull("file", file);
        Checks.require(Files.isRegularFile(file), "--data: file not found: %s", file);
        Dataset d = CsvLoader.load(file, target, delimiter);
        String name = file.getFileName().toString().replaceFirst("(?i)\\.csv$", "");
        check(d, name);
        if (foldFile != null) {
            return new InputData(name, d, Folds.read(foldFile), "fold file " + foldFile);
        }
        return new InputData(name, d, randomFolds(d.rows(), seed), RANDOM_FOLDS + " random folds (seed " + seed + ")");
    }

    /**
     * Rejects data the commands cannot use.
     *
     * @throws IllegalArgumentException with fewer than {@link #MIN_ROWS} rows or a constant target
     */
    public static Dataset check(Dataset d, String label) {
        Checks.notNull("data", d);
        Checks.require(d.rows() >= MIN_ROWS, "%s has %d data rows; at least %d are needed", label, d.rows(), MIN_ROWS);
        double[] y = d.y();
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : y) {
            if (Double.isFinite(v)) { // NaN and +-Infinity targets are for heads with special tokens
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        Checks.require(hi > lo, "%s: target '%s' is constant (every finite row is %s); there is nothing to regress", label,
                d.targetName(), lo);
        return d;
    }

    /**
     * The {@code --delimiter} value as a character: one character as is, {@code tab} or {@code \t} for a tab;
     * null stays null (detect).
     *
     * @throws IllegalArgumentException for anything else, naming the option
     */
    public static Character parseDelimiter(String value) {
        if (value == null) {
            return null;
        }
        if (value.equalsIgnoreCase("tab") || value.equals("\\t")) {
            return '\t';
        }
        Checks.require(value.length() == 1 && value.charAt(0) != '"',
                "--delimiter must be one character other than a double quote, or 'tab', got '%s'", value);
        return value.charAt(0);
    }

    /** Fold of every row for a seeded random split into {@link #RANDOM_FOLDS} folds (sizes differ by <= 1). */
    public static Folds randomFolds(int rows, long seed) {
        Checks.atLeast("rows", rows, RANDOM_FOLDS);
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[i] = i;
        }
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        for (int i = rows - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] fold = new int[rows];
        for (int p = 0; p < rows; p++) {
            fold[order[p]] = p % RANDOM_FOLDS;
        }
        return Folds.of(fold);
    }

    /**
     * Parses a fold selection: {@code "3"}, {@code "0,2,5"}, {@code "0-9"} or a mix ({@code "0-2,7"}); the result
     * is ascending without repeats.
     *
     * @throws IllegalArgumentException on bad syntax or a fold outside [0, count)
     */
    public static int[] parseFolds(String spec, int count) {
        Checks.require(spec != null && !spec.isBlank(), "--folds must list folds such as 0, 0-9 or 0,3,5, got '%s'", spec);
        TreeSet<Integer> out = new TreeSet<>();
        for (String raw : spec.split(",")) {
            String part = raw.strip();
            int dash = part.indexOf('-', 1);
            int from;
            int to;
            try {
                from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash).strip());
                to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--folds must list folds such as 0, 0-9 or 0,3,5, got '" + spec + "'");
            }
            Checks.require(from <= to, "--folds range '%s' must go upwards", part);
            Checks.require(from >= 0 && to < count, "--folds: fold %s is outside 0..%d (the split has %d folds)",
                    from < 0 ? from : to, count - 1, count);
            for (int k = from; k <= to; k++) {
                out.add(k);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static Path resourceToTemp(String name) {
        try (InputStream in = InputData.class.getResourceAsStream(RESOURCE_DIR + name)) {
            Checks.require(in != null, "resource %s is missing from the jar", name);
            Path tmp = Files.createTempFile("regheads-", "-" + name);
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack resource " + name, e);
        }
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            p.toFile().deleteOnExit();
        }
    }
}
