package io.regheads.app.cli;

import io.regheads.core.check.Checks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The markdown tables of {@code regheads uci}, computed from results alone (so a partial or resumed run reports
 * what it has).
 *
 * <p><b>Selection.</b> For each data set, fold and head, among the head's grid variants that finished: the
 * <i>paper</i> selection takes the lowest paper-compatible figure on the validation rows (the authors' criterion as
 * far as it can be read), the <i>fair</i> selection the lowest NLL at the data's resolution on them (a proper
 * discrete log loss that a point mass cannot push below 0, unlike the density NLL; on data with many distinct values
 * it ranks variants as the density NLL does, since the cells are the same for every head). A head with one variant
 * needs no selection. The paper-compatible table uses the paper selection, the fair tables the fair selection.
 *
 * <p>Stateless and thread-safe.
 */
final class UciReport {
    /** Marks a mean that differs from the paper's by more than the paper's standard deviation (plus rounding). */
    static final String DIFFERS = " (!)";
    /** Marks a data set with few distinct target values ({@link UciFigures#fewDistinct}). */
    static final String FEW = " \u2020";
    /** Marks a density NLL that test rows with a spike density ({@link UciResult#spikeRows()}) pulled down. */
    static final String SPIKES = " \u2021";

    private UciReport() {}

    /** Which validation figure a selection minimises. */
    enum Criterion {
        PAPER(UciResult::valPaper),
        FAIR(UciResult::valResolution);

        final ToDoubleFunction<UciResult> figure;

        Criterion(ToDoubleFunction<UciResult> figure) {
            this.figure = figure;
        }
    }

    /**
     * The selected result per fold for one data set and head: among the finished variants of each fold, the one
     * with the lowest validation figure (NaN counts as +Infinity; ties and all-NaN keep the grid's order).
     *
     * @param results  results of one data set and head (any folds and variants)
     * @param variants the grid's labels in order
     * @return fold -> selected result, folds ascending; a fold whose variants all failed is absent
     */
    static Map<Integer, UciResult> select(List<UciResult> results, List<String> variants, Criterion criterion) {
        Map<Integer, UciResult> best = new java.util.TreeMap<>();
        for (String v : variants) {
            for (UciResult r : results) {
                if (!r.ok() || !r.variant().equals(v)) {
                    continue;
                }
                UciResult cur = best.get(r.fold());
                double f = criterion.figure.applyAsDouble(r);
                double fc = cur == null ? Double.NaN : criterion.figure.applyAsDouble(cur);
                if (cur == null || (Double.isNaN(fc) ? !Double.isNaN(f) : f < fc)) {
                    best.put(r.fold(), r);
                }
            }
        }
        return best;
    }

    /**
     * The whole report.
     *
     * @param datasets data set names in table order
     * @param heads    head presets in column order
     * @param grids    per head name, the variant labels of its grid
     * @param folds    the folds the run asked for (per data set, the requested folds that exist)
     * @param results  the run's results (every task of the run that has finished, failed ones included)
     */
    static String markdown(List<String> datasets, List<HeadCatalog.Preset> heads, Map<String, List<String>> grids,
            Map<String, int[]> folds, List<UciResult> results) {
        Checks.notNull("results", results);
        Map<String, Map<String, List<UciResult>>> by = new LinkedHashMap<>();
        for (UciResult r : results) {
            by.computeIfAbsent(r.dataset(), k -> new LinkedHashMap<>()).computeIfAbsent(r.head(), k -> new ArrayList<>())
                    .add(r);
        }
        StringBuilder sb = new StringBuilder();
        paperTable(sb, datasets, heads, grids, folds, by);
        maskTable(sb, datasets, heads, grids, by);
        fairTable(sb, "Density NLL of y01 (fair figure; y01 = y min-max scaled by the training fold, test y01 clipped "
                + "into [0, 1 - 1e-7]), fair selection", UciResult::fair, true, datasets, heads, grids, folds, by);
        fairTable(sb, "CRPS of y01 (100-level quantile grid), fair selection", UciResult::crps, false, datasets, heads,
                grids, folds, by);
        fairTable(sb, "NLL at the data's resolution (cells around the training fold's distinct values), fair selection",
                UciResult::resolution, false, datasets, heads, grids, folds, by);
        variantTable(sb, datasets, heads, grids, by);
        timingTable(sb, datasets, heads, by);
        failures(sb, results);
        return sb.toString();
    }

