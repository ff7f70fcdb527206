package io.regheads.app.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one {@link UciTask} gave: the paper-compatible and the fair figures on the test fold, the figures the
 * selection compares on the validation rows, and how the fit went. One line of a results file
 * ({@link #toMap()} / {@link #fromMap}). Figures are in nats (NLLs) or y01 units (CRPS, RMSE); NaN where not
 * measured (a failed fit).
 *
 * @param dataset        data set name
 * @param fold           test fold
 * @param head           head name
 * @param variant        grid variant label
 * @param loss           the task's loss ({@link UciTask#lossLabel()})
 * @param trainer        the trainer settings as text ({@code TrainerConfig.toString()})
 * @param status         {@link #OK} or {@link #FAILED}
 * @param message        why the fit failed (exception class and message, or the divergence), else empty
 * @param trainRows      training rows of the fold (the validation rows included)
 * @param validationRows rows the trainer held out for early stopping and the selection
 * @param testRows       test rows
 * @param distinctTrainY distinct target values among the training rows
 * @param positions      tokens per number T for token heads, 0 for continuous heads
 * @param paper          the paper-compatible figure on the test rows ({@link UciFigures}): per-token CE under the
 *                       head's own softmax (token heads: masked where the head trains with a mask) or the density
 *                       NLL of y01 - 0.5 (continuous heads)
 * @param paperUnmasked  token heads: the per-token CE with the softmax over the whole vocabulary, as the authors'
 *                       code computes it (= paper for a head without a mask); continuous heads: = paper
 * @param fair           density NLL of y01 on the test rows, y01 clipped into [0, 1 - 1e-7]
 * @param clipped        test rows whose y01 was clipped
 * @param spikeRows      test rows whose density of clipped y01 exceeds {@link UciFigures#SPIKE_DENSITY}: mass in a
 *                       cell narrower than 1e-6, i.e. a point mass rewarded by the density NLL
 * @param resolution     NLL at the data's resolution ({@link UciFigures#resolutionNll}) on the test rows
 * @param crps           mean CRPS of y01 on the test rows (100-level quantile grid)
 * @param rmse           RMSE of the head's point prediction, y01 units
 * @param valPaper       {@code paper} on the validation rows
 * @param valFair        {@code fair} on the validation rows
 * @param valResolution  {@code resolution} on the validation rows (the fair selection's criterion)
 * @param epochs         epochs run
 * @param bestEpoch      epoch whose weights were kept
 * @param stopReason     why training stopped
 * @param trainSeconds   wall time of the fit
 * @param evalSeconds    wall time of the measurements
 * @param load           the system load average (1 minute) when the task ended, or -1 if unknown
 * @param encoder        the MLP encoder, {@code layers x width} ({@link UciTask#encoder()}); lines written before the
 *                       encoder was a setting read as {@value UciTask#DEFAULT_ENCODER}
 */
public record UciResult(String dataset, int fold, String head, String variant, String loss, String trainer,
        String status,
        String message, int trainRows, int validationRows, int testRows, int distinctTrainY, int positions,
        double paper, double paperUnmasked, double fair, int clipped, int spikeRows, double resolution, double crps,
        double rmse, double valPaper, double valFair, double valResolution, int epochs, int bestEpoch, String stopReason, double trainSeconds,
        double evalSeconds, double load, String encoder) implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Status of a fit that gave its figures. */
    public static final String OK = "ok";
    /** Status of a fit that threw, diverged, or gave a non-finite figure. */
    public static final String FAILED = "failed";

    /** True if the fit gave its figures. */
    public boolean ok() {
        return OK.equals(status);
    }

    /** The key of the task this result belongs to ({@link UciTask#key()}). */
    public String key() {
        return UciTask.key(dataset, fold, head, variant, loss, trainer, encoder);
    }

    /** A failed task's result: names, status, message; every figure NaN. */
    static UciResult failed(UciTask t, String message, double seconds, double load) {
        return new UciResult(t.dataset(), t.fold(), t.head(), t.variant(), t.lossLabel(), t.trainer().toString(),
                FAILED, message, 0, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, 0, 0, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0, "", seconds, 0, load, t.encoder());
    }

    /** The fields by name, in declaration order (for {@link Json#write}). */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (java.lang.reflect.RecordComponent c : UciResult.class.getRecordComponents()) {
            try {
                m.put(c.getName(), c.getAccessor().invoke(this));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + c.getName(), e);
            }
        }
        return m;
    }

    /**
     * The result whose fields {@code m} holds (as {@link Json#readFlat} gives them: numbers as Double, null for a
     * non-finite figure, read back as NaN).
     *
     * @throws IllegalArgumentException if a field is missing or of the wrong type
     */
    static UciResult fromMap(Map<String, Object> m) {
        return new UciResult(str(m, "dataset"), integer(m, "fold"), str(m, "head"), str(m, "variant"),
                str(m, "loss"), str(m, "trainer"), str(m, "status"), str(m, "message"), integer(m, "trainRows"),
                integer(m, "validationRows"), integer(m, "testRows"), integer(m, "distinctTrainY"),
                integer(m, "positions"), num(m, "paper"), num(m, "paperUnmasked"), num(m, "fair"), integer(m, "clipped"),
                integer(m, "spikeRows"), num(m, "resolution"), num(m, "crps"), num(m, "rmse"), num(m, "valPaper"),
                num(m, "valFair"), num(m, "valResolution"),
                integer(m, "epochs"), integer(m, "bestEpoch"), str(m, "stopReason"), num(m, "trainSeconds"),
                num(m, "evalSeconds"), num(m, "load"),
                m.containsKey("encoder") ? str(m, "encoder") : UciTask.DEFAULT_ENCODER);
    }

    private static Object field(Map<String, Object> m, String name) {
        if (!m.containsKey(name)) {
            throw new IllegalArgumentException("result line has no field '" + name + "'");
        }
        return m.get(name);
    }

    private static String str(Map<String, Object> m, String name) {
        Object v = field(m, name);
        if (!(v instanceof String s)) {
            throw new IllegalArgumentException("result field '" + name + "' must be a string, got " + v);
        }
        return s;
    }

    private static double num(Map<String, Object> m, String name) {
        Object v = field(m, name);
        if (v == null) {
            return Double.NaN;
        }
        if (!(v instanceof Double d)) {
            throw new IllegalArgumentException("result field '" + name + "' must be a number, got " + v);
        }
        return d;
    }

    private static int integer(Map<String, Object> m, String name) {
        double d = num(m, name);
        if (d != Math.rint(d) || Math.abs(d) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("result field '" + name + "' must be an integer, got " + d);
        }
        return (int) d;
    }
}
