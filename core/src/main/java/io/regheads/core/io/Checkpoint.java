package io.regheads.core.io;

import io.regheads.core.check.Checks;
import io.regheads.core.nn.Param;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A saved model: a metadata string (the model's configuration, as the writer chooses) and named tensors.
 *
 * <p><b>File format, version 1</b> (big-endian): magic {@code "RGHD"}, int format version, UTF-8 metadata
 * (int length + bytes), int tensor count, then per tensor: UTF-8 name, byte dtype (0 = float32, 1 = float64), int
 * rank, long[rank] shape, the c-ordered values; finally a long CRC32 of every preceding byte. Files are written to
 * a temporary sibling and moved into place, so a crash never leaves a half-written model under the final name.
 *
 * <p>Reading checks the magic, the version, every length against the bytes left and the checksum, and raises an
 * {@link IllegalArgumentException} that names the file and what is wrong ("truncated", "checksum mismatch", ...).
 * Values round-trip bit for bit. The same bytes travel without a file: {@link #toBytes()} / {@link #fromBytes} and
 * {@link #write(OutputStream)} / {@link #read(InputStream)}.
 *
 * @param metadata free text (e.g. a config's {@code toString()} or JSON)
 * @param tensors  name -> tensor, in file order
 */
public record Checkpoint(String metadata, Map<String, INDArray> tensors) {
    private static final byte[] MAGIC = {'R', 'G', 'H', 'D'};
    /** The format version this class writes. */
    public static final int FORMAT_VERSION = 1;

    /**
     * Copies the tensor map (unmodifiable, in order).
     *
     * @param metadata free text stored with the tensors
     * @param tensors  the tensors under their names
     * @throws IllegalArgumentException if metadata or tensors is null
     */
    public Checkpoint {
        Checks.notNull("metadata", metadata);
        tensors = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(Checks.notNull("tensors", tensors)));
    }

    /** The parameters' current values, under their names (which must be unique). */
    public static Checkpoint of(String metadata, List<Param> params) {
        Map<String, INDArray> t = new LinkedHashMap<>();
        for (Param p : params) {
            Checks.require(t.put(p.name(), p.value()) == null, "parameter names must be unique, got %s twice", p.name());
        }
        return new Checkpoint(metadata, t);
    }

    /**
     * Writes this checkpoint atomically to {@code file} (a temporary sibling, then a move).
     *
     * @throws IllegalArgumentException if a tensor is neither float nor double
     * @throws UncheckedIOException     if the file cannot be written
     */
    public void write(Path file) {
        byte[] all = toBytes();
        try {
            Path abs = file.toAbsolutePath();
            Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
            Files.write(tmp, all);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write model file " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes the bytes of {@link #toBytes()} to {@code out}; flushes it and leaves it open.
     *
     * @throws IllegalArgumentException if out is null or a tensor is neither float nor double
     * @throws UncheckedIOException     if the stream fails
     */
    public void write(OutputStream out) {
        Checks.notNull("out", out);
        byte[] all = toBytes();
        try {
            out.write(all);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the model to the stream: " + e.getMessage(), e);
        }
    }

    /**
     * The checkpoint in the file format (see the class description), as one array.
     *
     * @throws IllegalArgumentException if a tensor is neither float nor double
     */
    public byte[] toBytes() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(MAGIC);
            out.writeInt(FORMAT_VERSION);
            writeString(out, metadata);
            out.writeInt(tensors.size());
            for (Map.Entry<String, INDArray> e : tensors.entrySet()) {
                INDArray a = e.getValue();
                boolean isDouble = a.dataType() == DataType.DOUBLE;
                Checks.require(isDouble || a.dataType() == DataType.FLOAT,
                        "tensor %s must be float or double, got %s", e.getKey(), a.dataType());
                writeString(out, e.getKey());
                out.writeByte(isDouble ? 1 : 0);
                out.writeInt(a.rank());
                for (long s : a.shape()) {
                    out.writeLong(s);
                }
                if (isDouble) {
                    for (double v : a.dup('c').data().asDouble()) {
                        out.writeDouble(v);
                    }
                } else {
                    for (float v : a.dup('c').data().asFloat()) {
                        out.writeFloat(v);
                    }
                }
            }
            out.flush();
            CRC32 crc = new CRC32();
            crc.update(bytes.toByteArray());
            out.writeLong(crc.getValue());
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) { // a ByteArrayOutputStream does not fail
            throw new UncheckedIOException(e);
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    /**
     * Reads a checkpoint.
     *
     * @throws IllegalArgumentException if the path is null, missing or a directory, or the file is not a regheads
     *                                  model, of an unknown version, truncated or corrupt (the message says which)
     * @throws UncheckedIOException     if an existing regular file cannot be read (permissions, I/O error)
     */
    public static Checkpoint read(Path file) {
        Checks.notNull("file", file);
        Checks.require(!Files.isDirectory(file), "model file %s is a directory; give the path of a file written by "
                + "save", file);
        byte[] all;
        try {
            all = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("model file " + file + " does not exist");
        } catch (IOException e) {
            throw new UncheckedIOException("could not read model file " + file + ": " + e.getMessage(), e);
        }
        return parse(all, "model file " + file);
    }

    /**
     * Reads a checkpoint from {@code in} up to the end of the stream (which stays open).
     *
     * @throws IllegalArgumentException if in is null, or the bytes are not a regheads model, of an unknown version,
     *                                  truncated or corrupt (the message says which)
     * @throws UncheckedIOException     if the stream fails
     */
    public static Checkpoint read(InputStream in) {
        Checks.notNull("in", in);
        try {
            return parse(in.readAllBytes(), "model stream");
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the model stream: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a checkpoint from the bytes {@link #toBytes()} wrote.
     *
     * @throws IllegalArgumentException if bytes is null, or not a regheads model, of an unknown version, truncated or
     *                                  corrupt (the message says which)
     */
    public static Checkpoint fromBytes(byte[] bytes) {
        Checks.notNull("bytes", bytes);
        return parse(bytes, "model bytes");
    }

    private static Checkpoint parse(byte[] all, String where) {
        Checks.require(all.length >= MAGIC.length + 4 + 8, "%s is truncated: %d bytes", where, all.length);
        Checks.require(Arrays.equals(Arrays.copyOf(all, 4), MAGIC), "%s is not a regheads model (bad magic)", where);
        ByteBuffer in = ByteBuffer.wrap(all, 0, all.length - 8);
        in.position(4);
        int version = in.getInt();
        Checks.require(version == FORMAT_VERSION, "%s has format version %d; this library reads version %d", where, version, FORMAT_VERSION);
        CRC32 crc = new CRC32();
        crc.update(all, 0, all.length - 8);
        long stored = ByteBuffer.wrap(all, all.length - 8, 8).getLong();
        if (crc.getValue() != stored) {
            // say whether bytes are missing or wrong: walk the structure without building any array
            try {
                parse(ByteBuffer.wrap(all, 0, all.length - 8), where, false);
            } catch (BufferUnderflowException e) {
                throw new IllegalArgumentException(where + " is truncated", e);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + " is corrupt: checksum mismatch (" + e.getMessage() + ")", e);
            }
            throw new IllegalArgumentException(where + " is corrupt: checksum mismatch");
        }
        try {
            return parse(ByteBuffer.wrap(all, 0, all.length - 8), where, true);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException(where + " is truncated", e);
        }
    }

    private static Checkpoint parse(ByteBuffer in, String where, boolean materialize) {
        in.position(8); // magic and version were checked
        String meta = readString(in, where);
        int count = in.getInt();
        Checks.require(count >= 0 && count <= 1_000_000, "%s is corrupt: tensor count %d", where, count);
        Map<String, INDArray> tensors = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String name = readString(in, where);
            byte type = in.get();
            Checks.require(type == 0 || type == 1, "%s is corrupt: tensor %s has dtype code %d", where, name, type);
            int rank = in.getInt();
            Checks.require(rank >= 0 && rank <= 8, "%s is corrupt: tensor %s has rank %d", where, name, rank);
            long[] shape = new long[rank];
            long n = 1;
            for (int r = 0; r < rank; r++) {
                shape[r] = in.getLong();
                Checks.require(shape[r] >= 0 && shape[r] <= Integer.MAX_VALUE,
                        "%s is corrupt: tensor %s has shape %s", where, name, Arrays.toString(shape));
                n = Math.multiplyExact(n, shape[r]);
            }
            long need = n * (type == 1 ? 8 : 4);
            if (need > in.remaining()) {
                throw new BufferUnderflowException();
            }
            if (materialize) {
                if (type == 1) {
                    double[] d = new double[(int) n];
                    in.asDoubleBuffer().get(d);
                    tensors.put(name, Nd4j.create(d, shape, 'c'));
                } else {
                    float[] f = new float[(int) n];
                    in.asFloatBuffer().get(f);
                    tensors.put(name, Nd4j.create(f, shape, 'c'));
                }
            }
            in.position(in.position() + (int) need);
        }
        Checks.require(!in.hasRemaining(), "%s is corrupt: %d unexpected bytes before the checksum", where, in.remaining());
        return new Checkpoint(meta, tensors);
    }

    private static String readString(ByteBuffer in, String where) {
        int len = in.getInt();
        Checks.require(len >= 0, "%s is corrupt: string length %d", where, len);
        if (len > in.remaining()) {
            throw new BufferUnderflowException();
        }
        byte[] b = new byte[len];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * Copies the stored values into {@code params} (same names, shapes and types, in any order).
     *
     * @throws IllegalArgumentException naming the first missing, extra or mismatched tensor
     */
    public void loadInto(List<Param> params) {
        Checks.require(params.size() == tensors.size(),
                "model file holds %d tensors but the model has %d parameters", tensors.size(), params.size());
        for (Param p : params) {
            INDArray t = tensors.get(p.name());
            Checks.require(t != null, "model file has no tensor named %s", p.name());
            Checks.require(Arrays.equals(t.shape(), p.value().shape()),
                    "tensor %s must have shape %s, got %s in the file", p.name(), Arrays.toString(p.value().shape()), Arrays.toString(t.shape()));
            Checks.require(t.dataType() == p.value().dataType(),
                    "tensor %s must be %s, got %s in the file", p.name(), p.value().dataType(), t.dataType());
            p.value().assign(t);
        }
    }
}
