package io.regheads.heads.model;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.io.Settings;
import io.regheads.core.train.TrainingResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Where a fitted model's weights came from, saved with it under {@code provenance.*} in place of a date: everything
 * here is fixed by the data, the configuration and the seed, so identical fits still give identical files.
 *
 * <p>Keys: {@code provenance.library} (the library version that trained it), {@code provenance.head} (the head
 * spec, e.g. {@code MixtureSpec[components=10, sigmaFloor=1.0E-4]}), {@code provenance.trainingRows}, {@code
 * provenance.validationRows}, {@code provenance.epochs} (epochs run), {@code provenance.bestEpoch} (the epoch whose
 * weights were kept), {@code provenance.stopReason}, {@code provenance.trainLoss} (mean training loss of the last
 * completed epoch, in head units) and {@code provenance.validationLoss} (at the best epoch; NaN without validation).
 *
 * @param library        the library version, e.g. {@code 0.1.0-SNAPSHOT} ({@code unknown} if the build did not say)
 * @param head           the head spec as text
 * @param trainingRows   rows the optimiser saw
 * @param validationRows rows held out for early stopping (0 if none)
 * @param epochs         epochs run
 * @param bestEpoch      the epoch whose weights the model holds
 * @param stopReason     why training stopped ({@link TrainingResult.StopReason} name)
 * @param trainLoss      mean training loss of the last completed epoch (NaN if none completed)
 * @param validationLoss validation loss at the best epoch (NaN without validation)
 */
public record ModelProvenance(String library, String head, long trainingRows, long validationRows, int epochs,
        int bestEpoch, String stopReason, double trainLoss, double validationLoss) {
    private static final String PREFIX = "provenance.";

    /** Validates the fields. */
    public ModelProvenance {
        Checks.notNull("library", library);
        Checks.notNull("head", head);
        Checks.notNull("stopReason", stopReason);
        Checks.require(trainingRows >= 0, "trainingRows must be >= 0, got %s", trainingRows);
        Checks.require(validationRows >= 0, "validationRows must be >= 0, got %s", validationRows);
        Checks.atLeast("epochs", epochs, 0);
        Checks.atLeast("bestEpoch", bestEpoch, 0);
    }

    /** The library version of this build, from the heads module's resources; {@code unknown} if absent. */
    public static String libraryVersion() {
        try (InputStream in = ModelProvenance.class.getResourceAsStream("library.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version");
            return v == null || v.isBlank() || v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The provenance of a fit of {@code head} on these rows with this result. */
    static ModelProvenance of(HeadSpec head, long trainingRows, long validationRows, TrainingResult r) {
        List<Double> train = r.trainLosses();
        double last = train.isEmpty() ? Double.NaN : train.get(train.size() - 1);
        return new ModelProvenance(libraryVersion(), head.toString(), trainingRows, validationRows, r.epochsRun(),
                r.bestEpoch(), r.stopReason().name(), last, r.bestValidationLoss());
    }

    /**
     * {@link #of} for a training run made outside {@code fit}, its counts and result checked first.
     *
     * @throws IllegalArgumentException if trainingRows is below 1, validationRows below 0 or the result null
     */
    static ModelProvenance recorded(HeadSpec head, long trainingRows, long validationRows, TrainingResult r) {
        Checks.require(trainingRows >= 1, "trainingRows must be >= 1, got %s", trainingRows);
        Checks.require(validationRows >= 0, "validationRows must be >= 0, got %s", validationRows);
        Checks.notNull("result", r);
        return of(head, trainingRows, validationRows, r);
    }

    /** The {@code provenance.*} keys of the class description. */
    public Properties toProperties() {
        Properties p = new Properties();
        p.setProperty(PREFIX + "library", library);
        p.setProperty(PREFIX + "head", head);
        p.setProperty(PREFIX + "trainingRows", Long.toString(trainingRows));
        p.setProperty(PREFIX + "validationRows", Long.toString(validationRows));
        p.setProperty(PREFIX + "epochs", Integer.toString(epochs));
        p.setProperty(PREFIX + "bestEpoch", Integer.toString(bestEpoch));
        p.setProperty(PREFIX + "stopReason", stopReason);
        p.setProperty(PREFIX + "trainLoss", Double.toString(trainLoss));
        p.setProperty(PREFIX + "validationLoss", Double.toString(validationLoss));
        return p;
    }

    /**
     * Reads the keys {@link #toProperties()} writes; empty if there are none (files written before provenance was
     * kept).
     *
     * @throws IllegalArgumentException naming the key if some are present but one is missing or malformed
     */
    static Optional<ModelProvenance> read(Properties p) {
        if (p.getProperty(PREFIX + "library") == null) {
            return Optional.empty();
        }
        Settings s = Settings.of(p, PREFIX);
        return Optional.of(new ModelProvenance(s.string("library"), s.string("head"), s.longInteger("trainingRows"),
                s.longInteger("validationRows"), s.integer("epochs"), s.integer("bestEpoch"), s.string("stopReason"),
                loss(s, "trainLoss"), loss(s, "validationLoss")));
    }

    /** A number or NaN. */
    private static double loss(Settings s, String name) {
        String v = s.string(name);
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(s.key(name) + " must be a number or NaN, got '" + v + "'", e);
        }
    }
}
