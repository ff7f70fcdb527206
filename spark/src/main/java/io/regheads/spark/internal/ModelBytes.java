package io.regheads.spark.internal;

import io.regheads.core.check.Checks;
import io.regheads.heads.model.RegressionModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link RegressionModel} as bytes and back: the one place where this module turns models into something Spark
 * can broadcast.
 *
 * <p>The bytes are exactly those {@link RegressionModel#save} writes, so {@link #load} gives a model that predicts
 * bit for bit like the original. The library saves to and loads from files only, so both directions go through a
 * temporary file that is deleted before the call returns; when the library gains stream or byte-array save/load,
 * only this class changes.
 *
 * <p>Stateless and thread-safe (each call uses its own temporary file).
 */
public final class ModelBytes {
    private ModelBytes() {}

    /**
     * The saved form of {@code model}.
     *
     * @throws IllegalArgumentException if model is null or not fitted
     * @throws UncheckedIOException     if the temporary file cannot be written or read
     */
    public static byte[] of(RegressionModel model) {
        Checks.notNull("model", model);
        Checks.require(model.isFitted(), "model must be fitted (or loaded) before it can be shipped, got an unfitted %s",
                model);
        Path file = tempFile();
        try {
            model.save(file);
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read back the saved model from " + file + ": " + e.getMessage(), e);
        } finally {
            delete(file);
        }
    }

    /**
     * The model {@code bytes} hold (as {@link RegressionModel#load} reads them).
     *
     * @throws IllegalArgumentException if bytes is null, empty, truncated or not a saved regheads model
     */
    public static RegressionModel load(byte[] bytes) {
        Checks.notNull("bytes", bytes);
        Checks.require(bytes.length > 0, "bytes must hold a saved model, got 0 bytes");
        Path file = tempFile();
        try {
            Files.write(file, bytes);
            return RegressionModel.load(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the model to the temporary file " + file + ": "
                    + e.getMessage(), e);
        } finally {
            delete(file);
        }
    }

    private static Path tempFile() {
        try {
            return Files.createTempFile("regheads-model-", ".rgh");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a temporary model file: " + e.getMessage(), e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }
}