    private static List<UciResult> of(Map<String, Map<String, List<UciResult>>> by, String dataset, String head) {
        return by.getOrDefault(dataset, Map.of()).getOrDefault(head, List.of());
    }

    private static boolean few(Map<String, Map<String, List<UciResult>>> by, String dataset) {
        for (List<UciResult> l : by.getOrDefault(dataset, Map.of()).values()) {
            for (UciResult r : l) {
                if (r.ok()) {
                    return UciFigures.fewDistinct(r.distinctTrainY(), r.trainRows());
                }
            }
        }
        return false;
    }

    /** {@code "m +- s"} over the selected folds, with {@code " (k/n folds)"} when some requested fold is missing. */
    private static String cell(Map<Integer, UciResult> sel, ToDoubleFunction<UciResult> f, int requested) {
        if (sel.isEmpty()) {
            return "-";
        }
        double[] v = sel.values().stream().mapToDouble(f).toArray();
        double[] ms = Stats.of(v);
        String s = num(ms[0]) + " +- " + num(ms[1]);
        return sel.size() < requested ? s + " (" + sel.size() + "/" + requested + " folds)" : s;
    }

    /**
     * 4 significant digits ({@link Fmt#sig}: {@code 0.1235}, {@code -2.345}, {@code 1.349e+63} for a decoder's far
     * tails, {@code nan}).
     */
    static String num(double v) {
        return Fmt.sig(v);
    }

    private static void paperTable(StringBuilder sb, List<String> datasets, List<HeadCatalog.Preset> heads,
            Map<String, List<String>> grids, Map<String, int[]> folds, Map<String, Map<String, List<UciResult>>> by) {
        sb.append("### Paper-compatible figure, paper selection\n\n");
        sb.append("Per-token cross-entropy under the head's own softmax for the decoders, -ln P(bin) for the histogram "
                + "(Riemann), density NLL of y01 - 0.5 for the MDN and the pointwise head; mean +- sample std over the "
                + "folds, each fold's grid variant chosen by the lowest paper-compatible figure on its validation rows. "
                + "Paper: appendix A.4 of the decoding paper, mean +- std over its 10 splits. " + DIFFERS.strip()
                + ": our mean differs from the paper's by more than the paper's std (+ 0.005 for its rounding). "
                + FEW.strip() + ": few distinct target values.\n\n");
        sb.append("| dataset |");
        for (HeadCatalog.Preset p : heads) {
            sb.append(' ').append(p.name()).append(" |");
            if (PaperTable.Column.byTitle(p.paperColumn()) != null) {
                sb.append(" paper ").append(p.paperColumn()).append(" |");
            }
        }
        sb.append('\n').append("|---|");
        for (HeadCatalog.Preset p : heads) {
            sb.append(PaperTable.Column.byTitle(p.paperColumn()) != null ? "---|---|" : "---|");
        }
        sb.append('\n');
        for (String ds : datasets) {
            sb.append("| ").append(ds).append(few(by, ds) ? FEW : "").append(" |");
            PaperTable.Row row = PaperTable.row(ds);
            int requested = folds.getOrDefault(ds, new int[0]).length;
            for (HeadCatalog.Preset p : heads) {
                Map<Integer, UciResult> sel = select(of(by, ds, p.name()), grids.get(p.name()), Criterion.PAPER);
                String c = cell(sel, UciResult::paper, requested);
                PaperTable.Column col = PaperTable.Column.byTitle(p.paperColumn());
                if (col != null && row != null && !sel.isEmpty()) {
                    double mean = sel.values().stream().mapToDouble(UciResult::paper).average().orElse(Double.NaN);
                    if (Math.abs(mean - row.mean(col)) > row.std(col) + 0.005) {
                        c += DIFFERS;
                    }
                }
                sb.append(' ').append(c).append(" |");
                if (col != null) {
                    sb.append(' ').append(row == null ? "-" : row.format(col)).append(" |");
                }
            }
            sb.append('\n');
        }
        sb.append('\n');
    }

