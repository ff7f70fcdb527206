package io.regheads.app.experiments;

import io.regheads.app.cli.HeadCatalog;
import io.regheads.app.cli.HeadRun;
import io.regheads.app.cli.InputData;
import io.regheads.core.check.Checks;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainerConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Training by the log score against training by the CRPS: each variant (a head preset and a training loss, e.g. {@code
 * mdn:ce} and {@code mdn:crps}) is trained on the given folds of each dataset ({@link HeadRun#run}: encoder 2 x 256,
 * x standardised and y min-max scaled on the training fold, early stopping on 10% of it) and scored on the test fold
 * by four metrics: test NLL of y01 (y scaled to [0, 1] by the training fold's min and max), CRPS (original units, from
 * 100 quantiles per row), and the width (original units) and coverage of the central 90% interval. With a cap on the
 * training rows, each fold trains on a seeded random subset of its training rows (the test rows stay whole).
 *
 * <p>Stateless; runs on the calling thread.
 */
public final class ScoringRulesExperiment {
    private ScoringRulesExperiment() {}

    /**
     * One trained variant: a head preset and the loss it trains with.
     *
     * @param head a {@link HeadCatalog} preset name
     * @param loss a loss expression
     */
    public record Variant(String head, String loss) {
        /** {@code head:loss}. */
        public String label() {
            return head + ":" + loss;
        }

        /**
         * Reads {@code head:loss}.
         *
         * @throws IllegalArgumentException naming the text if it is not of that form
         */
        static Variant parse(String text) {
            int colon = text.indexOf(':');
            Checks.require(colon > 0 && colon < text.length() - 1, "--variants must list head:loss pairs such as "
                    + "mdn:crps, got '%s'", text);
            return new Variant(text.substring(0, colon).strip(), text.substring(colon + 1).strip());
        }
    }

    /**
     * @param datasets the datasets with their folds
     * @param folds    test folds of each dataset
     * @param variants what to train
     * @param trainer  trainer settings (epochs, patience, seed)
     * @param maxTrain the most training rows per fold (a seeded random subset), or 0 for all
     */
    public record Config(List<InputData> datasets, List<Integer> folds, List<Variant> variants, TrainerConfig trainer,
            int maxTrain) {
        /** @throws IllegalArgumentException on an empty list or a negative cap */
        public Config {
            Checks.require(!datasets.isEmpty() && !folds.isEmpty() && !variants.isEmpty(),
                    "datasets, folds and variants must not be empty");
            Checks.require(maxTrain >= 0, "--max-train must be >= 0, got %d", maxTrain);
            datasets = List.copyOf(datasets);
            folds = List.copyOf(folds);
            variants = List.copyOf(variants);
        }
    }

    /**
     * The test metrics of one variant on one fold (NaN where training failed).
     *
     * @param dataset    dataset label
     * @param variant    what was trained
     * @param fold       test fold
     * @param nll01      test NLL of y01
     * @param crps       test CRPS, original units
     * @param width90    mean width of the central 90% interval, original units
     * @param coverage90 share of test targets inside it
     * @param range      the training fold's max - min of y (to put CRPS and widths on the y01 scale)
     * @param seconds    training wall time
     * @param epochs     epochs run
     */
    public record Row(String dataset, Variant variant, int fold, double nll01, double crps, double width90,
            double coverage90, double range, double seconds, int epochs) {}

    /** Runs every dataset, fold and variant, reporting one line per trained model to {@code log}. */
    public static List<Row> run(Config c, Consumer<String> log) {
        HeadCatalog catalog = HeadCatalog.standard();
        for (Variant v : c.variants()) {
            catalog.select(v.head()); // fail before training on an unknown head
            checkLoss(v.loss());
        }
        List<Row> rows = new ArrayList<>();
        for (InputData full : c.datasets()) {
            for (int fold : c.folds()) {
                InputData in = capped(full, fold, c.maxTrain(), c.trainer().seed());
                int testFold = in == full ? fold : 0;
                double range = range(in, testFold);
                for (Variant v : c.variants()) {
                    HeadCatalog.Preset preset = catalog.select(v.head()).get(0);
                    Row row;
                    try {
                        HeadRun.Result r = HeadRun.run(preset, v.loss(), c.trainer(), in, testFold,
                                ProgressListener.none());
                        Checks.require(r.lossNote().isEmpty(), "%s: %s", v.label(), r.lossNote());
                        // NLL of y01 = (y - min) / range: the NLL in y's units less log(range)
                        row = new Row(full.label(), v, fold, r.nll() - Math.log(range), r.crps(), r.width90(),
                                r.coverage90(), range,
                                r.trainSeconds(), r.epochs());
                    } catch (RuntimeException e) {
                        if (e instanceof IllegalArgumentException) {
                            throw e;
                        }
                        log.accept(full.label() + " fold " + fold + " " + v.label() + ": FAILED " + e.getMessage());
                        row = new Row(full.label(), v, fold, Double.NaN, Double.NaN, Double.NaN, Double.NaN, range,
                                Double.NaN, 0);
                    }
                    rows.add(row);
                    log.accept(String.format(Locale.ROOT, "%s fold %d %-18s NLL01 %8.4f  CRPS %.5g  width90 %.5g  "
                            + "cov90 %.3f  (%.1f s, %d epochs)", full.label(), fold, v.label(), row.nll01(), row.crps(),
                            row.width90(), row.coverage90(), row.seconds(), row.epochs()));
                }
            }
        }
        return rows;
    }

    /**
     * {@code in} itself, or (when fold {@code fold} has more than {@code maxTrain > 0} training rows) the test rows of
     * that fold as fold 0 and a random subset of {@code maxTrain} of its training rows (shuffled with {@code seed} and
     * the fold) as fold 1.
     */
    static InputData capped(InputData in, int fold, int maxTrain, long seed) {
        int[] train = in.folds().trainRows(fold);
        if (maxTrain == 0 || train.length <= maxTrain) {
            return in;
        }
        int[] test = in.folds().testRows(fold);
        int[] order = train.clone();
        java.util.Random r = new java.util.Random(seed * 31 + fold);
        for (int i = order.length - 1; i > 0; i--) { // Fisher-Yates
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        int[] rows = new int[test.length + maxTrain];
        int[] folds = new int[rows.length];
        System.arraycopy(test, 0, rows, 0, test.length);
        System.arraycopy(order, 0, rows, test.length, maxTrain);
        java.util.Arrays.fill(folds, test.length, rows.length, 1);
        return new InputData(in.label() + " (fold " + fold + " as fold 0, " + maxTrain + " training rows)",
                in.data().subset(rows), io.regheads.core.data.Folds.of(folds),
                in.splitSource() + ", " + maxTrain + " training rows of fold " + fold);
    }

    /** The training fold's max - min of the finite targets. */
    private static double range(InputData in, int fold) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double y : in.folds().split(in.data(), fold).train().y()) {
            if (Double.isFinite(y)) {
                lo = Math.min(lo, y);
                hi = Math.max(hi, y);
            }
        }
        return hi - lo;
    }

    private static void checkLoss(String loss) {
        try {
            io.regheads.heads.model.LossSpec.parse(loss);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--variants: " + e.getMessage(), e);
        }
    }
}
