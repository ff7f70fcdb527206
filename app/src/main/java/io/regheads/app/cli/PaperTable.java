package io.regheads.app.cli;

import io.regheads.core.check.Checks;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The published UCI figures of Song and Bahri, "Decoding-based Regression" (arXiv:2501.19383), appendix A.4 (Table 3
 * of the first version, Table 2 of the later one; the main text's Table 2 repeats 11 of the rows): average test
 * figure +- standard deviation over the 10 splits of each of the 25 datasets, for the four heads. The datasets are
 * those of the treforevans/uci_datasets collection, keyed here by that collection's directory names (Kin 40K is
 * {@code kin40k}, Pol is {@code pol}, and so on).
 *
 * <p>The four columns are not on one scale (see {@link UciFigures}): decoders report a per-token cross-entropy,
 * Riemann {@code -ln P(bin)}, MDN a density NLL of {@code y01 - 0.5}.
 *
 * <p>Example: {@code PaperTable.row("yacht").mean(Column.RIEMANN)} is 1.29, its {@code std} 0.38.
 *
 * <p>Immutable and thread-safe.
 */
final class PaperTable {

    /** The paper's four columns, in its order. */
    enum Column {
        MDN("MDN"),
        UNNORMALIZED_DECODER("Unnormalized decoder"),
        NORMALIZED_DECODER("Normalized decoder"),
        RIEMANN("Riemann");

        private final String title;

        Column(String title) {
            this.title = title;
        }

        /** The column's title, as {@link HeadCatalog.Preset#paperColumn()} names it. */
        String title() {
            return title;
        }

        /** The column titled {@code title}, or {@code null} (e.g. for a head without a paper column). */
        static Column byTitle(String title) {
            for (Column c : values()) {
                if (c.title.equals(title)) {
                    return c;
                }
            }
            return null;
        }
    }

    /**
     * One dataset's published figures.
     *
     * @param dataset collection name
     * @param values  {@code [4][2]}: per column (in {@link Column} order) the mean and the standard deviation
     */
    record Row(String dataset, double[][] values) {
        double mean(Column c) {
            return values[c.ordinal()][0];
        }

        double std(Column c) {
            return values[c.ordinal()][1];
        }

        /** {@code "0.39 +- 0.02"}. */
        String format(Column c) {
            return String.format(Locale.ROOT, "%.2f +- %.2f", mean(c), std(c));
        }
    }

    private static final Map<String, Row> ROWS = new LinkedHashMap<>();

    static {
        // MDN, unnormalized decoder, normalized decoder, Riemann: mean, std each (appendix A.4)
        row("airfoil", 0.12, 0.11, 0.40, 0.01, 0.34, 0.01, 1.33, 0.14);
        row("autompg", 0.21, 0.07, 0.32, 0.03, 0.41, 0.05, 1.62, 0.17);
        row("autos", 0.32, 0.23, 0.48, 0.05, 0.47, 0.07, 2.60, 0.76);
        row("bike", 4.59, 0.86, 0.12, 0.00, 0.10, 0.01, 0.36, 0.05);
        row("breastcancer", 0.32, 0.09, 0.48, 0.05, 0.64, 0.03, 2.85, 0.37);
        row("challenger", -0.29, 0.66, 0.14, 0.14, 0.06, 0.08, 0.87, 0.77);
        row("concrete", 0.15, 0.05, 0.43, 0.03, 0.41, 0.04, 1.67, 0.20);
        row("elevators", 0.30, 0.43, 0.15, 0.00, 0.13, 0.00, 1.12, 0.02);
        row("energy", 0.40, 0.14, 0.17, 0.03, 0.16, 0.05, 0.38, 0.20);
        row("fertility", -0.06, 0.16, 0.31, 0.09, 0.46, 0.13, 2.41, 0.61);
        row("gas", 0.68, 0.25, 0.02, 0.01, 0.02, 0.00, 0.20, 0.09);
        row("housing", 0.22, 0.13, 0.41, 0.03, 0.38, 0.03, 1.56, 0.21);
        row("keggdirected", 2.41, 1.10, 0.05, 0.00, 0.05, 0.00, 0.22, 0.02);
        row("kin40k", 7.49, 0.73, 0.19, 0.01, 0.12, 0.01, 0.39, 0.03);
        row("parkinsons", 0.59, 0.18, 0.40, 0.02, 0.39, 0.03, 1.40, 0.33);
        row("pol", 1.49, 0.41, 0.01, 0.00, 0.01, 0.00, 0.18, 0.02);
        row("protein", 1.07, 0.44, 0.34, 0.00, 0.41, 0.01, 1.55, 0.04);
        row("pumadyn32nm", 0.69, 1.26, 0.55, 0.00, 0.58, 0.02, 2.32, 0.03);
        row("slice", 7.09, 0.09, 0.05, 0.00, 0.02, 0.00, 0.08, 0.02);
        row("sml", 1.31, 0.59, 0.21, 0.01, 0.11, 0.01, 0.35, 0.03);
        row("solar", -1.40, 0.29, 0.04, 0.01, 0.04, 0.01, 0.61, 0.12);
        row("stock", -0.15, 0.15, 0.27, 0.04, 0.32, 0.04, 1.63, 0.46);
        row("tamielectric", 0.01, 0.00, 0.46, 0.00, 0.69, 0.00, 2.70, 0.00);
        row("wine", 0.05, 0.12, 0.24, 0.01, 0.21, 0.01, 1.67, 0.14);
        row("yacht", 0.21, 0.10, 0.39, 0.02, 0.23, 0.05, 1.29, 0.38);
    }

    private PaperTable() {}

    private static void row(String name, double... v) {
        double[][] values = new double[4][];
        for (int c = 0; c < 4; c++) {
            values[c] = new double[] {v[2 * c], v[2 * c + 1]};
        }
        ROWS.put(name, new Row(name, values));
    }

    /**
     * The row of {@code dataset} (case, spaces and underscores ignored, as the collection's loader does), or
     * {@code null} if the paper does not report it.
     */
    static Row row(String dataset) {
        Checks.notNull("dataset", dataset);
        return ROWS.get(dataset.toLowerCase(Locale.ROOT).replace(" ", "").replace("_", ""));
    }

    /** The 25 dataset names in the paper's (alphabetical) order. */
    static List<String> datasets() {
        return Collections.unmodifiableList(List.copyOf(ROWS.keySet()));
    }
}