    private static void maskTable(StringBuilder sb, List<String> datasets, List<HeadCatalog.Preset> heads,
            Map<String, List<String>> grids, Map<String, Map<String, List<UciResult>>> by) {
        List<HeadCatalog.Preset> masked = new ArrayList<>();
        for (HeadCatalog.Preset p : heads) {
            boolean any = false;
            for (String ds : datasets) {
                for (UciResult r : of(by, ds, p.name())) {
                    any |= r.ok() && r.positions() > 0 && r.paper() != r.paperUnmasked();
                }
            }
            if (any) {
                masked.add(p);
            }
        }
        if (masked.isEmpty()) {
            return;
        }
        sb.append("### Per-token cross-entropy of heads trained with a mask: masked (as the head trains; the table above) "
                + "and unmasked (softmax over the whole vocabulary), paper selection\n\n| dataset |");
        for (HeadCatalog.Preset p : masked) {
            sb.append(' ').append(p.name()).append(" masked | ").append(p.name()).append(" unmasked |");
        }
        sb.append("\n|---|").append("---|---|".repeat(masked.size())).append('\n');
        for (String ds : datasets) {
            sb.append("| ").append(ds).append(" |");
            for (HeadCatalog.Preset p : masked) {
                Map<Integer, UciResult> sel = select(of(by, ds, p.name()), grids.get(p.name()), Criterion.PAPER);
                sb.append(' ').append(cell(sel, UciResult::paper, 0)).append(" | ")
                        .append(cell(sel, UciResult::paperUnmasked, 0)).append(" |");
            }
            sb.append('\n');
        }
        sb.append('\n');
    }

    private static void fairTable(StringBuilder sb, String title, ToDoubleFunction<UciResult> f, boolean markSpikes,
            List<String> datasets,
            List<HeadCatalog.Preset> heads, Map<String, List<String>> grids, Map<String, int[]> folds,
            Map<String, Map<String, List<UciResult>>> by) {
        sb.append("### ").append(title).append("\n\nMean +- sample std over the folds; lower is better; each fold's "
                + "grid variant chosen by the lowest resolution NLL on its validation rows. " + FEW.strip()
                + ": few distinct target values (the density NLL rewards point masses there; read CRPS and the "
                + "resolution NLL). " + SPIKES.strip() + ": some test rows got a density above "
                + String.format(Locale.ROOT, "%.0e", UciFigures.SPIKE_DENSITY) + " (a point mass; the number of such "
                + "rows over all folds follows).\n\n| dataset |");
        for (HeadCatalog.Preset p : heads) {
            sb.append(' ').append(p.name()).append(" |");
        }
        sb.append("\n|---|").append("---|".repeat(heads.size())).append('\n');
        for (String ds : datasets) {
            sb.append("| ").append(ds).append(few(by, ds) ? FEW : "").append(" |");
            int requested = folds.getOrDefault(ds, new int[0]).length;
            for (HeadCatalog.Preset p : heads) {
                Map<Integer, UciResult> sel = select(of(by, ds, p.name()), grids.get(p.name()), Criterion.FAIR);
                int spikes = sel.values().stream().mapToInt(UciResult::spikeRows).sum();
                sb.append(' ').append(cell(sel, f, requested)).append(markSpikes && spikes > 0 ? SPIKES + spikes : "")
                        .append(" |");
            }
            sb.append('\n');
        }
        sb.append('\n');
    }

