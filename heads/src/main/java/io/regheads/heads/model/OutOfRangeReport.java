package io.regheads.heads.model;

import io.regheads.core.check.Checks;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The inputs of a prediction that lie far outside the training data ({@link RegressionModel#outOfRange}): every
 * (row, column) with {@code |x - mean| > k * sd}, mean and sd the training mean and population standard deviation of
 * that column.
 *
 * <p>Example: trained on x0 in [-1, 1], the row {@code (1000, 0)} gives one entry: row 0, column 0, value 1000,
 * deviations {@code 1000 / 0.577 = 1732}. Immutable.
 *
 * @param k       the threshold in training standard deviations
 * @param rows    the number of rows checked
 * @param entries the (row, column) pairs beyond the threshold, by row then column
 */
public record OutOfRangeReport(double k, int rows, List<Entry> entries) {

    /**
     * One feature of one row beyond the threshold.
     *
     * @param row        the row of x
     * @param column     the feature's index
     * @param value      {@code x[row][column]}
     * @param mean       the feature's training mean
     * @param sd         the feature's training standard deviation (0 if it was constant)
     * @param deviations {@code |value - mean| / sd} ({@code +Infinity} if sd is 0)
     */
    public record Entry(int row, int column, double value, double mean, double sd, double deviations) {}

    /** Copies the list (unmodifiable). */
    public OutOfRangeReport {
        entries = List.copyOf(entries);
    }

    /** Checks x against the training statistics; see the class description. */
    static OutOfRangeReport of(double[][] x, double[] mean, double[] sd, double k) {
        List<Entry> found = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < mean.length; j++) {
                double dev = Math.abs(x[i][j] - mean[j]);
                double sds = sd[j] > 0 ? dev / sd[j] : (dev > 0 ? Double.POSITIVE_INFINITY : 0);
                if (sds > k) {
                    found.add(new Entry(i, j, x[i][j], mean[j], sd[j], sds));
                }
            }
        }
        return new OutOfRangeReport(k, x.length, found);
    }

    /** {@code v} to {@code digits} significant digits without trailing zeros: 9, 11.02, 1.5e+07, Infinity. */
    static String compact(double v, int digits) {
        if (!Double.isFinite(v)) {
            return Double.toString(v);
        }
        String s = String.format(Locale.ROOT, "%." + digits + "g", v);
        int e = s.indexOf('e');
        String mantissa = e < 0 ? s : s.substring(0, e);
        if (mantissa.contains(".")) {
            mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return e < 0 ? mantissa : mantissa + s.substring(e);
    }

    /** True if no row lies beyond the threshold. */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The rows with at least one feature beyond the threshold, increasing. */
    public int[] flaggedRows() {
        Set<Integer> r = new LinkedHashSet<>();
        for (Entry e : entries) {
            r.add(e.row());
        }
        return r.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * One line for a user, naming the first few entries with the columns' names, e.g. {@code "1 of 20 rows have
     * inputs more than 10 training standard deviations from the training mean (predictions there extrapolate): row
     * 3, x0 = 1000 (1732 sd from mean 0.0)"}; {@code "no row ..."} when empty.
     *
     * @param names the columns' names ({@code [D]}), or null for {@code x0, x1, ...}
     * @param limit how many entries to name, >= 1
     */
    public String message(String[] names, int limit) {
        Checks.atLeast("limit", limit, 1);
        String head = String.format(Locale.ROOT, "%d of %d rows have inputs more than %s training standard deviations "
                + "from the training mean", flaggedRows().length, rows, compact(k, 4));
        if (entries.isEmpty()) {
            return "none of " + rows + " rows has inputs more than " + compact(k, 4)
                    + " training standard deviations from the training mean";
        }
        StringBuilder sb = new StringBuilder(head).append(" (predictions there extrapolate): ");
        for (int e = 0; e < Math.min(limit, entries.size()); e++) {
            Entry en = entries.get(e);
            String name = names != null && en.column() < names.length ? names[en.column()] : "x" + en.column();
            sb.append(e == 0 ? "" : "; ").append(String.format(Locale.ROOT, "row %d, %s = %s (%s sd from mean %s)",
                    en.row(), name, compact(en.value(), 6), compact(en.deviations(), 4), compact(en.mean(), 6)));
        }
        if (entries.size() > limit) {
            sb.append("; and ").append(entries.size() - limit).append(" more");
        }
        return sb.toString();
    }
}
