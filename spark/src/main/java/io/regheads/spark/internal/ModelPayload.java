package io.regheads.spark.internal;

import io.regheads.core.check.Checks;
import io.regheads.heads.model.RegressionModel;
import java.io.Serializable;
import java.util.UUID;

/**
 * What a driver broadcasts to ship a model: the saved bytes under a token that is unique across Spark contexts, so
 * that {@link ExecutorModels} can cache the loaded model per executor JVM without confusing two models (broadcast
 * ids restart at 0 in every new context of the same JVM).
 *
 * <p>A plain class rather than a record: Spark 4.0's Kryo (4.0.3) cannot rebuild records, and broadcasts go through
 * Kryo when {@code spark.serializer} says so. Immutable (the bytes are not copied: treat them as read-only).
 */
public final class ModelPayload implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String token;
    private final byte[] bytes;

    /**
     * @param token unique name of these bytes
     * @param bytes the model as {@link ModelBytes#of} writes it
     */
    public ModelPayload(String token, byte[] bytes) {
        this.token = Checks.notNull("token", token);
        Checks.require(bytes != null && bytes.length > 0, "bytes must hold a saved model, got %s",
                bytes == null ? "null" : "0 bytes");
        this.bytes = bytes;
    }

    /** The payload of {@code model}, under a fresh random token. */
    public static ModelPayload of(RegressionModel model) {
        return of(ModelBytes.of(model));
    }

    /** {@code bytes} under a fresh random token. */
    public static ModelPayload of(byte[] bytes) {
        return new ModelPayload(UUID.randomUUID().toString(), bytes);
    }

    /** Unique name of the bytes. */
    public String token() {
        return token;
    }

    /** The saved model (not a copy). */
    public byte[] bytes() {
        return bytes;
    }
}
