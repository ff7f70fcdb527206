package io.regheads.core.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.nn.Param;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.linalg.factory.Nd4j;

class CheckpointTest {
    @TempDir
    Path dir;

    private List<Param> params() {
        return List.of(
                new Param("w", Nd4j.createFromArray(new float[][] {{1.5f, -2.25f, Float.MIN_VALUE}, {3e30f, 0f, -0f}})),
                new Param("b", Nd4j.createFromArray(0.1, Math.PI, -1e-300)));
    }

    @Test
    void roundTripsBitForBit() {
        Path f = dir.resolve("m.rgh");
        Checkpoint.of("{\"head\":\"mdn\"}", params()).write(f);
        Checkpoint c = Checkpoint.read(f);
        assertEquals("{\"head\":\"mdn\"}", c.metadata());
        List<Param> fresh = List.of(new Param("b", Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.DOUBLE, 3)), new Param("w", Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, 2, 3)));
        c.loadInto(fresh);
        assertArrayEquals(new double[] {0.1, Math.PI, -1e-300}, fresh.get(0).value().toDoubleVector());
        assertArrayEquals(new float[] {1.5f, -2.25f, Float.MIN_VALUE, 3e30f, 0f, -0f}, fresh.get(1).value().data().asFloat());
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(fresh.get(1).value().getFloat(1, 2)));
    }

    @Test
    void bytesAndStreamsCarryTheSameFormatAsFiles() throws Exception {
        Checkpoint c = Checkpoint.of("meta", params());
        Path f = dir.resolve("m.rgh");
        c.write(f);
        byte[] file = Files.readAllBytes(f);
        assertArrayEquals(file, c.toBytes());
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(7); // whatever came before stays
        c.write(out);
        assertArrayEquals(file, Arrays.copyOfRange(out.toByteArray(), 1, out.size()));
        Checkpoint back = Checkpoint.read(new java.io.ByteArrayInputStream(file));
        assertEquals("meta", back.metadata());
        assertArrayEquals(c.tensors().get("b").toDoubleVector(), back.tensors().get("b").toDoubleVector(), 0.0);
        assertArrayEquals(file, Checkpoint.fromBytes(file).toBytes());
        // the checks and messages of files, naming the source
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checkpoint.fromBytes(Arrays.copyOf(file, file.length - 3)));
        assertTrue(e.getMessage().startsWith("model bytes is "), e.getMessage());
        byte[] bad = file.clone();
        bad[file.length / 2] ^= 4;
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> Checkpoint.read(new java.io.ByteArrayInputStream(bad)));
        assertTrue(e2.getMessage().startsWith("model stream is corrupt"), e2.getMessage());
    }

    @Test
    void everyTruncationIsReportedClearly() throws Exception {
        Path f = dir.resolve("m.rgh");
        Checkpoint.of("meta", params()).write(f);
        byte[] all = Files.readAllBytes(f);
        for (int len = 0; len < all.length; len++) {
            Path g = dir.resolve("cut" + len);
            Files.write(g, Arrays.copyOf(all, len));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.read(g), "length " + len);
            assertTrue(e.getMessage().startsWith("model file " + g), e.getMessage());
            assertTrue(e.getMessage().matches(".*(truncated|corrupt|not a regheads model).*"), e.getMessage());
        }
    }

    @Test
    void everyFlippedByteIsDetected() throws Exception {
        Path f = dir.resolve("m.rgh");
        Checkpoint.of("meta", params()).write(f);
        byte[] all = Files.readAllBytes(f);
        for (int i = 0; i < all.length; i++) {
            byte[] bad = all.clone();
            bad[i] ^= 0x5A;
            Path g = dir.resolve("flip" + i);
            Files.write(g, bad);
            assertThrows(IllegalArgumentException.class, () -> Checkpoint.read(g), "flipped byte " + i);
        }
    }

    @Test
    void mismatchedModelAndMissingFileAreNamed() {
        Path f = dir.resolve("m.rgh");
        Checkpoint.of("meta", params()).write(f);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checkpoint.read(f).loadInto(List.of(new Param("w", Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.FLOAT, 3, 2)), new Param("b", Nd4j.zeros(org.nd4j.linalg.api.buffer.DataType.DOUBLE, 3)))));
        assertEquals("tensor w must have shape [3, 2], got [2, 3] in the file", e.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> Checkpoint.read(dir.resolve("nope")));
        assertEquals("model file " + dir.resolve("nope") + " does not exist", missing.getMessage());
    }

    @Test
    void aDirectoryIsRefusedAsAnArgument() {
        // reading a directory failed with an UncheckedIOException ("Is a directory") instead of the documented IAE
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Checkpoint.read(dir));
        assertEquals("model file " + dir + " is a directory; give the path of a file written by save", e.getMessage());
    }
}
