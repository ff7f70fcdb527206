package io.regheads.spark.internal;

import io.regheads.core.internal.Checks;
import io.regheads.heads.model.RegressionModel;
import java.io.Serializable;
import java.util.UUID;

/**
 * What a driver broadcasts to ship a model: the saved bytes under a token that is unique across Spark contexts, so
 * that {@link ExecutorModels} can cache the loaded model per executor JVM without confusing two models (broadcast
 * ids restart at 0 in every new context of the same JVM).
 *
 * @param token unique name of these bytes
 * @param bytes the model as {@link ModelBytes#of} writes it (not copied: treat as read-only)
 */
public record ModelPayload(String token, byte[] bytes) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Checks both fields. */
    public ModelPayload {
        Checks.notNull("token", token);
        Checks.require(bytes != null && bytes.length > 0, "bytes must hold a saved model, got %s",
                bytes == null ? "null" : "0 bytes");
    }

    /** The payload of {@code model}, under a fresh random token. */
    public static ModelPayload of(RegressionModel model) {
        return of(ModelBytes.of(model));
    }

    /** {@code bytes} under a fresh random token. */
    public static ModelPayload of(byte[] bytes) {
        return new ModelPayload(UUID.randomUUID().toString(), bytes);
    }
}
