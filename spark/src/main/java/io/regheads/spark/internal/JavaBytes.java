package io.regheads.spark.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * Java serialization to and from bytes, for values that must cross Spark whatever {@code spark.serializer} is
 * (Kryo 4 cannot rebuild records). The class loader of deserialization is the thread's context class loader, which
 * on an executor sees the application jar.
 *
 * <p>Stateless and thread-safe.
 */
public final class JavaBytes {
    private JavaBytes() {}

    /** The Java-serialized form of {@code value}. */
    public static byte[] of(Serializable value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException("could not serialize " + value.getClass().getName() + ": " + e, e);
        }
        return bytes.toByteArray();
    }

    /** The value {@link #of} wrote. */
    @SuppressWarnings("unchecked")
    public static <T> T read(byte[] bytes) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(java.io.ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    return super.resolveClass(desc);
                }
            }
        }) {
            return (T) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("could not deserialize a task value: " + e, e);
        }
    }
}
