package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.internal.Host;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build check behind the host-access layer: outside {@code core/src/main/java/io/regheads/core/internal}, no
 * Java source of the repository (main or test code of any module) touches native pointers or NIO views of native
 * memory. Such code could read memory that the collector has already freed; it must go through {@code Host}.
 */
class NativeAccessConfinementTest {
    /** What raw native access looks like in ND4J/JavaCPP code. */
    static final Pattern RAW = Pattern.compile(
            "\\.pointer\\(\\)|\\.addressPointer\\(\\)|\\.asBuffer\\(\\)|\\.asNio[A-Za-z]*\\(|\\.asByteBuffer\\(\\)"
                    + "|import\\s+org\\.bytedeco\\.javacpp\\.|import\\s+static\\s+org\\.bytedeco\\.|sun\\.misc\\.Unsafe"
                    + "|\\bnew\\s+(Float|Double|Int|Long|Byte|Short)Pointer\\(");
    static final String LAYER = "core/src/main/java/io/regheads/core/internal/";

    static Path repositoryRoot() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("core/src/main/java"))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "the repository root (with core/src/main/java) lies above the working directory");
        return dir;
    }

    @Test
    void onlyTheHostLayerTouchesNativeMemory() throws IOException {
        Path root = repositoryRoot();
        List<String> offenders = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String rel = root.relativize(f).toString().replace('\\', '/');
                if (!rel.endsWith(".java") || rel.contains("/target/") || rel.startsWith(".git/")
                        || !rel.contains("/src/")) {
                    continue;
                }
                scanned++;
                if (rel.startsWith(LAYER) || rel.endsWith("NativeAccessConfinementTest.java")) {
                    continue;
                }
                List<String> lines = read(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (RAW.matcher(lines.get(i)).find()) {
                        offenders.add(rel + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertTrue(scanned > 100, "scanned the repository's sources, got " + scanned + " files");
        assertEquals(List.of(), offenders, "raw native access outside " + LAYER);
    }

    @Test
    void thePatternCatchesTheFormsItMustCatch() {
        for (String bad : new String[] {"((FloatPointer) a.data().pointer()).asBuffer()", "a.data().asNioFloat()",
                "a.data().addressPointer()", "import org.bytedeco.javacpp.FloatPointer;", "new DoublePointer(p)"}) {
            assertTrue(RAW.matcher(bad).find(), bad);
        }
        assertTrue(!RAW.matcher("Host.read(a, dst); a.data().dataType()").find());
    }

    private static List<String> read(Path f) {
        try {
            return Files.readAllLines(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
