package io.regheads.app.cli;

import io.regheads.core.train.Trainer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The markdown report of {@code regheads defaults}: per study and head, the candidates' mean ranks over (data set,
 * outer fold) units, their mean distance from each unit's best, and the per-data-set NLL with its spread over folds;
 * or, for {@code --divergence}, the fits that diverged.
 *
 * <p>Ranking: within one unit, the candidates of one head are ranked by each figure (1 = best; ties share the mean
 * rank; a failed fit ranks below every finished one). A unit counts once all of its candidates have a result.
 *
 * <p>Stateless.
 */
final class DefaultsReport {
    private DefaultsReport() {}

    /** The figures ranked, in table order: field name, column title. */
    private static final String[][] FIGURES = {{"nll", "NLL"}, {"crps", "CRPS"}, {"rmse", "RMSE"}};

    static String markdown(String command, List<DefaultsStudy> studies, List<String> datasets,
            Map<String, int[]> folds, Map<String, Map<String, Object>> store, long seed, int epochs) {
        StringBuilder sb = new StringBuilder();
        sb.append("```\n").append(command).append("\n```\n\n");
        sb.append(String.format(Locale.ROOT, "Seed %d; at most %d epochs per fit; for outer fold k each candidate trains "
                + "on the folds other than k and k+1 (early stopping on 10%% of those rows) and is scored on fold k+1; "
                + "fold k is never read. NLL: mean negative log density of the selection targets clipped into the "
                + "training range (original units); CRPS and RMSE of the head's point estimate in original units. Rank "
                + "1 is best; mean rank over (dataset, fold) units; ΔNLL: mean nats above the unit's best candidate; "
                + "RMSE ratio: mean of RMSE / the unit's best RMSE.%n%n", seed, epochs));
        for (DefaultsStudy s : studies) {
            sb.append("## ").append(s.name()).append("\n\n").append(s.question()).append(".\n\n");
            for (String head : s.heads()) {
                List<DefaultsStudy.Arm> arms = s.arms(head);
                List<Map<String, Object>[]> units = units(arms, datasets, folds, store, seed, epochs, null);
                sb.append(String.format(Locale.ROOT, "### %s (%d units)%n%n", head, units.size()));
                summary(sb, arms, units);
                sb.append("\nNLL per dataset, mean +- sd over folds:\n\n| dataset |");
                arms.forEach(a -> sb.append(' ').append(a.label()).append(" |"));
                sb.append("\n|---|").append("---|".repeat(arms.size())).append('\n');
                for (String d : datasets) {
                    List<Map<String, Object>[]> du = units(arms, List.of(d), folds, store, seed, epochs, null);
                    if (du.isEmpty()) {
                        continue;
                    }
                    sb.append("| ").append(d).append(" |");
                    for (int i = 0; i < arms.size(); i++) {
                        List<Double> v = new ArrayList<>();
                        for (Map<String, Object>[] u : du) {
                            if (ok(u[i])) {
                                v.add(value(u[i], "nll"));
                            }
                        }
                        sb.append(' ').append(meanSd(v)).append(v.size() < du.size() ? " (" + (du.size() - v.size())
                                + " failed)" : "").append(" |");
                    }
                    sb.append('\n');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    private static void summary(StringBuilder sb, List<DefaultsStudy.Arm> arms, List<Map<String, Object>[]> units) {
        sb.append("| candidate | rank NLL (sd) | rank CRPS | rank RMSE | ΔNLL | RMSE ratio | NLL wins | failed | "
                + "zero-density rows | epochs (at cap) | train s |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
        int n = arms.size();
        double[][] ranks = new double[FIGURES.length][];
        double[] rankSq = new double[n];
        for (int f = 0; f < FIGURES.length; f++) {
            ranks[f] = new double[n];
            for (Map<String, Object>[] u : units) {
                double[] r = ranks(u, FIGURES[f][0]);
                for (int i = 0; i < n; i++) {
                    ranks[f][i] += r[i];
                    if (f == 0) {
                        rankSq[i] += r[i] * r[i];
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            double dNll = 0;
            double ratio = 0;
            int finished = 0;
            int wins = 0;
            int failed = 0;
            int zero = 0;
            double epochs = 0;
            int atCap = 0;
            double seconds = 0;
            for (Map<String, Object>[] u : units) {
                if (!ok(u[i])) {
                    failed++;
                    continue;
                }
                double bestNll = best(u, "nll");
                dNll += value(u[i], "nll") - bestNll;
                ratio += value(u[i], "rmse") / best(u, "rmse");
                wins += value(u[i], "nll") == bestNll ? 1 : 0;
                finished++;
                zero += (int) value(u[i], "zeroDensity");
                epochs += value(u[i], "epochs");
                atCap += "MAX_EPOCHS".equals(u[i].get("stopReason")) ? 1 : 0;
                seconds += value(u[i], "trainSeconds");
            }
            int m = units.size();
            double meanRank = ranks[0][i] / m;
            double sd = m > 1 ? Math.sqrt(Math.max(0, (rankSq[i] - m * meanRank * meanRank) / (m - 1))) : 0;
            sb.append(String.format(Locale.ROOT, "| %s | %.2f (%.2f) | %.2f | %.2f | %s | %s | %d | %d | %d | %s (%d) | "
                    + "%s |%n", arms.get(i).label(), meanRank, sd, ranks[1][i] / m, ranks[2][i] / m,
                    finished == 0 ? "-" : String.format(Locale.ROOT, "%.3f", dNll / finished),
                    finished == 0 ? "-" : String.format(Locale.ROOT, "%.3f", ratio / finished), wins, failed, zero,
                    finished == 0 ? "-" : String.format(Locale.ROOT, "%.0f", epochs / finished), atCap,
                    finished == 0 ? "-" : String.format(Locale.ROOT, "%.1f", seconds / finished)));
        }
    }

    /** The divergence report: per data set the fits, those that diverged or failed, and the worst loss spike. */
    static String divergence(String command, DefaultsStudy study, List<String> datasets, Map<String, int[]> folds,
            Map<String, Map<String, Object>> store, long seed, int epochs) {
        StringBuilder sb = new StringBuilder();
        sb.append("```\n").append(command).append("\n```\n\n");
        sb.append(String.format(Locale.ROOT, "Seed %d; each head's preset with the library's defaults, trained on the "
                + "whole training part of each fold for at most %d epochs. Spike: the largest mini-batch training "
                + "loss minus the first batch's (taken before any update), over max(|first|, 1); fits with a spike "
                + "above %.0f: those a rule that stops at the first batch that far above the loss before training "
                + "would end (the trainer stops after %d such batches in a row, or when the run has not recovered by "
                + "the epoch's end).%n%n", seed, epochs, Trainer.EXPLOSION_FACTOR, Trainer.SPIKE_STEPS));
        List<String> failures = new ArrayList<>();
        for (String head : study.heads()) {
            DefaultsStudy.Arm arm = study.arms(head).get(0);
            sb.append("### ").append(head).append(" (trainer: ").append(arm.trainer(seed, epochs)).append(", loss ")
                    .append(arm.loss()).append(String.format(Locale.ROOT, ")%n%n| dataset | fits | diverged | "
                            + "other failures | epochs (mean) | worst spike | fits with a spike above %.0f | train s (mean) "
                            + "|%n|---|---|---|---|---|---|---|---|%n", Trainer.EXPLOSION_FACTOR));
            int[] total = new int[4];
            for (String d : datasets) {
                int fits = 0;
                int diverged = 0;
                int failed = 0;
                double ep = 0;
                double secs = 0;
                double spike = Double.NEGATIVE_INFINITY;
                int spiking = 0;
                for (int k : folds.get(d)) {
                    Map<String, Object> r = store.get("divergence|" + arm.key(d, k, seed, epochs));
                    if (r == null) {
                        continue;
                    }
                    fits++;
                    boolean div = "DIVERGED".equals(r.get("stopReason"));
                    diverged += div ? 1 : 0;
                    failed += !div && !ok(r) ? 1 : 0;
                    if (!ok(r)) {
                        failures.add("| " + d + " | " + head + " | " + k + " | " + r.get("message") + " |");
                    }
                    ep += value(r, "epochs");
                    secs += value(r, "trainSeconds");
                    double first = value(r, "firstStepLoss");
                    double rise = (value(r, "maxStepLoss") - first) / Math.max(Math.abs(first), 1);
                    spike = Math.max(spike, rise);
                    spiking += rise > Trainer.EXPLOSION_FACTOR ? 1 : 0;
                }
                if (fits == 0) {
                    continue;
                }
                total[0] += fits;
                total[1] += diverged;
                total[2] += failed;
                total[3] += spiking;
                sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.1f | %.3g | %d | %.1f |%n", d, fits,
                        diverged, failed, ep / fits, spike, spiking, secs / fits));
            }
            sb.append(String.format(Locale.ROOT, "| all | %d | %d | %d | | | %d | |%n%n", total[0], total[1], total[2],
                    total[3]));
        }
        sb.append("Failed fits: ").append(failures.size()).append("\n\n");
        if (!failures.isEmpty()) {
            sb.append("| dataset | head | fold | why |\n|---|---|---|---|\n");
            failures.forEach(f -> sb.append(f).append('\n'));
        }
        return sb.toString();
    }

    /** The units (one per data set and fold) where every arm has a result: per unit, the arms' results in order. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>[]> units(List<DefaultsStudy.Arm> arms, List<String> datasets,
            Map<String, int[]> folds, Map<String, Map<String, Object>> store, long seed, int epochs, String prefix) {
        List<Map<String, Object>[]> units = new ArrayList<>();
        for (String d : datasets) {
            for (int k : folds.get(d)) {
                Map<String, Object>[] u = new Map[arms.size()];
                boolean complete = true;
                for (int i = 0; i < arms.size(); i++) {
                    u[i] = store.get((prefix == null ? "" : prefix) + arms.get(i).key(d, k, seed, epochs));
                    complete &= u[i] != null;
                }
                if (complete) {
                    units.add(u);
                }
            }
        }
        return units;
    }

    /** Ranks of one unit's results by {@code field} (1 = lowest; ties and failed fits share mean ranks). */
    static double[] ranks(Map<String, Object>[] unit, String field) {
        int n = unit.length;
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = ok(unit[i]) && Double.isFinite(value(unit[i], field)) ? value(unit[i], field)
                    : Double.POSITIVE_INFINITY;
        }
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            int below = 0;
            int equal = 0;
            for (int j = 0; j < n; j++) {
                below += v[j] < v[i] ? 1 : 0;
                equal += v[j] == v[i] ? 1 : 0;
            }
            r[i] = below + (equal + 1) / 2.0;
        }
        return r;
    }

    private static double best(Map<String, Object>[] unit, String field) {
        double b = Double.POSITIVE_INFINITY;
        for (Map<String, Object> r : unit) {
            if (ok(r)) {
                b = Math.min(b, value(r, field));
            }
        }
        return b;
    }

    static boolean ok(Map<String, Object> r) {
        return "OK".equals(r.get("status"));
    }

    /** A numeric field; NaN when absent or null. */
    static double value(Map<String, Object> r, String field) {
        Object o = r.get(field);
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static String meanSd(List<Double> v) {
        if (v.isEmpty()) {
            return "-";
        }
        double m = v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        if (v.size() == 1) {
            return String.format(Locale.ROOT, "%.3f", m);
        }
        double ss = v.stream().mapToDouble(x -> (x - m) * (x - m)).sum();
        return String.format(Locale.ROOT, "%.3f +- %.3f", m, Math.sqrt(ss / (v.size() - 1)));
    }
}