    private static void variantTable(StringBuilder sb, List<String> datasets, List<HeadCatalog.Preset> heads,
            Map<String, List<String>> grids, Map<String, Map<String, List<UciResult>>> by) {
        boolean anyGrid = heads.stream().anyMatch(p -> grids.get(p.name()).size() > 1);
        if (!anyGrid) {
            return;
        }
        sb.append("### Every grid variant: test figures (mean over its finished folds) and how often each selection "
                + "chose it\n\n| dataset | head | variant | folds | paper figure | density NLL y01 | resolution NLL | "
                + "CRPS y01 | chosen (paper) | chosen (fair) |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (String ds : datasets) {
            for (HeadCatalog.Preset p : heads) {
                List<String> g = grids.get(p.name());
                List<UciResult> rs = of(by, ds, p.name());
                Map<Integer, UciResult> sp = select(rs, g, Criterion.PAPER);
                Map<Integer, UciResult> sf = select(rs, g, Criterion.FAIR);
                for (String v : g) {
                    List<UciResult> ok = rs.stream().filter(r -> r.ok() && r.variant().equals(v)).toList();
                    if (ok.isEmpty()) {
                        continue;
                    }
                    long cp = sp.values().stream().filter(r -> r.variant().equals(v)).count();
                    long cf = sf.values().stream().filter(r -> r.variant().equals(v)).count();
                    sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %s | %s | %s | %s | %d | %d |%n", ds,
                            p.name(), v, ok.size(), avg(ok, UciResult::paper), avg(ok, UciResult::fair),
                            avg(ok, UciResult::resolution), num(ok.stream().mapToDouble(UciResult::crps).average().orElse(Double.NaN)),
                            cp, cf));
                }
            }
        }
        sb.append('\n');
    }

    private static String avg(List<UciResult> l, ToDoubleFunction<UciResult> f) {
        return num(l.stream().mapToDouble(f).average().orElse(Double.NaN));
    }

    private static void timingTable(StringBuilder sb, List<String> datasets, List<HeadCatalog.Preset> heads,
            Map<String, Map<String, List<UciResult>>> by) {
        sb.append("### Time per fit (s): training + measuring, mean over the finished fits (all variants); "
                + "load average when the fits ended\n\n| dataset | training rows |");
        for (HeadCatalog.Preset p : heads) {
            sb.append(' ').append(p.name()).append(" |");
        }
        sb.append(" fits | load (min-max) |\n|---|---|").append("---|".repeat(heads.size())).append("---|---|\n");
        for (String ds : datasets) {
            List<UciResult> all = new ArrayList<>();
            by.getOrDefault(ds, Map.of()).values().forEach(all::addAll);
            if (all.isEmpty()) {
                continue;
            }
            int rows = all.stream().filter(UciResult::ok).mapToInt(UciResult::trainRows).max().orElse(0);
            sb.append("| ").append(ds).append(" | ").append(rows).append(" |");
            for (HeadCatalog.Preset p : heads) {
                List<UciResult> ok = of(by, ds, p.name()).stream().filter(UciResult::ok).toList();
                sb.append(ok.isEmpty() ? " - |" : String.format(Locale.ROOT, " %.1f + %.1f |",
                        ok.stream().mapToDouble(UciResult::trainSeconds).average().orElse(0),
                        ok.stream().mapToDouble(UciResult::evalSeconds).average().orElse(0)));
            }
            double lo = all.stream().mapToDouble(UciResult::load).filter(l -> l >= 0).min().orElse(Double.NaN);
            double hi = all.stream().mapToDouble(UciResult::load).filter(l -> l >= 0).max().orElse(Double.NaN);
            sb.append(String.format(Locale.ROOT, " %d | %.1f-%.1f |%n", all.size(), lo, hi));
        }
        sb.append('\n');
    }

    private static void failures(StringBuilder sb, List<UciResult> results) {
        List<UciResult> failed = results.stream().filter(r -> !r.ok()).toList();
        sb.append("### Failed fits: ").append(failed.size()).append("\n\n");
        if (failed.isEmpty()) {
            return;
        }
        sb.append("| dataset | head | variant | fold | why |\n|---|---|---|---|---|\n");
        for (UciResult r : failed) {
            sb.append("| ").append(r.dataset()).append(" | ").append(r.head()).append(" | ").append(r.variant())
                    .append(" | ").append(r.fold()).append(" | ").append(r.message().replace("|", "/")).append(" |\n");
        }
        sb.append('\n');
    }
}
