package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetsDirTest {

    @Test
    void thePropertyWins(@TempDir Path tmp) {
        assertEquals(Path.of("/data/uci"), DatasetsDir.locate("/data/uci", tmp));
    }

    @Test
    void foundFromTheWorkingDirectoryUpwards(@TempDir Path tmp) throws IOException {
        Files.createDirectories(tmp.resolve("repo/datasets/splits"));
        Path module = Files.createDirectories(tmp.resolve("repo/bench/target"));
        assertEquals(tmp.resolve("repo/datasets"), DatasetsDir.locate(null, module));
        assertEquals(tmp.resolve("repo/datasets"), DatasetsDir.locate(" ", tmp.resolve("repo")));
    }

    @Test
    void missingGivesDatasetsUnderTheWorkingDirectory(@TempDir Path tmp) {
        assertEquals(tmp.resolve("datasets"), DatasetsDir.locate(null, tmp));
    }

    /** The default of {@code uci} in this build (working directory: the bench module) is the repository's folder. */
    @Test
    void theRepositoryHasItsDatasets() {
        Path dir = DatasetsDir.locate(null, Path.of("").toAbsolutePath());
        for (String name : List.of("airfoil", "autompg", "concrete", "energy", "housing", "kin40k", "protein", "wine",
                "yacht", "pol", "elevators", "parkinsons")) {
            assertTrue(Files.isRegularFile(dir.resolve(name + ".csv")), name + ".csv in " + dir);
            assertTrue(Files.isRegularFile(dir.resolve("splits").resolve(name).resolve("fold.txt")), name + " split");
        }
    }
}
