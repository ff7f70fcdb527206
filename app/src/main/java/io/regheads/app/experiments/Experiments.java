package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Folds;
import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Parsing and data-loading helpers of the experiment commands. Stateless and thread-safe. */
public final class Experiments {
    private Experiments() {}

    /**
     * The loss the experiments train every head with: its likelihood, cross-entropy (for a point output the squared
     * error, as {@code mse}), as the decoding paper does. Fixed here rather than taken from each head's default loss,
     * which may change, so that the figures in docs/experiments.md reproduce.
     */
    static final String PAPER_LOSS = "ce";

    /**
     * The trainer of the experiments that stop early: Adam lr 1e-3, batch 128, at most 300 epochs (the commands set
     * their own cap), early stopping with patience 5 on 10% of the training rows, no weight decay or clipping (the
     * decoding paper's protocol at lr 1e-3). Fixed for the same reason as {@link #PAPER_LOSS}.
     */
    static TrainerConfig paperTrainer() {
        return TrainerConfig.paper().withLearningRate(1e-3);
    }

    /**
     * Comma-separated integers, e.g. {@code "2,5,10"}.
     *
     * @throws IllegalArgumentException naming {@code option} if an element is not an integer or the list is empty
     */
    static List<Integer> parseInts(String option, String list) {
        List<Integer> out = new ArrayList<>();
        for (String s : list.split(",")) {
            try {
                out.add(Integer.parseInt(s.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " must list integers such as 2,5,10, got '" + list + "'");
            }
        }
        return out;
    }

    /**
     * {@link #meanStd} of column {@code col} of {@code rows} (e.g. one point of per-run curves {@code [run][point]}).
     *
     * @throws IllegalArgumentException if rows is empty
     */
    static double[] columnMeanStd(double[][] rows, int col) {
        double[] v = new double[rows.length];
        for (int r = 0; r < v.length; r++) {
            v[r] = rows[r][col];
        }
        return meanStd(v);
    }

    /**
     * {@code [mean, sample standard deviation]} (n - 1 denominator; 0 for one value). Example: (1, 2, 3) gives
     * (2, 1).
     *
     * @throws IllegalArgumentException if v is empty
     */
    public static double[] meanStd(double[] v) {
        Checks.require(v.length > 0, "v must not be empty");
        double mean = 0;
        for (double e : v) {
            mean += e;
        }
        mean /= v.length;
        double ss = 0;
        for (double e : v) {
            ss += (e - mean) * (e - mean);
        }
        return new double[] {mean, v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0};
    }

    /** Comma-separated names, stripped, none empty. @throws IllegalArgumentException on an empty name */
    static List<String> parseNames(String option, String list) {
        List<String> out = new ArrayList<>();
        for (String s : list.split(",")) {
            Checks.require(!s.isBlank(), "%s must list names separated by commas, got '%s'", option, list);
            out.add(s.strip());
        }
        return out;
    }

    /**
     * A dataset of the repository's {@code datasets/} layout: {@code <dir>/<name>.csv} (target = last column) with
     * its folds from {@code <dir>/splits/<name>/fold.txt}. {@code airfoil} falls back to the copy embedded in the
     * command line's jar when {@code <dir>} does not hold it, so the defaults run on a fresh clone.
     *
     * @throws IllegalArgumentException if the files are missing or malformed
     */
    public static InputData dataset(Path dir, String name) {
        Checks.notNull("dir", dir);
        Path csv = dir.resolve(name + ".csv");
        if (!Files.isRegularFile(csv) && name.equals("airfoil")) {
            return InputData.embedded();
        }
        Checks.require(Files.isRegularFile(csv), "--datasets: %s not found in %s", name + ".csv", dir);
        return new InputData(name, CsvLoader.load(csv), Folds.forDataset(dir, name), "splits/" + name + "/fold.txt");
    }
}
